/**
 * Viewing as a player does it: a viewing token for a page view of a video (as the watch page would
 * issue), and batches POSTed to /collect with a browser's User-Agent. `watch` plays a whole session
 * from a list of batches, numbering them 1, 2, 3… like the player.
 *
 * In the service the worker folds stored batches into the analytics within a fraction of a second;
 * tests have no worker, so `collect` folds everything stored before it answers (`foldEverything`),
 * and a test reads its numbers right after.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/tables/index.ts';
import { foldAll } from '../../src/domains/viewing/viewing-fold.ts';
import { createViewingTokens } from '../../src/domains/viewing/viewing-token.ts';
import { TEST_SECRET, type TestApp } from './app.ts';

export const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';
const tokens = createViewingTokens(TEST_SECRET);

export type Event =
  | { type: 'play' | 'pause' | 'ended'; position: number }
  | { type: 'seek'; from: number; to: number }
  | { type: 'progress'; ranges: [number, number][] }
  | { type: 'cta_click'; position: number; label?: string };

/** A new page view of the video: its token and the session id the token binds. */
export function pageView(videoId: string, now = new Date()): { token: string; sessionId: string } {
  return tokens.issue(videoId, now);
}

export async function collect(harness: TestApp, body: unknown, headers: Record<string, string> = {}) {
  const res = await collectUnfolded(harness, body, headers);
  if (res.status === 200) await foldEverything(harness.database.db);
  return res;
}

/**
 * POST /collect without folding after it: for a test that sends many sessions at once and folds them
 * together (foldEverything) before it reads, as the worker folds a backlog. A fold per session would
 * cost the same dozen statements each time.
 */
export async function collectUnfolded(harness: TestApp, body: unknown, headers: Record<string, string> = {}) {
  const res = await harness.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER, ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers };
}

/** Plays one session: each inner list is one batch. Returns the session id. */
export async function watch(harness: TestApp, videoId: string, viewerId: string, batches: Event[][]): Promise<string> {
  const view = pageView(videoId);
  for (const [i, events] of batches.entries()) {
    const res = await collect(harness, { token: view.token, viewer_id: viewerId, sequence: i + 1, events });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  return view.sessionId;
}

/** A viewer id of the form the player makes. */
export function viewer(name: string): string {
  // Padded with a character names do not end in, so 'q1' and 'q10' stay two viewers.
  return `viewer_${name}`.padEnd(16, '_');
}

/**
 * Folds until every batch stored so far is folded. A fold takes only batches of transactions that
 * have ended; on a shared PostgreSQL another test file's transaction may be running, so this waits
 * for it rather than stopping at the first fold that found nothing. The horizon is the whole
 * server's (any database's open transaction holds it), and in a full run on a busy machine one can
 * stay open past ten seconds (a benchmark's seed, a migration): CI once failed a leads test after 10 s.
 * The wait is a hang guard, not a speed target.
 */
export async function foldEverything(db: Kysely<Database>): Promise<void> {
  await foldAll(db, { waitMs: 120_000 });
}

/** A stored viewing batch as a test reads it back. */
export interface StoredBatch {
  sequence: number;
  events: { type: string; position?: number; from?: number; to?: number; ranges?: [number, number][]; label?: string }[];
}

/** The session's stored batches, oldest first, once `done` holds for them (or what there is at the deadline). */
export async function storedBatchesUntil(
  harness: TestApp,
  sessionId: string,
  done: (batches: StoredBatch[]) => boolean,
  timeoutMs = 30_000,
): Promise<StoredBatch[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await harness.database.db
      .selectFrom('viewing_batches')
      .select(['sequence', 'events'])
      .where('session_id', '=', sessionId)
      .orderBy('sequence')
      .execute();
    const batches = rows as StoredBatch[];
    if (done(batches) || Date.now() > deadline) return batches;
    await sleep(100);
  }
}
