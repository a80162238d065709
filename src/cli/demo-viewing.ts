/**
 * Ninety days of make-believe viewing for the demo library, played through the same code that
 * stores real players' batches (`createBatchStore`) and folds them (`foldAll`), so every analytics answer
 * on a fresh install is computed exactly as in production. Deterministic: each video has its own audience size, a typical
 * drop-off, one or two moments people rewatch, and a call to action some viewers click; traffic
 * follows a weekday rhythm and working hours, and some viewers come back.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables/index.ts';
import type { ViewingEvent } from '../domains/viewing/index.ts';
import { createBatchStore, foldAll, type IncomingBatch } from '../domains/viewing/index.ts';
import { prng } from './demo-library.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const HISTORY_DAYS = 90;
const VIEWER_POOL = 1500;
/** A batch reports at most this much playing, like a player flushing every few seconds would. */
const PLAYED_PER_BATCH = 600;
/** Monday first: weekends are quiet for a B2B library. */
const WEEKDAY_RHYTHM = [1.15, 1.2, 1.1, 1.05, 0.9, 0.4, 0.35];

export interface DemoViewingVideo {
  id: string;
  durationSeconds: number;
  createdAt: Date;
}

type Range = [number, number];

/** Sessions stored per INSERT: one commit each would make seeding the embedded database slow. */
const SESSIONS_PER_TRANSACTION = 250;

/** Plays the sessions; returns how many were recorded. */
export async function playDemoViewing(db: Kysely<Database>, videos: readonly DemoViewingVideo[], now: Date): Promise<number> {
  const random = prng(90_2026);
  const sessions: (() => IncomingBatch[])[] = [];
  for (const video of videos) {
    // Sessions per weekday, on average: a few popular videos, a long tail (and a seed that takes seconds).
    const audience = 0.05 + random() ** 3 * 1.2;
    const typicalShare = 0.3 + random() * 0.55; // how far a typical viewer gets
    const hotSpots = Array.from({ length: 1 + Math.floor(random() * 2) }, () => 0.15 + random() * 0.6);
    const ctaAt = 0.75 + random() * 0.2;
    for (let daysAgo = HISTORY_DAYS - 1; daysAgo >= 0; daysAgo--) {
      const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - daysAgo * DAY_MS);
      if (dayStart.getTime() + DAY_MS < video.createdAt.getTime()) continue;
      const weekday = (dayStart.getUTCDay() + 6) % 7;
      const growth = 0.7 + 0.6 * (1 - daysAgo / HISTORY_DAYS); // libraries get busier over time
      const expected = audience * (WEEKDAY_RHYTHM[weekday] as number) * growth;
      const count = Math.floor(expected + random());
      for (let i = 0; i < count; i++) {
        const at = new Date(dayStart.getTime() + (8 + random() * 10) * 60 * 60 * 1000);
        if (at.getTime() > now.getTime() || at.getTime() < video.createdAt.getTime()) continue;
        const ranges = watchPattern(random, video.durationSeconds, typicalShare, hotSpots);
        const viewerId = `demo_viewer_${String(Math.floor(random() ** 1.5 * VIEWER_POOL)).padStart(5, '0')}`;
        const clicked = totalShare(ranges, video.durationSeconds) > 0.6 && random() < 0.08;
        const cta = clicked ? ctaAt * video.durationSeconds : null;
        sessions.push(() => playSession(video, viewerId, ranges, cta, at));
      }
    }
  }
  const store = createBatchStore(db);
  for (let from = 0; from < sessions.length; from += SESSIONS_PER_TRANSACTION) {
    const batches = sessions.slice(from, from + SESSIONS_PER_TRANSACTION).flatMap((session) => session());
    const refused = (await store(batches)).find((outcome) => !outcome.ok);
    if (refused && !refused.ok) throw refused.error;
  }
  await foldAll(db);
  return sessions.length;
}

/** What one viewer plays: from the start until they leave, perhaps rewatching a hot spot or skipping. */
function watchPattern(random: () => number, duration: number, typicalShare: number, hotSpots: number[]): Range[] {
  // One in seven leaves within the first seconds; the rest drop off exponentially around the typical share.
  const leaveAt = random() < 0.14 ? random() * 0.05 : Math.min(1, -Math.log(1 - random()) * typicalShare);
  const ranges: Range[] = [];
  let from = 0;
  if (random() < 0.1 && leaveAt > 0.5) {
    ranges.push([0, 0.2 * duration]); // skims the intro, then skips ahead
    from = 0.45;
  }
  ranges.push([from * duration, leaveAt * duration]);
  for (const spot of hotSpots) {
    if (leaveAt > spot + 0.05 && random() < 0.35) ranges.push([(spot - 0.03) * duration, (spot + 0.04) * duration]);
  }
  return ranges.map(([start, end]): Range => [round(Math.max(0, start)), round(Math.min(duration, end))]).filter(([s, e]) => e > s);
}

function playSession(video: DemoViewingVideo, viewerId: string, ranges: Range[], ctaPosition: number | null, at: Date): IncomingBatch[] {
  const batches: ViewingEvent[][] = [[{ type: 'play', position: ranges[0]?.[0] ?? 0 }]];
  let played = 0;
  for (const [start, end] of ranges) {
    // Split long stretches so no batch reports more than a player would between flushes.
    for (let from = start; from < end; from += PLAYED_PER_BATCH) {
      const to = Math.min(end, from + PLAYED_PER_BATCH);
      if (played + (to - from) > PLAYED_PER_BATCH) {
        batches.push([]);
        played = 0;
      }
      (batches[batches.length - 1] as ViewingEvent[]).push({ type: 'progress', ranges: [[round(from), round(to)]] });
      played += to - from;
    }
  }
  const last = batches[batches.length - 1] as ViewingEvent[];
  if (ctaPosition !== null) last.push({ type: 'cta_click', position: round(ctaPosition), label: 'Book a demo' });
  last.push({ type: 'pause', position: ranges[ranges.length - 1]?.[1] ?? 0 });
  const sessionId = randomUUID();
  return batches.map((events, i) => ({
    sessionId,
    videoId: video.id,
    viewerId,
    sequence: i + 1,
    events,
    receivedAt: new Date(at.getTime() + i * 5000),
  }));
}

function totalShare(ranges: Range[], duration: number): number {
  return ranges.reduce((sum, [s, e]) => sum + (e - s), 0) / duration;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
