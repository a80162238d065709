/**
 * Players that keep POSTing viewing batches to a real server and a ledger of everything they sent,
 * for crash tests: which requests were answered (and whether as a duplicate), which got no answer
 * because the process died, and the numbers the analytics must show once every batch sent is stored.
 *
 * Each page view comes from an address of its own, in X-Forwarded-For: the servers these tests start
 * trust loopback as their proxy (BURST_SERVER_ENV), so the players, who send as fast as they are
 * answered, draw from many addresses' limits of /collect rather than one machine's.
 *
 * Every batch holds whole seconds (a progress range with integer ends, or a lone play event of no
 * seconds), so the expected watch time is an exact sum and "a view" (at least one second played) is
 * decided without rounding.
 */
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ViewingEvent } from '../../src/domains/viewing/collect-batch.ts';
import { VIEW_MIN_SECONDS } from '../../src/domains/viewing/session-change.ts';
import { createViewingTokens } from '../../src/domains/viewing/viewing-token.ts';
import { http } from './server-process.ts';
import { BROWSER, viewer } from './viewing.ts';

/** What a server the players send to runs with: loopback, where they connect from, is its trusted proxy. */
export const BURST_SERVER_ENV = { CUEPOINT_TRUSTED_PROXIES: '127.0.0.1,::1' } as const;

export interface BurstVideo {
  id: string;
  durationSeconds: number;
}

export interface SentBatch {
  sessionId: string;
  sequence: number;
  videoId: string;
  /** Seconds the batch plays: what it adds to watch time, once. */
  seconds: number;
  body: { token: string; viewer_id: string; sequence: number; events: ViewingEvent[] };
  /** Its page view's client address, passed on in X-Forwarded-For. */
  client: string;
  /** The `duplicate` flag of every 200 answer to this (session, sequence), in order. */
  answers: boolean[];
  /** Requests for it that got no answer: the process died with the request in flight. */
  unanswered: number;
}

export interface Expected {
  views: number;
  watchTimeSeconds: number;
}

export class ViewingLedger {
  readonly batches = new Map<string, SentBatch>();
  /** Answers that were not a 200 with `accepted: true`: none is expected. */
  readonly unexpected: string[] = [];

  add(batch: Omit<SentBatch, 'answers' | 'unanswered'>): SentBatch {
    const sent: SentBatch = { ...batch, answers: [], unanswered: 0 };
    this.batches.set(keyOf(sent), sent);
    return sent;
  }

  /** Batches no request of which was answered yet: a player sends them again. */
  neverAnswered(): SentBatch[] {
    return [...this.batches.values()].filter((batch) => batch.answers.length === 0);
  }

  acknowledged(): SentBatch[] {
    return [...this.batches.values()].filter((batch) => batch.answers.length > 0);
  }

  /** Per session: its video, the seconds its batches play together and its highest sequence. */
  sessions(): Map<string, { videoId: string; playedSeconds: number; lastSequence: number }> {
    const sessions = new Map<string, { videoId: string; playedSeconds: number; lastSequence: number }>();
    for (const batch of this.batches.values()) {
      const session = sessions.get(batch.sessionId) ?? { videoId: batch.videoId, playedSeconds: 0, lastSequence: 0 };
      session.playedSeconds += batch.seconds;
      session.lastSequence = Math.max(session.lastSequence, batch.sequence);
      sessions.set(batch.sessionId, session);
    }
    return sessions;
  }

  /** What each video's analytics show once every batch sent is stored and folded, each exactly once. */
  expected(videoIds: readonly string[]): Map<string, Expected> {
    const totals = new Map(videoIds.map((id) => [id, { views: 0, watchTimeSeconds: 0 }]));
    for (const session of this.sessions().values()) {
      const video = totals.get(session.videoId) as Expected;
      video.watchTimeSeconds += session.playedSeconds;
      if (session.playedSeconds >= VIEW_MIN_SECONDS) video.views += 1;
    }
    return totals;
  }
}

