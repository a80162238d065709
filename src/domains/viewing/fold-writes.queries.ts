/**
 * The fold's writes, one statement per table whatever the number of rows (the rows travel as one
 * JSON array, read with jsonb_to_recordset), in the order every writer of these rows takes their
 * locks (workspace day, video day, video lifetime: lead capture and new leads too), so a fold and a
 * capture never deadlock.
 *
 * Counts are added in SQL (`+ excluded`), so lead capture may add to the same rows concurrently.
 * Viewer sketches are merged here: the fold is their only writer and folds never overlap (the
 * cursor lock, viewing-fold.ts), so reading a sketch, adding the new viewers and writing it back
 * loses nothing. A row whose sketch got viewers carries them and its count (at least 1), and
 * replaces the stored one; a row without new viewers carries an empty sketch and 0, which only a
 * new row takes.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { addViewCounts } from '../videos/index.ts';
import type { FoldPlan, SessionRecord, Totals } from './fold-plan.ts';
import { addViewer, countViewers, emptySketch } from './viewer-sketch.ts';

type Trx = Transaction<Database>;
type Sketch = Uint8Array;

const json = (rows: readonly object[]) => sql`${JSON.stringify(rows)}::jsonb`;
const hex = (sketch: Sketch) => Buffer.from(sketch).toString('hex');

function countColumns(totals: Totals) {
  return {
    views: totals.views,
    watch_time_seconds: totals.watchTimeSeconds,
    engagement_sum: totals.engagement,
    completions: totals.completions,
    conversions: totals.conversions,
  };
}

/** The sketch with these ids added (undefined when there are none to add). */
function grown(stored: Sketch | undefined, ids: readonly string[]): Sketch | undefined {
  if (ids.length === 0) return undefined;
  return ids.reduce((sketch, id) => addViewer(sketch, id), stored ?? emptySketch());
}

export async function writeVideoDays(trx: Trx, plan: FoldPlan): Promise<void> {
  const rows = [...plan.videoDays.values()];
  if (rows.length === 0) return;
  const withViewers = rows.filter((row) => row.newViewers.length > 0);
  const stored = new Map<string, Sketch>();
  if (withViewers.length > 0) {
    const { rows: sketches } = await sql<{ video_id: string; day: string; viewer_sketch: Sketch }>`
      select d.video_id, d.day, d.viewer_sketch
      from video_daily_stats d
      join jsonb_to_recordset(${json(withViewers.map((row) => ({ video_id: row.videoId, day: row.day })))}) as k(video_id uuid, day date)
        on d.video_id = k.video_id and d.day = k.day`.execute(trx);
    for (const row of sketches) stored.set(`${row.video_id} ${row.day}`, row.viewer_sketch);
  }
  const input = rows.map((row) => {
    const sketch = grown(stored.get(`${row.videoId} ${row.day}`), row.newViewers);
    return {
      video_id: row.videoId,
      day: row.day,
      workspace_id: row.workspaceId,
      ...countColumns(row),
      viewer_sketch: hex(sketch ?? emptySketch()),
      unique_viewers: sketch ? countViewers(sketch) : 0,
    };
  });
  await sql`
    insert into video_daily_stats (video_id, day, workspace_id, views, watch_time_seconds, engagement_sum, completions,
      conversions, viewer_sketch, unique_viewers)
    select r.video_id, r.day, r.workspace_id, r.views, r.watch_time_seconds, r.engagement_sum, r.completions, r.conversions,
      decode(r.viewer_sketch, 'hex'), r.unique_viewers
    from jsonb_to_recordset(${json(input)}) as r(video_id uuid, day date, workspace_id uuid, views int, watch_time_seconds float8,
      engagement_sum float8, completions int, conversions int, viewer_sketch text, unique_viewers int)
    order by r.video_id, r.day
    on conflict (video_id, day) do update set
      views = video_daily_stats.views + excluded.views,
      watch_time_seconds = video_daily_stats.watch_time_seconds + excluded.watch_time_seconds,
      engagement_sum = video_daily_stats.engagement_sum + excluded.engagement_sum,
      completions = video_daily_stats.completions + excluded.completions,
      conversions = video_daily_stats.conversions + excluded.conversions,
      viewer_sketch = case when excluded.unique_viewers > 0 then excluded.viewer_sketch else video_daily_stats.viewer_sketch end,
      unique_viewers = case when excluded.unique_viewers > 0 then excluded.unique_viewers else video_daily_stats.unique_viewers end`.execute(
    trx,
  );
}

