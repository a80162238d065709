/**
 * The worker loop: runs handlers, retries failures and reports the final one, reaps jobs whose
 * workers died, aborts a handler whose lease was taken, and puts back without using an attempt a job
 * whose attempt met an outage.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openTestDatabase } from '../../test/helpers/database.ts';
import { MediaStoreUnavailableError } from '../storage/media-store.ts';
import { claimJob, enqueueJob } from './queue.ts';
import { type JobHandler, startJobWorker } from './worker.ts';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

async function until(condition: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

test('the worker runs jobs, retries failures and reports the one that ends failed', async (t) => {
  const database = await openTestDatabase();
  t.after(() => database.close());
  const db = database.db;
  const ran: unknown[] = [];
  const failed: string[] = [];
  const handler: JobHandler = {
    kind: 'test.work',
    maxAttempts: 2,
    retryDelayMs: () => 10,
    async run(job) {
      if (job.payload.fail) throw new Error(`cannot do ${String(job.payload.n)}`);
      ran.push(job.payload.n);
    },
    async onFailed(job, reason) {
      failed.push(`${String(job.payload.n)}: ${reason} (attempt ${job.attempt})`);
    },
  };
  const worker = startJobWorker({ db, handlers: [handler], log: quiet, pollMs: 10, leaseMs: 1000 });
  t.after(() => worker.stop());
  await enqueueJob(db, { kind: 'test.work', workspaceId: null, payload: { n: 1 }, maxAttempts: 2 }, new Date());
  await enqueueJob(db, { kind: 'test.work', workspaceId: null, payload: { n: 2, fail: true }, maxAttempts: 2 }, new Date());
  await until(() => ran.length === 1 && failed.length === 1);
  assert.deepEqual(ran, [1]);
  assert.deepEqual(failed, ['2: cannot do 2 (attempt 2)']);
});

test('a job abandoned by dead workers is reaped and reported; a handler that loses its lease is aborted', async (t) => {
  const database = await openTestDatabase();
  t.after(() => database.close());
  const db = database.db;
  const failed: string[] = [];
  let aborted = false;
  const handler: JobHandler = {
    kind: 'test.slow',
    maxAttempts: 1,
    retryDelayMs: () => 10,
    run: (_job, { signal }) =>
      new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          aborted = true;
          reject(signal.reason);
        });
      }),
    async onFailed(_job, reason) {
      failed.push(reason);
    },
  };
  // A worker that died: it claimed the job with a short lease and never came back.
  await enqueueJob(db, { kind: 'test.slow', workspaceId: null, payload: {}, maxAttempts: 1 }, new Date());
  await claimJob(db, ['test.slow'], 'dead', 1, new Date());
  await sleep(5);
  const worker = startJobWorker({ db, handlers: [handler], log: quiet, pollMs: 10, leaseMs: 150 });
  await until(() => failed.length === 1);
  assert.match(failed[0] ?? '', /stopped before finishing, 1 times/);

  await enqueueJob(db, { kind: 'test.slow', workspaceId: null, payload: {}, maxAttempts: 3 }, new Date());
  await until(async () => (await db.selectFrom('jobs').select('id').where('status', '=', 'running').execute()).length === 1);
  // Someone else takes the job over (as after a lapsed lease): the heartbeat notices and aborts.
  await db.updateTable('jobs').set({ attempts: 99 }).where('status', '=', 'running').execute();
  await until(() => aborted);
  await worker.stop();
});

test('an attempt that meets an outage (the media store or the database down) is put back without using up an attempt', async (t) => {
  const database = await openTestDatabase();
  t.after(() => database.close());
  const db = database.db;
  const outages = [
    new MediaStoreUnavailableError({ cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9000'), { code: 'ECONNREFUSED' }) }),
    Object.assign(new Error('Connection terminated unexpectedly'), { code: '08006' }),
  ];
  const runs: number[] = [];
  const failed: string[] = [];
  const handler: JobHandler = {
    kind: 'test.needs-storage',
    // One attempt only: an outage counted as a failure would end the job failed at once.
    maxAttempts: 1,
    retryDelayMs: () => 10,
    async run(job) {
      runs.push(job.attempt);
      const outage = outages.shift();
      if (outage) throw outage;
    },
    async onFailed(_job, reason) {
      failed.push(reason);
    },
  };
  const worker = startJobWorker({ db, handlers: [handler], log: quiet, pollMs: 10, leaseMs: 1000, outageDelayMs: 10 });
  t.after(() => worker.stop());
  const id = await enqueueJob(db, { kind: 'test.needs-storage', workspaceId: null, payload: {}, maxAttempts: 1 }, new Date());
  const finished = async () =>
    (await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).status === 'succeeded';
  await until(finished);
  const job = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  assert.deepEqual(runs, [1, 1, 1], 'every run was the first attempt: the outages gave theirs back');
  assert.deepEqual([job.status, job.attempts, failed], ['succeeded', 1, []]);
});
