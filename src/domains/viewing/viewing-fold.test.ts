/**
 * Collection's two halves directly: the batch store (groups, duplicates inside a group, videos
 * archived after they were first collected) and the fold (exactly once in any number of steps,
 * across powers of ten of the transaction ids and positions it orders by; below the horizon of
 * running transactions only, on PostgreSQL where a transaction can stay open beside it).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { collect, pageView, viewer } from '../../../test/helpers/viewing.ts';
import { createBatchStore, type IncomingBatch } from './batch-intake.queries.ts';
import { anythingToFold, foldAll, foldViewing } from './viewing-fold.ts';

const SESSIONS = 30;
const BATCHES_PER_SESSION = 4;

/** Session s, batch b: one second of progress at a second of its own, so every total is known. */
function sessionBatches(videoId: string, sessionId: string, s: number, at: Date): IncomingBatch[] {
  return Array.from({ length: BATCHES_PER_SESSION }, (_, b) => ({
    sessionId,
    videoId,
    viewerId: viewer(`fold${s}`),
    sequence: b + 1,
    events: [{ type: 'progress' as const, ranges: [[b * 10, b * 10 + 1]] }],
    receivedAt: at,
  }));
}

async function totals(harness: TestApp, workspaceId: string, videoId: string) {
  const db = harness.database.db;
  const lifetime = await db
    .selectFrom('video_stats')
    .select(['views', 'watch_time_seconds'])
    .where('video_id', '=', videoId)
    .executeTakeFirst();
  const { rows } = await sql<{ views: number; watch: number; played: number; sessions: number }>`
    select (select coalesce(sum(views), 0)::int from workspace_daily_stats where workspace_id = ${workspaceId}) as views,
           (select coalesce(sum(watch_time_seconds), 0)::float8 from video_daily_stats where video_id = ${videoId}) as watch,
           (select coalesce(sum(played_seconds), 0)::float8 from viewing_sessions where video_id = ${videoId}) as played,
           (select count(*)::int from viewing_sessions where video_id = ${videoId}) as sessions`.execute(db);
  return { lifetime, ...rows[0] };
}

test('batches stored in groups are folded exactly once, however many steps the fold takes', async (t) => {
  // Fresh positions and transaction ids: the groups below cross 9 → 10 and 99 → 100.
  const harness = await startTestApp(t, { isolated: true });
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 600 });
  const store = createBatchStore(harness.database.db);
  const at = new Date();
  const all = Array.from({ length: SESSIONS }, (_, s) => sessionBatches(videoId, randomUUID(), s, at)).flat();
  // Twelve groups of ten (one transaction each), the same again in one group of 120 (all duplicates).
  for (let from = 0; from < all.length; from += 10) {
    const outcomes = await store(all.slice(from, from + 10));
    assert.ok(outcomes.every((o) => o.ok && !o.value.duplicate));
  }
  assert.ok((await store(all)).every((o) => o.ok && o.value.duplicate));

  let steps = 0;
  for (;;) {
    const { batches, more } = await foldViewing(harness.database.db, { limit: 7 });
    if (batches > 0) steps++;
    if (more || batches > 0) continue;
    // Nothing it may take yet: on a shared PostgreSQL server another test's open transaction can hold
    // the horizon back (as foldAll waits for it); done only once nothing is left past the cursor.
    if (!(await anythingToFold(harness.database.db))) break;
    await sleep(5);
  }
  assert.ok(steps >= Math.ceil(all.length / 7), `${steps} folds`);
  const expected = { views: SESSIONS, watch: SESSIONS * BATCHES_PER_SESSION, played: SESSIONS * BATCHES_PER_SESSION, sessions: SESSIONS };
  assert.deepEqual(await totals(harness, ws.id, videoId), {
    lifetime: { views: SESSIONS, watch_time_seconds: SESSIONS * BATCHES_PER_SESSION },
    ...expected,
  });
  assert.deepEqual(await foldViewing(harness.database.db), { batches: 0, sessions: 0, more: false }, 'nothing is left to fold');
  const lastSequences = await harness.database.db.selectFrom('viewing_sessions').select('last_sequence').distinct().execute();
  assert.deepEqual(lastSequences, [{ last_sequence: BATCHES_PER_SESSION }]);
});

test('the same batch twice in one group is stored once and answered as a duplicate the second time', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 60 });
  const store = createBatchStore(harness.database.db);
  const [batch] = sessionBatches(videoId, randomUUID(), 0, new Date());
  const outcomes = await store([batch as IncomingBatch, batch as IncomingBatch]);
  assert.deepEqual(outcomes, [
    { ok: true, value: { duplicate: false } },
    { ok: true, value: { duplicate: true } },
  ]);
});

test('a video archived after its first batches collects nothing more, at once', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 60 });
  const view = pageView(videoId);
  const send = (sequence: number) =>
    collect(harness, { token: view.token, viewer_id: viewer('arch'), sequence, events: [{ type: 'progress', ranges: [[0, 5]] }] });
  assert.equal((await send(1)).status, 200);
  await harness.database.db.updateTable('videos').set({ archived: true }).where('id', '=', videoId).execute();
  const refused = await send(2);
  assert.deepEqual([refused.status, refused.body.error.code], [404, 'not_found']);
  const stored = await harness.database.db.selectFrom('viewing_batches').select('sequence').where('video_id', '=', videoId).execute();
  assert.deepEqual(stored, [{ sequence: 1 }]);
});

// A transaction that stays open while others commit needs a second connection: PostgreSQL only
// (the embedded database has one connection, so nothing can commit around an open transaction).
if (process.env.TEST_DATABASE_URL) {
  test('the fold waits for a transaction still storing batches, then folds it and what came after exactly once', async (t) => {
    const harness = await startTestApp(t);
    const ws = await harness.workspace();
    const videoId = await ws.addVideo({ duration_seconds: 600 });
    const db = harness.database.db;
    const at = new Date();
    const early = sessionBatches(videoId, randomUUID(), 0, at);
    const late = sessionBatches(videoId, randomUUID(), 1, at);
    let folding: Promise<number> | undefined;
    await db.transaction().execute(async (trx) => {
      // Stored first (the lower transaction id), committed last.
      assert.ok((await createBatchStore(trx)(early)).every((o) => o.ok));
      assert.ok((await createBatchStore(db)(late)).every((o) => o.ok));
      await foldViewing(db);
      const folded = await db.selectFrom('viewing_sessions').select('id').where('video_id', '=', videoId).execute();
      assert.deepEqual(folded, [], 'the later batches wait behind the open transaction, or the cursor would pass the earlier ones');
      // foldAll (the seeder's) waits for the horizon rather than answer early with nothing folded.
      folding = foldAll(db);
    });
    assert.equal(await folding, early.length + late.length);
    assert.deepEqual(await totals(harness, ws.id, videoId), {
      lifetime: { views: 2, watch_time_seconds: 2 * BATCHES_PER_SESSION },
      views: 2,
      watch: 2 * BATCHES_PER_SESSION,
      played: 2 * BATCHES_PER_SESSION,
      sessions: 2,
    });
  });
}