export async function writeWorkspaceDays(trx: Trx, plan: FoldPlan): Promise<void> {
  const rows = [...plan.workspaceDays.values()];
  if (rows.length === 0) return;
  const withViewers = rows.filter((row) => row.newViewers.length > 0);
  const stored = new Map<string, { viewers: Sketch; videos: Sketch }>();
  if (withViewers.length > 0) {
    const { rows: sketches } = await sql<{ workspace_id: string; day: string; viewer_sketch: Sketch; video_sketch: Sketch }>`
      select d.workspace_id, d.day, d.viewer_sketch, d.video_sketch
      from workspace_daily_stats d
      join jsonb_to_recordset(${json(withViewers.map((row) => ({ workspace_id: row.workspaceId, day: row.day })))})
        as k(workspace_id uuid, day date)
        on d.workspace_id = k.workspace_id and d.day = k.day`.execute(trx);
    for (const row of sketches) stored.set(`${row.workspace_id} ${row.day}`, { viewers: row.viewer_sketch, videos: row.video_sketch });
  }
  const input = rows.map((row) => {
    const before = stored.get(`${row.workspaceId} ${row.day}`);
    const viewers = grown(before?.viewers, row.newViewers);
    const videos = grown(before?.videos, row.viewedVideos);
    return {
      workspace_id: row.workspaceId,
      day: row.day,
      ...countColumns(row),
      viewer_sketch: hex(viewers ?? emptySketch()),
      video_sketch: hex(videos ?? emptySketch()),
      unique_viewers: viewers ? countViewers(viewers) : 0,
    };
  });
  // A new view always brings a viewer and a video, so one test says whether both sketches changed.
  await sql`
    insert into workspace_daily_stats (workspace_id, day, views, watch_time_seconds, engagement_sum, completions, conversions,
      viewer_sketch, video_sketch, unique_viewers)
    select r.workspace_id, r.day, r.views, r.watch_time_seconds, r.engagement_sum, r.completions, r.conversions,
      decode(r.viewer_sketch, 'hex'), decode(r.video_sketch, 'hex'), r.unique_viewers
    from jsonb_to_recordset(${json(input)}) as r(workspace_id uuid, day date, views int, watch_time_seconds float8,
      engagement_sum float8, completions int, conversions int, viewer_sketch text, video_sketch text, unique_viewers int)
    order by r.workspace_id, r.day
    on conflict (workspace_id, day) do update set
      views = workspace_daily_stats.views + excluded.views,
      watch_time_seconds = workspace_daily_stats.watch_time_seconds + excluded.watch_time_seconds,
      engagement_sum = workspace_daily_stats.engagement_sum + excluded.engagement_sum,
      completions = workspace_daily_stats.completions + excluded.completions,
      conversions = workspace_daily_stats.conversions + excluded.conversions,
      viewer_sketch = case when excluded.unique_viewers > 0 then excluded.viewer_sketch else workspace_daily_stats.viewer_sketch end,
      video_sketch = case when excluded.unique_viewers > 0 then excluded.video_sketch else workspace_daily_stats.video_sketch end,
      unique_viewers = case when excluded.unique_viewers > 0 then excluded.unique_viewers else workspace_daily_stats.unique_viewers end`.execute(
    trx,
  );
}

