/**
 * The durable job queue over the `jobs` table. Enqueue inside the transaction that makes the work
 * necessary (so there is no change without its job). Workers claim with FOR UPDATE SKIP LOCKED, hold
 * a lease they renew by heartbeat, and finish with the attempt number they were given: a worker whose
 * lease lapsed (killed, or stalled) is fenced off, and its late answer changes nothing.
 * Every function takes `now`, so tests can move the clock.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database, JobRow } from '../db/tables/index.ts';

export interface NewJob {
  kind: string;
  workspaceId: string | null;
  payload: Record<string, unknown>;
  maxAttempts: number;
  runAt?: Date;
}

export interface ClaimedJob {
  id: string;
  kind: string;
  workspaceId: string | null;
  payload: Record<string, unknown>;
  /** 1 on the first run; the fencing token for heartbeat, complete and fail. */
  attempt: number;
  maxAttempts: number;
  lastError: string | null;
}

export async function enqueueJob(db: Kysely<Database>, job: NewJob, now: Date): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('jobs')
    .values({
      id,
      kind: job.kind,
      workspace_id: job.workspaceId,
      payload: JSON.stringify(job.payload),
      status: 'queued',
      run_at: job.runAt ?? now,
      max_attempts: job.maxAttempts,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/**
 * Takes the next due job of one of `kinds`: a queued job whose time has come, or a running one whose
 * lease has lapsed (its worker died). Returns undefined when there is none.
 */
export async function claimJob(
  db: Kysely<Database>,
  kinds: readonly string[],
  workerId: string,
  leaseMs: number,
  now: Date,
): Promise<ClaimedJob | undefined> {
  if (kinds.length === 0) return undefined;
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const result = await sql<JobRow>`
    update jobs set status = 'running', attempts = attempts + 1, lease_until = ${leaseUntil}, locked_by = ${workerId}, updated_at = ${now}
    where id = (
      select id from jobs
      where kind = any(${[...kinds]}::text[])
        and ((status = 'queued' and run_at <= ${now}) or (status = 'running' and lease_until < ${now} and attempts < max_attempts))
      order by run_at, created_at
      limit 1
      for update skip locked
    )
    returning *`.execute(db);
  const row = result.rows[0];
  return row ? toClaimed(row) : undefined;
}

/**
 * Jobs whose worker kept dying: running, lease lapsed, and no attempts left. They end `failed`, and
 * are returned so their owners can record why (a video must not stay `processing` forever).
 */
export async function reapAbandonedJobs(db: Kysely<Database>, kinds: readonly string[], now: Date): Promise<ClaimedJob[]> {
  if (kinds.length === 0) return [];
  const result = await sql<JobRow>`
    update jobs set status = 'failed', finished_at = ${now}, updated_at = ${now}, lease_until = null,
      last_error = coalesce(last_error || '; ', '') || 'the worker stopped before finishing, ' || attempts || ' times'
    where kind = any(${[...kinds]}::text[]) and status = 'running' and lease_until < ${now} and attempts >= max_attempts
    returning *`.execute(db);
  return result.rows.map(toClaimed);
}

/** Extends the lease; false means the job is no longer this worker's and it must stop. */
export async function heartbeat(db: Kysely<Database>, job: ClaimedJob, leaseMs: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ lease_until: new Date(now.getTime() + leaseMs), updated_at: now })
    .where('id', '=', job.id)
    .where('attempts', '=', job.attempt)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Marks the job done; false if this attempt had already been superseded (its answer is ignored). */
export async function completeJob(db: Kysely<Database>, job: ClaimedJob, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ status: 'succeeded', finished_at: now, updated_at: now, lease_until: null, last_error: null })
    .where('id', '=', job.id)
    .where('attempts', '=', job.attempt)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Records a failed attempt: queued again after `retryInMs` while attempts remain, `failed` after the
 * last. Returns the outcome, or undefined if this attempt had been superseded.
 */
export async function failJob(
  db: Kysely<Database>,
  job: ClaimedJob,
  error: string,
  retryInMs: number,
  now: Date,
): Promise<'retrying' | 'failed' | undefined> {
  const final = job.attempt >= job.maxAttempts;
  const result = await db
    .updateTable('jobs')
    .set(
      final
        ? { status: 'failed', last_error: error, finished_at: now, updated_at: now, lease_until: null }
        : { status: 'queued', last_error: error, run_at: new Date(now.getTime() + retryInMs), updated_at: now, lease_until: null },
    )
    .where('id', '=', job.id)
    .where('attempts', '=', job.attempt)
    .where('status', '=', 'running')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return undefined;
  return final ? 'failed' : 'retrying';
}

/**
 * Puts a job whose attempt met an outage (the database or the media store unavailable) back in the
 * queue after `delayMs`, and gives back the attempt it used: waiting out a store that is down for a
 * minute must not use up the attempts meant for the job's own failures. False if this attempt had
 * been superseded (its lease lapsed and another worker took the job).
 */
export async function deferJob(db: Kysely<Database>, job: ClaimedJob, reason: string, delayMs: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      status: 'queued',
      attempts: sql<number>`attempts - 1`,
      last_error: reason,
      run_at: new Date(now.getTime() + delayMs),
      updated_at: now,
      lease_until: null,
    })
    .where('id', '=', job.id)
    .where('attempts', '=', job.attempt)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

function toClaimed(row: JobRow): ClaimedJob {
  return {
    id: row.id,
    kind: row.kind,
    workspaceId: row.workspace_id,
    payload: row.payload as Record<string, unknown>,
    attempt: row.attempts,
    maxAttempts: row.max_attempts,
    lastError: row.last_error,
  };
}
