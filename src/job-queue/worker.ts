/**
 * Runs jobs: claims due jobs of the kinds it has handlers for, keeps their lease alive while the
 * handler works, records success, retries failures with the handler's backoff, and tells the handler
 * when a job has ended failed, whether its last attempt threw or its workers kept dying (reaped).
 * An attempt that failed because the database or the media store was unavailable is not the job's
 * failure: the job is put back after a short delay without using up an attempt (deferJob).
 * Handlers receive an AbortSignal that fires when the lease is lost or the worker stops.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Log } from '../core/context.ts';
import { describeUnavailable } from '../core/pipeline/unavailable.ts';
import type { Database } from '../db/tables/index.ts';
import { type ClaimedJob, claimJob, completeJob, deferJob, failJob, heartbeat, reapAbandonedJobs } from './queue.ts';

export interface JobHandler {
  kind: string;
  maxAttempts: number;
  /** How long to wait before running again after failed attempt number `attempt`. */
  retryDelayMs(attempt: number): number;
  run(job: ClaimedJob, context: { db: Kysely<Database>; signal: AbortSignal }): Promise<void>;
  /** Called once when the job has ended `failed`, with the reason. */
  onFailed?(job: ClaimedJob, reason: string, db: Kysely<Database>): Promise<void>;
}

export interface JobWorkerOptions {
  db: Kysely<Database>;
  handlers: readonly JobHandler[];
  log: Log;
  leaseMs?: number;
  pollMs?: number;
  concurrency?: number;
  /** How long a job whose attempt met an outage waits before running again (default 10 s). */
  outageDelayMs?: number;
  clock?: () => Date;
}

export interface JobWorker {
  /** Stops claiming, aborts running handlers' signals, and waits for the loops to end. */
  stop(): Promise<void>;
}

export function startJobWorker(options: JobWorkerOptions): JobWorker {
  const { db, log } = options;
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 1000;
  const outageDelayMs = options.outageDelayMs ?? 10_000;
  const clock = options.clock ?? (() => new Date());
  const workerId = `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
  const handlers = new Map(options.handlers.map((h) => [h.kind, h]));
  const kinds = [...handlers.keys()];
  const stopping = new AbortController();

  const runOne = async (job: ClaimedJob): Promise<void> => {
    const handler = handlers.get(job.kind) as JobHandler;
    const lease = new AbortController();
    const stopListener = () => lease.abort(new Error('worker stopping'));
    stopping.signal.addEventListener('abort', stopListener, { once: true });
    const beat = setInterval(
      () => {
        heartbeat(db, job, leaseMs, clock()).then(
          (kept) => kept || lease.abort(new Error('lease lost')),
          (err: unknown) => log.warn({ err, job: job.id }, 'heartbeat failed'),
        );
      },
      Math.max(10, Math.floor(leaseMs / 3)),
    );
    try {
      await handler.run(job, { db, signal: lease.signal });
      if (!(await completeJob(db, job, clock())))
        log.warn({ job: job.id, attempt: job.attempt }, 'finished after losing its lease; ignored');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (stopping.signal.aborted) return; // not the job's fault: the lease lapses and it runs again
      const outage = describeUnavailable(error);
      if (outage !== undefined) return await deferThroughOutage(job, outage);
      const outcome = await failJob(db, job, reason, handler.retryDelayMs(job.attempt), clock());
      if (outcome === 'failed') await handler.onFailed?.(job, reason, db);
      log.warn({ job: job.id, kind: job.kind, attempt: job.attempt, outcome, reason }, 'job attempt failed');
    } finally {
      clearInterval(beat);
      stopping.signal.removeEventListener('abort', stopListener);
    }
  };

  /**
   * Records the deferral, trying again while the database is down too (the lease is still this
   * worker's, or lapsed with nobody taking it, until the database answers); the job is lost to this
   * worker only if another took it over meanwhile, and that one runs it.
   */
  const deferThroughOutage = async (job: ClaimedJob, reason: string): Promise<void> => {
    while (!stopping.signal.aborted) {
      try {
        const deferred = await deferJob(db, job, reason, outageDelayMs, clock());
        log.warn({ job: job.id, kind: job.kind, attempt: job.attempt, deferred, reason }, 'job attempt met an outage; runs again later');
        return;
      } catch (err) {
        log.warn({ err, job: job.id }, 'could not defer the job yet; retrying');
        await sleep(pollMs, undefined, { signal: stopping.signal }).catch(() => {});
      }
    }
  };

  const loop = async (): Promise<void> => {
    while (!stopping.signal.aborted) {
      try {
        for (const job of await reapAbandonedJobs(db, kinds, clock())) {
          await handlers.get(job.kind)?.onFailed?.(job, job.lastError ?? 'the worker stopped before finishing', db);
        }
        const job = await claimJob(db, kinds, workerId, leaseMs, clock());
        if (job) {
          await runOne(job);
          continue;
        }
      } catch (err) {
        log.warn({ err }, 'job queue unavailable; retrying');
      }
      await sleep(pollMs, undefined, { signal: stopping.signal }).catch(() => {});
    }
  };

  const loops = Array.from({ length: options.concurrency ?? 1 }, loop);
  return {
    async stop() {
      stopping.abort();
      await Promise.all(loops);
    },
  };
}
