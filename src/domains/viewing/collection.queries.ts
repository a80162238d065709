/**
 * Records one collected batch: stores it raw (its session and sequence make a resend a no-op),
 * moves the session to its new state, and adds the difference to the rollups — the video's day, its
 * lifetime stats and its heatmap — all in one transaction, so an acknowledged batch is counted once
 * and completely. Rows are always locked in the same order (session, day, lifetime, heatmap), so
 * concurrent batches of one video queue instead of deadlocking. A browser linked to a lead then
 * credits that lead with the engagement the batch earned (domains/leads/viewing-engagement.ts).
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { localDay } from '../../core/calendar/time-zone.ts';
import { AppError } from '../../core/errors.ts';
import type { Database } from '../../db/tables/index.ts';
import { creditViewingToLeads } from '../leads/viewing-engagement.ts';
import { findServableVideo } from '../videos/servable-videos.queries.ts';
import { checkBatchEvents, type ViewingEvent } from './collect-batch.ts';
import { applyBatch, isEmptyDelta, type RollupDelta, type SessionState } from './session-change.ts';
import { addViewer, countViewers, emptySketch } from './viewer-sketch.ts';
import { totalLength } from './watched-ranges.ts';

export interface IncomingBatch {
  sessionId: string;
  videoId: string;
  viewerId: string;
  sequence: number;
  events: ViewingEvent[];
  receivedAt: Date;
}

interface OpenSession extends SessionState {
  id: string;
  workspaceId: string;
  videoId: string;
  viewerId: string;
  day: string;
  lastSequence: number;
}

// Deadlock or serialization failure: PostgreSQL rolled the transaction back, so running it again is safe.
const RETRYABLE = new Set(['40P01', '40001']);

export async function recordBatch(db: Kysely<Database>, batch: IncomingBatch): Promise<{ duplicate: boolean }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await recordOnce(db, batch);
    } catch (error) {
      if (attempt >= 3 || !RETRYABLE.has(String((error as { code?: unknown }).code))) throw error;
    }
  }
}

async function recordOnce(db: Kysely<Database>, batch: IncomingBatch): Promise<{ duplicate: boolean }> {
  return db.transaction().execute((trx) => recordBatchIn(trx, batch));
}

/**
 * The same, inside a transaction the caller holds (the demo seeder records thousands of batches in a
 * few transactions instead of one each).
 */
export async function recordBatchIn(trx: Transaction<Database>, batch: IncomingBatch): Promise<{ duplicate: boolean }> {
  const session = await openSession(trx, batch);
  const problems = checkBatchEvents(batch.events, session.durationSeconds);
  if (problems.length > 0) throw AppError.invalid(problems);
  const stored = await trx
    .insertInto('viewing_batches')
    .values({
      session_id: session.id,
      sequence: batch.sequence,
      workspace_id: session.workspaceId,
      video_id: session.videoId,
      events: JSON.stringify(batch.events),
      received_at: batch.receivedAt,
    })
    .onConflict((conflict) => conflict.columns(['session_id', 'sequence']).doNothing())
    .returning('sequence')
    .executeTakeFirst();
  if (!stored) return { duplicate: true };

  const { after, delta } = applyBatch(session, batch.events);
  await trx
    .updateTable('viewing_sessions')
    .set({
      watched: JSON.stringify(after.watched),
      played_seconds: after.playedSeconds,
      is_view: after.isView,
      completed: after.completed,
      cta_clicks: after.ctaClicks,
      last_sequence: Math.max(session.lastSequence, batch.sequence),
      last_seen_at: batch.receivedAt,
    })
    .where('id', '=', session.id)
    .execute();
  if (!isEmptyDelta(delta)) await addToRollups(trx, session, delta, batch.receivedAt);
  await creditViewingToLeads(trx, {
    workspaceId: session.workspaceId,
    viewerId: session.viewerId,
    change: {
      newSession: delta.views > 0,
      addedSeconds: after.playedSeconds - session.playedSeconds,
      addedShare: watchedShare(after) - watchedShare(session),
      addedCtaClicks: after.ctaClicks - session.ctaClicks,
      secondsBefore: session.playedSeconds,
    },
    at: batch.receivedAt,
  });
  return { duplicate: false };
}

function watchedShare(state: SessionState): number {
  return Math.min(1, totalLength(state.watched) / state.durationSeconds);
}

