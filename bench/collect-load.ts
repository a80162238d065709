/**
 * Load generator of the collection benchmark (bench/collect.ts), run as its own process so that
 * making requests never shares the server's event loop. A fixed number of simulated players, each
 * playing one page view after another as fast as the server answers (closed loop): a page view gets
 * a viewing token as the watch page would issue it (minted here with the service's secret), sends a
 * first batch with `play` and progress, then one batch per "5 s" of playing (sent at once: the bench
 * measures throughput, not real time) of 2–6 events: the 5 s as 2–4 progress events, now and then a
 * seek (forwards or back: rewatches), a pause and play, a CTA click; the last batch ends with a pause,
 * or `ended`. About 8% of page views leave after 0.4 s (not a view). Some acknowledged batches are
 * sent again, unchanged, as a player whose answer got lost would: the server must answer them
 * `duplicate: true` and count them once. A batch that fails (network, 5xx) is sent again, like the
 * player does, until it is answered. Each page view comes from an address of its own, passed on in
 * X-Forwarded-For as a load balancer would (collect-request.ts), so the service's per-address limit
 * sees viewers rather than the one machine playing them all.
 *
 * Every time and range is a whole number of milliseconds, so the generator's own sums are exact.
 * Input: a JSON LoadConfig in argv[2]. Output: JSON lines on stdout: `{"mark":"start"}` and `{"mark":"end"}` as the
 * measurement window opens and closes, then one LoadResult: the figures of the
 * measurement window (after the warm-up), and what was acknowledged over the whole run, to be
 * compared with the database afterwards.
 */
import { Pool } from 'undici';
import { prng } from '../src/cli/demo-library.ts';
import { createViewingTokens } from '../src/domains/viewing/index.ts';
import { benchClientAddress, postBatch } from './collect-request.ts';
import { percentile } from './throwaway-database.ts';

export interface LoadConfig {
  url: string;
  secret: string;
  videos: { id: string; durationSeconds: number }[];
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Share of acknowledged batches sent a second time. */
  resendShare: number;
  viewerPool: number;
  seed: number;
}

export interface LoadResult {
  window: {
    seconds: number;
    requests: number;
    /** Events in the requests of the window, resends included. */
    events: number;
    /** Events of batches counted for the first time (resends and retries left out). */
    newEvents: number;
    newBatches: number;
    latencyMs: { p50: number; p90: number; p99: number; max: number; average: number };
  };
  run: {
    seconds: number;
    requests: number;
    /** Distinct (session, sequence) the server answered 200: rows viewing_batches must hold. */
    deliveredBatches: number;
    /** Of those, answered `duplicate: false` the first time. */
    acknowledgedNew: number;
    /** Retries of a failed send answered `duplicate: true` (stored by the attempt whose answer was lost). */
    retriesFoundStored: number;
    deliberateResends: number;
    /** Deliberate resends answered `duplicate: false`: counted twice. Must be 0. */
    resendsCountedAgain: number;
    failedAttempts: Record<string, number>;
    /** Batches refused with a 4xx: a generator bug, never expected. */
    refusedBatches: number;
    refusals: string[];
    sessionsStarted: number;
    /** Page views with at least one delivered batch: rows viewing_sessions must hold. */
    sessions: number;
    /** Page views whose delivered batches played at least 1 s. */
    views: number;
    /** Views (played ≥ 1 s) with a delivered CTA click: conversions. */
    conversions: number;
    /** Sum of the lengths of the progress ranges of delivered batches, in seconds. */
    watchTimeSeconds: number;
    eventsDelivered: number;
    eventsByType: Record<string, number>;
  };
}

const TICK_MS = 5000;
const VIEW_MS = 1000;
const MAX_ATTEMPTS = 20;

type Event =
  | { type: 'play' | 'pause' | 'ended' | 'cta_click'; position: number }
  | { type: 'seek'; from: number; to: number }
  | { type: 'progress'; ranges: [number, number][] };

interface PlannedBatch {
  events: Event[];
  playedMs: number;
  cta: boolean;
}