export function keyOf(batch: { sessionId: string; sequence: number }): string {
  return `${batch.sessionId}:${batch.sequence}`;
}

/** POSTs the batch as the player does; 'lost' when no answer came back (or an answer no player expects). */
export async function sendBatch(url: string, ledger: ViewingLedger, batch: SentBatch): Promise<'answered' | 'lost'> {
  let res: Awaited<ReturnType<typeof http>>;
  try {
    res = await http(`${url}/collect`, {
      method: 'POST',
      body: batch.body,
      headers: { 'user-agent': BROWSER, 'x-forwarded-for': batch.client },
    });
  } catch {
    batch.unanswered++;
    return 'lost';
  }
  if (res.status !== 200 || res.body?.accepted !== true || typeof res.body.duplicate !== 'boolean') {
    ledger.unexpected.push(`${keyOf(batch)}: ${res.status} ${JSON.stringify(res.body)}`);
    return 'lost';
  }
  batch.answers.push(res.body.duplicate);
  return 'answered';
}

export interface Burst {
  /** 200 answers received so far in this burst. */
  answered(): number;
  /** Resolves once `count` answers have come in, or every player has stopped. */
  answeredAtLeast(count: number): Promise<void>;
  /** Players finish the request in hand and stop. */
  stop(): void;
  /** Every player has stopped: asked to, or its request died with the server. */
  done: Promise<void>;
}

/**
 * `players` concurrent players, each playing one page view after another (1–5 batches of a random
 * video) until stopped or until a request gets no answer. Now and then a batch is sent twice at once
 * (a beacon racing a retry) or again after its answer (a retry whose first answer was lost).
 */
export function startBurst(options: {
  url: string;
  ledger: ViewingLedger;
  videos: readonly BurstVideo[];
  secret: string;
  players: number;
  label: string;
}): Burst {
  const { url, ledger, videos } = options;
  const tokens = createViewingTokens(options.secret);
  let stopped = false;
  let answered = 0;
  let running = options.players;
  const send = async (batch: SentBatch) => {
    const result = await sendBatch(url, ledger, batch);
    if (result === 'answered') answered++;
    return result;
  };
  const player = async (p: number) => {
    const viewerId = viewer(`${options.label}p${p}`);
    while (!stopped) {
      const video = videos[randomInt(videos.length)] as BurstVideo;
      const view = tokens.issue(video.id, new Date());
      const client = `198.18.${randomInt(256)}.${randomInt(256)}`;
      const count = 1 + randomInt(5);
      let at = 0;
      for (let sequence = 1; sequence <= count && !stopped; sequence++) {
        let events: ViewingEvent[];
        let seconds: number;
        if (sequence === 1 && randomInt(6) === 0) {
          // A page view that only starts playing: a session, but no view unless later batches play.
          events = [{ type: 'play', position: 0 }];
          seconds = 0;
        } else {
          seconds = 1 + randomInt(8);
          if (at + seconds > video.durationSeconds) at = 0; // watches again from the start
          events = [{ type: 'progress', ranges: [[at, at + seconds]] }];
          at += seconds;
        }
        const batch = ledger.add({
          sessionId: view.sessionId,
          sequence,
          videoId: video.id,
          seconds,
          body: { token: view.token, viewer_id: viewerId, sequence, events },
          client,
        });
        const copies = randomInt(10) === 0 ? 2 : 1;
        const results = await Promise.all(Array.from({ length: copies }, () => send(batch)));
        if (results.includes('lost')) return;
        if (randomInt(7) === 0 && (await send(batch)) === 'lost') return;
      }
    }
  };
  const done = Promise.all(Array.from({ length: options.players }, (_, p) => player(p).finally(() => running--))).then(() => {});
  return {
    answered: () => answered,
    async answeredAtLeast(count) {
      while (answered < count && running > 0) await sleep(5);
    },
    stop: () => {
      stopped = true;
    },
    done,
  };
}