/** The session, locked; created on its first batch for a video that can be watched. */
async function openSession(trx: Transaction<Database>, batch: IncomingBatch): Promise<OpenSession> {
  const existing = await lockSession(trx, batch.sessionId);
  if (existing) return existing;
  const video = await findServableVideo(trx, batch.videoId, (query) =>
    query
      .innerJoin('workspaces', 'workspaces.id', 'videos.workspace_id')
      .select(['videos.workspace_id', 'videos.duration_seconds', 'workspaces.timezone']),
  );
  if (!video?.duration_seconds) throw new AppError('not_found', 'This video is not available for viewing.');
  await trx
    .insertInto('viewing_sessions')
    .values({
      id: batch.sessionId,
      workspace_id: video.workspace_id,
      video_id: batch.videoId,
      viewer_id: batch.viewerId,
      day: localDay(batch.receivedAt, video.timezone),
      duration_seconds: video.duration_seconds,
      started_at: batch.receivedAt,
      last_seen_at: batch.receivedAt,
      last_sequence: 0,
      watched: '[]',
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  return (await lockSession(trx, batch.sessionId)) as OpenSession;
}

async function lockSession(trx: Transaction<Database>, sessionId: string): Promise<OpenSession | undefined> {
  const row = await trx.selectFrom('viewing_sessions').selectAll().where('id', '=', sessionId).forUpdate().executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    videoId: row.video_id,
    viewerId: row.viewer_id,
    day: row.day,
    lastSequence: row.last_sequence,
    durationSeconds: row.duration_seconds,
    watched: row.watched,
    playedSeconds: row.played_seconds,
    isView: row.is_view,
    completed: row.completed,
    ctaClicks: row.cta_clicks,
  };
}

async function addToRollups(trx: Transaction<Database>, session: OpenSession, delta: RollupDelta, now: Date): Promise<void> {
  const counts = {
    views: delta.views,
    watch_time_seconds: delta.watchTimeSeconds,
    engagement_sum: delta.engagement,
    completions: delta.completions,
    conversions: delta.conversions,
  };
  const increments = {
    views: sql<number>`video_daily_stats.views + excluded.views`,
    watch_time_seconds: sql<number>`video_daily_stats.watch_time_seconds + excluded.watch_time_seconds`,
    engagement_sum: sql<number>`video_daily_stats.engagement_sum + excluded.engagement_sum`,
    completions: sql<number>`video_daily_stats.completions + excluded.completions`,
    conversions: sql<number>`video_daily_stats.conversions + excluded.conversions`,
  };
  const dayKey = { video_id: session.videoId, day: session.day, workspace_id: session.workspaceId };
  if (delta.views > 0) {
    // A new view adds its viewer to the day's sketch: make sure the row exists, then lock it, so two
    // first views of the same day cannot both start from an empty sketch.
    await trx
      .insertInto('video_daily_stats')
      .values({ ...dayKey, viewer_sketch: emptySketch() })
      .onConflict((conflict) => conflict.columns(['video_id', 'day']).doNothing())
      .execute();
    const day = await trx
      .selectFrom('video_daily_stats')
      .select('viewer_sketch')
      .where('video_id', '=', session.videoId)
      .where('day', '=', session.day)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const sketch = addViewer(day.viewer_sketch, session.viewerId);
    await trx
      .updateTable('video_daily_stats')
      .set((eb) => ({
        views: eb('views', '+', counts.views),
        watch_time_seconds: eb('watch_time_seconds', '+', counts.watch_time_seconds),
        engagement_sum: eb('engagement_sum', '+', counts.engagement_sum),
        completions: eb('completions', '+', counts.completions),
        conversions: eb('conversions', '+', counts.conversions),
        viewer_sketch: sketch,
        unique_viewers: countViewers(sketch),
      }))
      .where('video_id', '=', session.videoId)
      .where('day', '=', session.day)
      .execute();
  } else {
    await trx
      .insertInto('video_daily_stats')
      .values({ ...dayKey, ...counts, viewer_sketch: emptySketch() })
      .onConflict((conflict) => conflict.columns(['video_id', 'day']).doUpdateSet(increments))
      .execute();
  }
  await addToLifetimeStats(trx, session, delta, now);
  await addToHeatmap(trx, session, delta);
}

async function addToLifetimeStats(trx: Transaction<Database>, session: OpenSession, delta: RollupDelta, now: Date): Promise<void> {
  await trx
    .insertInto('video_stats')
    .values({ video_id: session.videoId, workspace_id: session.workspaceId, updated_at: now })
    .onConflict((conflict) => conflict.column('video_id').doNothing())
    .execute();
  let sketchChange = {};
  if (delta.views > 0) {
    const stats = await trx
      .selectFrom('video_stats')
      .select('viewer_sketch')
      .where('video_id', '=', session.videoId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const sketch = addViewer(stats.viewer_sketch, session.viewerId);
    sketchChange = { viewer_sketch: sketch, unique_viewers: countViewers(sketch) };
    await trx
      .updateTable('videos')
      .set((eb) => ({ view_count: eb('view_count', '+', delta.views) }))
      .where('id', '=', session.videoId)
      .execute();
  }
  await trx
    .updateTable('video_stats')
    .set((eb) => ({
      views: eb('views', '+', delta.views),
      watch_time_seconds: eb('watch_time_seconds', '+', delta.watchTimeSeconds),
      engagement_sum: eb('engagement_sum', '+', delta.engagement),
      completions: eb('completions', '+', delta.completions),
      conversions: eb('conversions', '+', delta.conversions),
      updated_at: now,
      ...sketchChange,
    }))
    .where('video_id', '=', session.videoId)
    .execute();
}

/** Adds the slice deltas element by element, in one statement. */
async function addToHeatmap(trx: Transaction<Database>, session: OpenSession, delta: RollupDelta): Promise<void> {
  const add = (column: 'reach' | 'plays' | 'cta_clicks') =>
    sql<
      number[]
    >`(select array_agg(a + b order by i) from unnest(video_heatmaps.${sql.ref(column)}, excluded.${sql.ref(column)}) with ordinality as t(a, b, i))`;
  await trx
    .insertInto('video_heatmaps')
    .values({
      video_id: session.videoId,
      workspace_id: session.workspaceId,
      views: delta.views,
      reach: delta.reach,
      plays: delta.plays,
      cta_clicks: delta.ctaClicks,
    })
    .onConflict((conflict) =>
      conflict.column('video_id').doUpdateSet({
        views: sql<number>`video_heatmaps.views + excluded.views`,
        reach: add('reach'),
        plays: add('plays'),
        cta_clicks: add('cta_clicks'),
      }),
    )
    .execute();
}
