/**
 * The job queue's promises: due jobs are claimed once, a lapsed lease hands the job to another
 * worker and fences off the first, failures retry then end failed, jobs whose workers keep dying are
 * reaped as failed, and concurrent claimers never share a job.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openTestDatabase } from '../../test/helpers/database.ts';
import { claimJob, completeJob, enqueueJob, failJob, heartbeat, reapAbandonedJobs } from './queue.ts';

const T0 = new Date('2026-05-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

async function freshDb(t: import('node:test').TestContext) {
  const database = await openTestDatabase();
  t.after(() => database.close());
  return database.db;
}

test('a due job is claimed once and completed; a future one waits for its time', async (t) => {
  const db = await freshDb(t);
  const now = await enqueueJob(db, { kind: 'video.process', workspaceId: null, payload: { n: 1 }, maxAttempts: 3 }, T0);
  const later = await enqueueJob(
    db,
    { kind: 'video.process', workspaceId: null, payload: { n: 2 }, maxAttempts: 3, runAt: at(60_000) },
    T0,
  );
  const first = await claimJob(db, ['video.process'], 'w1', 30_000, T0);
  assert.equal(first?.id, now);
  assert.deepEqual(first?.payload, { n: 1 });
  assert.equal(first?.attempt, 1);
  assert.equal(await claimJob(db, ['video.process'], 'w2', 30_000, T0), undefined, 'nothing else is due');
  assert.equal(await claimJob(db, ['other.kind'], 'w2', 30_000, at(120_000)), undefined, 'kinds are respected');
  assert.equal(await completeJob(db, first!, at(1000)), true);
  assert.equal((await claimJob(db, ['video.process'], 'w2', 30_000, at(60_000)))?.id, later);
});

test('a lapsed lease hands the job to another worker, and the first worker’s answer is ignored', async (t) => {
  const db = await freshDb(t);
  await enqueueJob(db, { kind: 'k', workspaceId: null, payload: {}, maxAttempts: 5 }, T0);
  const a = (await claimJob(db, ['k'], 'a', 10_000, T0))!;
  assert.equal(await heartbeat(db, a, 10_000, at(5000)), true, 'a live worker keeps its lease');
  assert.equal(await claimJob(db, ['k'], 'b', 10_000, at(14_000)), undefined, 'the renewed lease still holds');
  const b = (await claimJob(db, ['k'], 'b', 10_000, at(15_001)))!;
  assert.equal(b.id, a.id);
  assert.equal(b.attempt, 2);
  assert.equal(await heartbeat(db, a, 10_000, at(15_002)), false, 'the first worker learns it lost the job');
  assert.equal(await completeJob(db, a, at(15_003)), false, 'its late completion is fenced off');
  assert.equal(await failJob(db, a, 'late', 0, at(15_003)), undefined);
  assert.equal(await completeJob(db, b, at(16_000)), true);
});

test('failures retry after the delay, then end failed with the last reason', async (t) => {
  const db = await freshDb(t);
  const id = await enqueueJob(db, { kind: 'k', workspaceId: null, payload: {}, maxAttempts: 2 }, T0);
  const first = (await claimJob(db, ['k'], 'w', 10_000, T0))!;
  assert.equal(await failJob(db, first, 'timeout', 5000, at(100)), 'retrying');
  assert.equal(await claimJob(db, ['k'], 'w', 10_000, at(4000)), undefined, 'not before the retry delay');
  const second = (await claimJob(db, ['k'], 'w', 10_000, at(5100)))!;
  assert.equal(second.lastError, 'timeout');
  assert.equal(await failJob(db, second, 'not a video', 5000, at(5200)), 'failed');
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  assert.deepEqual([row.status, row.attempts, row.last_error], ['failed', 2, 'not a video']);
  assert.equal(await claimJob(db, ['k'], 'w', 10_000, at(999_999)), undefined);
});

test('a job whose workers keep dying is reaped as failed instead of running forever', async (t) => {
  const db = await freshDb(t);
  const id = await enqueueJob(db, { kind: 'k', workspaceId: null, payload: {}, maxAttempts: 2 }, T0);
  await claimJob(db, ['k'], 'dies-1', 1000, T0);
  await claimJob(db, ['k'], 'dies-2', 1000, at(2000));
  assert.equal(await claimJob(db, ['k'], 'w', 1000, at(4000)), undefined, 'no attempts left to claim');
  const reaped = await reapAbandonedJobs(db, ['k'], at(4000));
  assert.deepEqual(
    reaped.map((j) => j.id),
    [id],
  );
  assert.match(reaped[0]?.lastError ?? '', /stopped before finishing, 2 times/);
  assert.deepEqual(await reapAbandonedJobs(db, ['k'], at(9000)), [], 'reaped once');
});

test('concurrent claimers never take the same job', async (t) => {
  const db = await freshDb(t);
  for (let i = 0; i < 20; i++) await enqueueJob(db, { kind: 'k', workspaceId: null, payload: { i }, maxAttempts: 1 }, T0);
  const claimed: string[] = [];
  await Promise.all(
    Array.from({ length: 5 }, async (_, w) => {
      for (;;) {
        const job = await claimJob(db, ['k'], `w${w}`, 60_000, at(1));
        if (!job) return;
        claimed.push(job.id);
      }
    }),
  );
  assert.equal(claimed.length, 20);
  assert.equal(new Set(claimed).size, 20);
});
