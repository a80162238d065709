/**
 * Jobs that each stand for one thing of a workspace, named by a field of their payload (a calendar
 * feed's fetch names its `feed_id`): their owner keeps one pending job per thing, moving it rather
 * than queuing another, so it needs to find, move and drop the job of a thing. Queue reads and
 * writes for them, so the areas never name the jobs table.
 */
import { type Expression, type Kysely, sql } from 'kysely';
import type { Database } from '../db/tables/index.ts';

/** Which jobs: of this kind, in this workspace, their payload naming their thing in `field`. */
export interface KeyedJobs {
  kind: string;
  workspaceId: string;
  field: string;
}

/** The payload's field as SQL (its name a literal, as the code gives it: never input). */
const payloadField = (field: string, column = 'payload') => sql<string>`${sql.ref(column)}->>${sql.lit(field)}`;

/**
 * Moves the queued job of the thing `value` to `runAt` when that is sooner; answers when it is due,
 * or undefined when none is queued (a running one is not moved).
 */
export async function bringQueuedJobForward(
  db: Kysely<Database>,
  jobs: KeyedJobs,
  value: string,
  runAt: Date,
  now: Date,
): Promise<Date | undefined> {
  const queued = await db
    .updateTable('jobs')
    .set({ run_at: sql<Date>`least(run_at, ${runAt})`, updated_at: now })
    .where('workspace_id', '=', jobs.workspaceId)
    .where('kind', '=', jobs.kind)
    .where('status', '=', 'queued')
    .where(payloadField(jobs.field), '=', value)
    .returning('run_at')
    .executeTakeFirst();
  return queued?.run_at;
}

/** The queued and running jobs of the workspace's things, each with its thing (`value`), status and due time. */
export async function pendingKeyedJobs(
  db: Kysely<Database>,
  jobs: KeyedJobs,
): Promise<{ value: string; status: 'queued' | 'running' | 'succeeded' | 'failed'; run_at: Date }[]> {
  return db
    .selectFrom('jobs')
    .select([payloadField(jobs.field).as('value'), 'status', 'run_at'])
    .where('workspace_id', '=', jobs.workspaceId)
    .where('kind', '=', jobs.kind)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

/** Deletes the queued jobs of the thing `value`; one already running goes on. */
export async function dropQueuedJobs(db: Kysely<Database>, jobs: KeyedJobs, value: string): Promise<void> {
  await db
    .deleteFrom('jobs')
    .where('workspace_id', '=', jobs.workspaceId)
    .where('kind', '=', jobs.kind)
    .where('status', '=', 'queued')
    .where(payloadField(jobs.field), '=', value)
    .execute();
}

/**
 * The queued and running jobs of `kind` whose workspace and thing are the outer row's (`of`, refs
 * into the caller's statement): a correlated subquery for `exists(...)`, so "things with no
 * pending job" stays one statement.
 */
export function pendingJobsOf(
  db: Kysely<Database>,
  kind: string,
  field: string,
  of: { workspaceId: Expression<string>; value: Expression<string> },
) {
  return db
    .selectFrom('jobs as job')
    .select('job.id')
    .where('job.workspace_id', '=', of.workspaceId)
    .where('job.kind', '=', kind)
    .where('job.status', 'in', ['queued', 'running'])
    .where(payloadField(field, 'job.payload'), '=', of.value);
}

/**
 * Deletes the queued jobs of any kind in the workspace whose payload names `value` in `field` (every
 * job of a deleted video names its `video_id`); one already running goes on, and finds its thing gone.
 */
export async function dropQueuedJobsNaming(db: Kysely<Database>, workspaceId: string, field: string, value: string): Promise<number> {
  const result = await db
    .deleteFrom('jobs')
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'queued')
    .where(payloadField(field), '=', value)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many jobs other than `exceptJobId` are running in the workspace with a payload naming `value` in `field`. */
export async function runningJobsNaming(
  db: Kysely<Database>,
  workspaceId: string,
  field: string,
  value: string,
  exceptJobId: string,
): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'running')
    .where('id', '<>', exceptJobId)
    .where(payloadField(field), '=', value)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