/** Lifetime stats, the videos' view counts and the heatmaps. */
export async function writeVideos(trx: Trx, plan: FoldPlan, now: Date): Promise<void> {
  const rows = [...plan.videos.entries()].map(([videoId, rollup]) => ({ videoId, ...rollup }));
  if (rows.length === 0) return;
  const withViewers = rows.filter((row) => row.newViewers.length > 0);
  const stored = new Map<string, Sketch | null>();
  if (withViewers.length > 0) {
    const found = await trx
      .selectFrom('video_stats')
      .select(['video_id', 'viewer_sketch'])
      .where(
        'video_id',
        'in',
        withViewers.map((row) => row.videoId),
      )
      .execute();
    for (const row of found) stored.set(row.video_id, row.viewer_sketch);
  }
  const input = rows.map((row) => {
    const sketch = grown(stored.get(row.videoId) ?? undefined, row.newViewers);
    return {
      video_id: row.videoId,
      workspace_id: row.workspaceId,
      ...countColumns(row),
      viewer_sketch: sketch ? hex(sketch) : null,
      unique_viewers: sketch ? countViewers(sketch) : 0,
      reach: row.reach,
      plays: row.plays,
      cta_clicks: row.ctaClicks,
    };
  });
  await sql`
    insert into video_stats (video_id, workspace_id, views, watch_time_seconds, engagement_sum, completions, conversions,
      viewer_sketch, unique_viewers, updated_at)
    select r.video_id, r.workspace_id, r.views, r.watch_time_seconds, r.engagement_sum, r.completions, r.conversions,
      decode(r.viewer_sketch, 'hex'), r.unique_viewers, ${now}
    from jsonb_to_recordset(${json(input)}) as r(video_id uuid, workspace_id uuid, views int, watch_time_seconds float8,
      engagement_sum float8, completions int, conversions int, viewer_sketch text, unique_viewers int)
    order by r.video_id
    on conflict (video_id) do update set
      views = video_stats.views + excluded.views,
      watch_time_seconds = video_stats.watch_time_seconds + excluded.watch_time_seconds,
      engagement_sum = video_stats.engagement_sum + excluded.engagement_sum,
      completions = video_stats.completions + excluded.completions,
      conversions = video_stats.conversions + excluded.conversions,
      viewer_sketch = coalesce(excluded.viewer_sketch, video_stats.viewer_sketch),
      unique_viewers = case when excluded.unique_viewers > 0 then excluded.unique_viewers else video_stats.unique_viewers end,
      updated_at = excluded.updated_at`.execute(trx);
  await addViewCounts(
    trx,
    rows.filter((row) => row.views > 0),
  );
  const add = (column: 'reach' | 'plays' | 'cta_clicks') =>
    sql`(select array_agg(a + b order by i) from unnest(video_heatmaps.${sql.ref(column)}, excluded.${sql.ref(column)}) with ordinality as t(a, b, i))`;
  await sql`
    insert into video_heatmaps (video_id, workspace_id, views, reach, plays, cta_clicks)
    select r.video_id, r.workspace_id, r.views, r.reach, r.plays, r.cta_clicks
    from jsonb_to_recordset(${json(input)}) as r(video_id uuid, workspace_id uuid, views int, reach int[], plays int[], cta_clicks int[])
    order by r.video_id
    on conflict (video_id) do update set
      views = video_heatmaps.views + excluded.views,
      reach = ${add('reach')},
      plays = ${add('plays')},
      cta_clicks = ${add('cta_clicks')}`.execute(trx);
}

export async function writeSessions(trx: Trx, sessions: readonly SessionRecord[]): Promise<void> {
  if (sessions.length === 0) return;
  const input = sessions.map((session) => ({
    id: session.id,
    workspace_id: session.workspaceId,
    video_id: session.videoId,
    viewer_id: session.viewerId,
    day: session.day,
    duration_seconds: session.durationSeconds,
    started_at: session.startedAt.toISOString(),
    last_seen_at: session.lastSeenAt.toISOString(),
    last_sequence: session.lastSequence,
    watched: session.watched,
    played_seconds: session.playedSeconds,
    is_view: session.isView,
    completed: session.completed,
    cta_clicks: session.ctaClicks,
  }));
  await sql`
    insert into viewing_sessions (id, workspace_id, video_id, viewer_id, day, duration_seconds, started_at, last_seen_at,
      last_sequence, watched, played_seconds, is_view, completed, cta_clicks)
    select r.id, r.workspace_id, r.video_id, r.viewer_id, r.day, r.duration_seconds, r.started_at, r.last_seen_at,
      r.last_sequence, r.watched, r.played_seconds, r.is_view, r.completed, r.cta_clicks
    from jsonb_to_recordset(${json(input)}) as r(id uuid, workspace_id uuid, video_id uuid, viewer_id text, day date,
      duration_seconds float8, started_at timestamptz, last_seen_at timestamptz, last_sequence int, watched jsonb,
      played_seconds float8, is_view boolean, completed boolean, cta_clicks int)
    on conflict (id) do update set
      last_seen_at = excluded.last_seen_at,
      last_sequence = excluded.last_sequence,
      watched = excluded.watched,
      played_seconds = excluded.played_seconds,
      is_view = excluded.is_view,
      completed = excluded.completed,
      cta_clicks = excluded.cta_clicks`.execute(trx);
}
