/**
 * The fold: stored batches into the sessions and the rollups, off the request path, exactly once.
 *
 * One fold is one transaction. It locks the cursor (viewing_fold), so folds never overlap; reads the
 * next batches after the cursor in (fold_xid, position) order, only from transactions that have
 * ended (below the horizon: the oldest transaction still running); works out every session's new
 * state and each rollup row's difference (fold-plan.ts); writes each row once; credits the leads
 * linked to the viewers; and moves the cursor past the last batch read, all in that transaction. A
 * fold that fails or is killed leaves the cursor where it was and nothing of its writes, so the next
 * fold reads the same batches again: nothing is folded twice or skipped (migration 0026 explains the
 * horizon).
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, sql, type Transaction } from 'kysely';
import { transactionRetryingConflicts } from '../../db/conflict-retry.ts';
import type { Database } from '../../db/tables/index.ts';
import { creditViewingToLeadsOfMany } from '../leads/index.ts';
import { videoLengthsAndZones } from '../videos/index.ts';
import type { ViewingEvent } from './collect-batch.ts';
import { planFold, type SessionRecord, type StoredBatch, type VideoForSessions } from './fold-plan.ts';
import { writeSessions, writeVideoDays, writeVideos, writeWorkspaceDays } from './fold-writes.queries.ts';

/** Batches per fold: large enough that a backlog clears quickly, small enough to keep a fold short. */
export const FOLD_BATCH_LIMIT = 2000;

export interface FoldResult {
  /** Batches read and folded (those of deleted videos included: they are passed, not counted). */
  batches: number;
  sessions: number;
  /** True when the fold stopped at its limit: more are waiting. */
  more: boolean;
}

export async function foldViewing(db: Kysely<Database>, options: { limit?: number; now?: Date } = {}): Promise<FoldResult> {
  // A read first, outside any transaction: an idle service then takes no lock and writes no WAL.
  if (!(await anythingToFold(db))) return { batches: 0, sessions: 0, more: false };
  return transactionRetryingConflicts(db, (trx) => foldIn(trx, options.limit ?? FOLD_BATCH_LIMIT, options.now ?? new Date()));
}

/**
 * Folds until every committed batch is folded (the seeder, tests); returns how many batches it
 * folded. A transaction still open anywhere on the PostgreSQL server holds the horizon back, so a
 * fold can find nothing it may take while committed batches wait: it then waits for the horizon,
 * up to `waitMs`, rather than return early (the demo seeder once answered 0 leads that way in CI).
 */
export async function foldAll(db: Kysely<Database>, { waitMs = 30_000 } = {}): Promise<number> {
  const deadline = Date.now() + waitMs;
  let total = 0;
  for (;;) {
    const result = await foldViewing(db);
    total += result.batches;
    if (result.more) continue;
    if (!(await anythingToFold(db))) return total;
    if (Date.now() > deadline) throw new Error(`stored viewing batches were not folded within ${waitMs / 1000} s`);
    await sleep(5);
  }
}

/** Whether any stored batch is past the cursor (committed or not yet: the fold then finds what it may take). */
export async function anythingToFold(db: Kysely<Database>): Promise<boolean> {
  // LATERAL with ORDER BY … LIMIT 1: one probe of the fold index after the cursor. Written as a
  // join, PostgreSQL filtered every row of viewing_batches instead (30 ms at 100,000 rows, and the
  // table keeps 400 days).
  const { rows } = await sql<{ waiting: boolean }>`
    select exists (
      select 1 from viewing_fold f
      cross join lateral (
        select 1 from viewing_batches b
        where b.fold_xid is not null and (b.fold_xid, b.position) > (f.fold_xid, f.position)
        order by b.fold_xid, b.position
        limit 1
      ) as next_batch
    ) as waiting`.execute(db);
  return rows[0]?.waiting === true;
}

async function foldIn(trx: Transaction<Database>, limit: number, now: Date): Promise<FoldResult> {
  const cursor = await trx.selectFrom('viewing_fold').select(['fold_xid', 'position']).forUpdate().executeTakeFirstOrThrow();
  // A statement of its own, before the read: every transaction below this horizon ended before the
  // read's snapshot is taken, so the read sees all of them that committed.
  const { rows: horizonRows } = await sql<{ horizon: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as horizon`.execute(
    trx,
  );
  const horizon = (horizonRows[0] as { horizon: string }).horizon;
  const { rows } = await sql<{
    session_id: string;
    sequence: number;
    workspace_id: string;
    video_id: string;
    viewer_id: string | null;
    events: ViewingEvent[];
    received_at: Date;
    xid_text: string;
    position_text: string;
  }>`
    select session_id, sequence, workspace_id, video_id, viewer_id, events, received_at,
      fold_xid::text as xid_text, position::text as position_text
    from viewing_batches
    where fold_xid is not null and (fold_xid, position) > (${cursor.fold_xid}::xid8, ${cursor.position}::bigint)
      and fold_xid < ${horizon}::xid8
    order by viewing_batches.fold_xid, viewing_batches.position -- the columns, not their text (where '10' < '9')
    limit ${limit}`.execute(trx);
  const last = rows.at(-1);
  if (!last) return { batches: 0, sessions: 0, more: false };

  const batches: StoredBatch[] = rows.map((row) => ({
    sessionId: row.session_id,
    sequence: row.sequence,
    workspaceId: row.workspace_id,
    videoId: row.video_id,
    viewerId: row.viewer_id,
    events: row.events,
    receivedAt: row.received_at,
  }));
  const sessions = await storedSessions(
    trx,
    batches.map((batch) => batch.sessionId),
  );
  const newSessionVideos = batches.filter((batch) => !sessions.has(batch.sessionId)).map((batch) => batch.videoId);
  const plan = planFold(batches, sessions, await videosForSessions(trx, newSessionVideos));

  await writeWorkspaceDays(trx, plan);
  await writeVideoDays(trx, plan);
  await writeVideos(trx, plan, now);
  await writeSessions(trx, plan.sessions);
  await creditViewingToLeadsOfMany(trx, plan.leadCredits);
  await trx
    .updateTable('viewing_fold')
    .set({ fold_xid: last.xid_text, position: Number(last.position_text), folded_at: now })
    .execute();
  return { batches: rows.length, sessions: plan.sessions.length, more: rows.length === limit };
}

async function storedSessions(trx: Transaction<Database>, ids: readonly string[]): Promise<Map<string, SessionRecord>> {
  const rows = await trx
    .selectFrom('viewing_sessions')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        workspaceId: row.workspace_id,
        videoId: row.video_id,
        viewerId: row.viewer_id,
        day: row.day,
        startedAt: row.started_at,
        lastSeenAt: row.last_seen_at,
        lastSequence: row.last_sequence,
        durationSeconds: row.duration_seconds,
        watched: row.watched,
        playedSeconds: row.played_seconds,
        isView: row.is_view,
        completed: row.completed,
        ctaClicks: row.cta_clicks,
      },
    ]),
  );
}

/** Length and time zone for the videos of new sessions (whatever their state now: the batches were accepted). */
async function videosForSessions(trx: Transaction<Database>, videoIds: readonly string[]): Promise<Map<string, VideoForSessions>> {
  const videos = await videoLengthsAndZones(trx, videoIds);
  return new Map(videos.map((video) => [video.id, { durationSeconds: video.durationSeconds, timeZone: video.timeZone }]));
}