/** One page view's batches, one at a time, in milliseconds of media time. */
function* pageView(random: () => number, durationMs: number): Generator<PlannedBatch> {
  const s = (ms: number) => ms / 1000;
  if (random() < 0.08) {
    // Leaves while the first frames play: 0.4 s, not a view.
    yield {
      events: [
        { type: 'play', position: 0 },
        { type: 'progress', ranges: [[0, 0.4]] },
      ],
      playedMs: 400,
      cta: false,
    };
    return;
  }
  // How much this viewer will play: exponential around 45% of the video, at least 2 s.
  const budgetMs = Math.max(2000, Math.min(durationMs, Math.floor(-Math.log(1 - random()) * 0.45 * durationMs)));
  let position = 0;
  let played = 0;
  let first = true;
  for (;;) {
    const before: Event[] = [];
    const after: Event[] = [];
    if (first) before.push({ type: 'play', position: s(position) });
    else if (random() < 0.05) {
      // A seek anywhere but the last 5 s: backwards is a rewatch.
      const to = Math.floor(random() * Math.max(0, durationMs - TICK_MS));
      before.push({ type: 'seek', from: s(position), to: s(to) });
      position = to;
    }
    const tick = Math.min(TICK_MS, budgetMs - played, durationMs - position);
    const progress: Event[] = [];
    if (tick > 0) {
      // 2–4 progress events for the 5 s (one when the stretch is tiny), fewer when extras fill the batch.
      const pieces = tick < 50 ? 1 : 2 + Math.floor(random() * 3);
      const cuts = Array.from({ length: pieces + 1 }, (_, i) => position + Math.floor((tick * i) / pieces));
      for (let i = 0; i < pieces; i++) progress.push({ type: 'progress', ranges: [[s(cuts[i] as number), s(cuts[i + 1] as number)]] });
      position += tick;
      played += tick;
    }
    const cta = position > durationMs / 2 && random() < 0.03;
    if (cta) after.push({ type: 'cta_click', position: s(position) });
    const ended = position >= durationMs;
    const done = ended || played >= budgetMs;
    if (ended) after.push({ type: 'ended', position: s(durationMs) });
    else if (done) after.push({ type: 'pause', position: s(position) });
    else if (random() < 0.03) after.push({ type: 'pause', position: s(position) }, { type: 'play', position: s(position) });
    // At most 6 events: merge progress events (keeping their ranges) until the batch fits.
    while (before.length + progress.length + after.length > 6 && progress.length > 1) {
      const last = progress.pop() as { type: 'progress'; ranges: [number, number][] };
      (progress[progress.length - 1] as { type: 'progress'; ranges: [number, number][] }).ranges.push(...last.ranges);
    }
    yield { events: [...before, ...progress, ...after], playedMs: Math.max(tick, 0), cta };
    first = false;
    if (done) return;
  }
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as LoadConfig;
  const tokens = createViewingTokens(config.secret);
  const pool = new Pool(config.url, { connections: config.connections, pipelining: 1, keepAliveTimeout: 60_000 });
  const began = performance.now();
  const windowStart = began + config.warmupSeconds * 1000;
  const windowEnd = windowStart + config.durationSeconds * 1000;
  // Tell the parent when the window opens and closes, so it measures CPU over the same time.
  const mark = (name: 'start' | 'end') => process.stdout.write(`${JSON.stringify({ mark: name })}\n`);
  setTimeout(() => mark('start'), windowStart - began);
  setTimeout(() => mark('end'), windowEnd - began);

  const latencies: number[] = [];
  const window = { requests: 0, events: 0, newEvents: 0, newBatches: 0 };
  const run: LoadResult['run'] = {
    seconds: 0,
    requests: 0,
    deliveredBatches: 0,
    acknowledgedNew: 0,
    retriesFoundStored: 0,
    deliberateResends: 0,
    resendsCountedAgain: 0,
    failedAttempts: {},
    refusedBatches: 0,
    refusals: [],
    sessionsStarted: 0,
    sessions: 0,
    views: 0,
    conversions: 0,
    watchTimeSeconds: 0,
    eventsDelivered: 0,
    eventsByType: {},
  };
  let watchTimeMs = 0;

  /** Sends one body until it is answered; resolves to the answer (undefined: refused with a 4xx). */
  const send = async (body: string, events: number, client: string): Promise<{ duplicate: boolean; retried: boolean } | undefined> => {
    for (let attempt = 1; ; attempt++) {
      const start = performance.now();
      const { status, text } = await postBatch(pool, body, client);
      const end = performance.now();
      run.requests++;
      if (end >= windowStart && end <= windowEnd) {
        window.requests++;
        window.events += events;
        latencies.push(end - start);
      }
      if (status === 200) return { duplicate: (JSON.parse(text) as { duplicate: boolean }).duplicate, retried: attempt > 1 };
      const key = status === 0 ? 'network' : String(status);
      run.failedAttempts[key] = (run.failedAttempts[key] ?? 0) + 1;
      if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
        run.refusedBatches++;
        if (run.refusals.length < 5) run.refusals.push(`${status} ${text.slice(0, 300)}`);
        return undefined;
      }
      if (attempt >= MAX_ATTEMPTS) throw new Error(`a batch was not answered after ${MAX_ATTEMPTS} attempts: ${key} ${text.slice(0, 200)}`);
      await new Promise((ok) => setTimeout(ok, Math.min(1000, 20 * attempt)));
    }
  };

  const player = async (index: number) => {
    const random = prng(config.seed * 1000 + index);
    while (performance.now() < windowEnd) {
      const videoIndex = Math.min(config.videos.length - 1, Math.floor(config.videos.length * random() ** 1.5));
      const video = config.videos[videoIndex] as LoadConfig['videos'][number];
      const viewerId = `bench_viewer_${String(Math.floor(random() * config.viewerPool)).padStart(6, '0')}`;
      const { token } = tokens.issue(video.id, new Date());
      // Each page view a viewer of its own, at an address of its own, as behind a load balancer.
      const client = benchClientAddress(run.sessionsStarted);
      run.sessionsStarted++;
      let sequence = 0;
      let playedMs = 0;
      let delivered = false;
      let clicked = false;
      for (const batch of pageView(random, Math.round(video.durationSeconds * 1000))) {
        if (performance.now() >= windowEnd) break; // the player leaves; batches not sent are not counted
        sequence++;
        const body = JSON.stringify({ token, viewer_id: viewerId, sequence, events: batch.events });
        const answer = await send(body, batch.events.length, client);
        if (!answer) continue;
        run.deliveredBatches++;
        if (answer.duplicate) {
          if (!answer.retried) throw new Error(`a first send was answered duplicate: ${body}`);
          run.retriesFoundStored++;
        } else run.acknowledgedNew++;
        const end = performance.now();
        if (end >= windowStart && end <= windowEnd) {
          window.newBatches++;
          window.newEvents += batch.events.length;
        }
        delivered = true;
        playedMs += batch.playedMs;
        clicked ||= batch.cta;
        run.eventsDelivered += batch.events.length;
        for (const event of batch.events) run.eventsByType[event.type] = (run.eventsByType[event.type] ?? 0) + 1;
        for (const event of batch.events) {
          if (event.type === 'progress')
            for (const [from, to] of event.ranges) watchTimeMs += Math.round(to * 1000) - Math.round(from * 1000);
        }
        if (random() < config.resendShare) {
          run.deliberateResends++;
          const again = await send(body, batch.events.length, client);
          if (again && !again.duplicate) run.resendsCountedAgain++;
        }
      }
      if (delivered) run.sessions++;
      if (playedMs >= VIEW_MS) run.views++;
      if (clicked && playedMs >= VIEW_MS) run.conversions++;
    }
  };

  await Promise.all(Array.from({ length: config.connections }, (_, i) => player(i)));
  run.seconds = (performance.now() - began) / 1000;
  run.watchTimeSeconds = watchTimeMs / 1000;
  await pool.close();
  const result: LoadResult = {
    window: {
      seconds: config.durationSeconds,
      ...window,
      latencyMs: {
        p50: percentile(latencies, 50),
        p90: percentile(latencies, 90),
        p99: percentile(latencies, 99),
        max: percentile(latencies, 100),
        average: latencies.reduce((sum, value) => sum + value, 0) / Math.max(1, latencies.length),
      },
    },
    run,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (import.meta.main) await main();
