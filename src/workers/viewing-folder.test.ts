/**
 * The worker's fold loop on its own: batches stored as POST /collect stores them reach the sessions
 * and the rollups without anyone calling the fold, a backlog larger than one fold is cleared, and
 * stop() ends the loop.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp } from '../../test/helpers/app.ts';
import { viewer } from '../../test/helpers/viewing.ts';
import { createBatchStore, FOLD_BATCH_LIMIT, type IncomingBatch } from '../domains/viewing/index.ts';
import { startViewingFolder } from './viewing-folder.ts';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

test('the folder folds what was stored, a backlog of several folds included, and stops when told', async (t) => {
  // The folder folds every workspace's batches: a database of its own.
  const harness = await startTestApp(t, { isolated: true });
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 100 });
  const sessions = Math.ceil((FOLD_BATCH_LIMIT * 1.5) / 2);
  const batches: IncomingBatch[] = Array.from({ length: sessions }, (_, s) => {
    const sessionId = randomUUID();
    return [1, 2].map((sequence) => ({
      sessionId,
      videoId,
      viewerId: viewer(`loop${s % 50}`),
      sequence,
      events: [{ type: 'progress' as const, ranges: [[sequence, sequence + 1]] as [number, number][] }],
      receivedAt: new Date(),
    }));
  }).flat();
  const outcomes = await createBatchStore(harness.database.db)(batches);
  assert.ok(outcomes.every((outcome) => outcome.ok));

  const folder = startViewingFolder({ db: harness.database.db, log: quiet, intervalMs: 20 });
  let stopped = false;
  t.after(() => (stopped ? undefined : folder.stop()));
  const lifetime = async () =>
    harness.database.db
      .selectFrom('video_stats')
      .select(['views', 'watch_time_seconds'])
      .where('video_id', '=', videoId)
      .executeTakeFirst();
  for (let waited = 0; (await lifetime())?.views !== sessions; waited += 20) {
    assert.ok(waited < 60_000, `not folded within a minute: ${JSON.stringify(await lifetime())}`);
    await sleep(20);
  }
  await folder.stop();
  stopped = true;
  assert.deepEqual(await lifetime(), { views: sessions, watch_time_seconds: 2 * sessions });
  const day = await harness.database.db
    .selectFrom('workspace_daily_stats')
    .select(['views', 'unique_viewers'])
    .where('workspace_id', '=', ws.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(day, { views: sessions, unique_viewers: 50 });
});
