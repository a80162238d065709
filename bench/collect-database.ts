/**
 * What the collection benchmark (bench/collect.ts) writes into the service's database and reads back
 * from it, on PostgreSQL or the embedded PGlite alike: the ready videos the load plays and the probe
 * video only the freshness probe plays, whether the fold has caught up, and the counts that are
 * compared with what was acknowledged.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../src/db/tables/index.ts';
import type { ProbeTally } from './collect-freshness.ts';
import type { LoadResult } from './collect-load.ts';
import { round3 } from './throwaway-database.ts';

/** Relative tolerance of float sums (the rollups add doubles batch by batch). */
const WATCH_TIME_TOLERANCE = 1e-9;
const PROBE_VIDEO_SECONDS = 60;

export interface Check {
  check: string;
  expected: number;
  actual: number;
  ok: boolean;
}

export interface BenchVideos {
  /** The videos the load generator plays. */
  videos: { id: string; durationSeconds: number }[];
  /** The freshness probe's own video, which the load never plays. */
  probeVideoId: string;
}

export async function insertVideos(db: Kysely<Database>, workspaceId: string, count: number): Promise<BenchVideos> {
  const now = new Date();
  const row = (title: string, fileName: string, durationSeconds: number) => ({
    id: randomUUID(),
    workspace_id: workspaceId,
    folder_id: null,
    title,
    status: 'ready' as const,
    source_url: null,
    file_name: fileName,
    file_size: 50_000_000,
    duration_seconds: durationSeconds,
    width: 1280,
    height: 720,
    failure_reason: null,
    created_at: now,
    updated_at: now,
  });
  const rows = Array.from({ length: count }, (_, i) =>
    row(`Collection benchmark video ${i + 1}`, `bench-${i + 1}.mp4`, 60 + ((i * 97) % 541)),
  );
  const probe = row('Collection benchmark probe video', 'bench-probe.mp4', PROBE_VIDEO_SECONDS);
  await db
    .insertInto('videos')
    .values([...rows, probe])
    .execute();
  return { videos: rows.map((r) => ({ id: r.id, durationSeconds: r.duration_seconds })), probeVideoId: probe.id };
}

/** Stored batches the fold has not reached yet. */
export async function unfoldedBatches(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ waiting: string }>`
    select count(*) as waiting from viewing_batches b, viewing_fold f
    where b.fold_xid is not null and (b.fold_xid, b.position) > (f.fold_xid, f.position)`.execute(db);
  return Number(rows[0]?.waiting ?? 0);
}

/** Waits until the worker has folded every stored batch; the seconds it took. */
export async function waitForFold(db: Kysely<Database>): Promise<number> {
  const began = performance.now();
  for (;;) {
    if ((await unfoldedBatches(db)) === 0) return (performance.now() - began) / 1000;
    if (performance.now() - began > 120_000) throw new Error('the worker did not fold the stored batches within 120 s');
    await new Promise((ok) => setTimeout(ok, 50));
  }
}

export type DatabaseCounts = Awaited<ReturnType<typeof countDatabase>>;

export async function countDatabase(db: Kysely<Database>, workspaceId: string) {
  const one = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows[0] as T;
  const batches = await one<{ rows: string }>(sql`select count(*) as rows from viewing_batches where workspace_id = ${workspaceId}`);
  const sessions = await one<{ rows: string; views: string; played: number; clicked: string }>(sql`
    select count(*) as rows, count(*) filter (where is_view) as views, coalesce(sum(played_seconds), 0)::float8 as played,
           count(*) filter (where is_view and cta_clicks > 0) as clicked
    from viewing_sessions where workspace_id = ${workspaceId}`);
  const daily = await one<{ rows: string; views: string; watch: number; conversions: string }>(sql`
    select count(*) as rows, coalesce(sum(views), 0) as views, coalesce(sum(watch_time_seconds), 0)::float8 as watch,
           coalesce(sum(conversions), 0) as conversions
    from video_daily_stats where workspace_id = ${workspaceId}`);
  const workspaceDays = await one<{ views: string; watch: number }>(sql`
    select coalesce(sum(views), 0) as views, coalesce(sum(watch_time_seconds), 0)::float8 as watch
    from workspace_daily_stats where workspace_id = ${workspaceId}`);
  const lifetime = await one<{ views: string; watch: number }>(sql`
    select coalesce(sum(views), 0) as views, coalesce(sum(watch_time_seconds), 0)::float8 as watch
    from video_stats where workspace_id = ${workspaceId}`);
  const heatmaps = await one<{ views: string }>(
    sql`select coalesce(sum(views), 0) as views from video_heatmaps where workspace_id = ${workspaceId}`,
  );
  const videos = await one<{ views: string }>(
    sql`select coalesce(sum(view_count), 0) as views from videos where workspace_id = ${workspaceId}`,
  );
  const version = await one<{ server_version: string }>(sql`show server_version`);
  return {
    postgresVersion: version.server_version,
    viewingBatches: Number(batches.rows),
    unfoldedBatches: await unfoldedBatches(db),
    viewingSessions: Number(sessions.rows),
    sessionsThatAreViews: Number(sessions.views),
    sessionsPlayedSeconds: sessions.played,
    viewsWithCtaClick: Number(sessions.clicked),
    dailyRows: Number(daily.rows),
    dailyViews: Number(daily.views),
    dailyWatchTimeSeconds: daily.watch,
    dailyConversions: Number(daily.conversions),
    workspaceDayViews: Number(workspaceDays.views),
    workspaceDayWatchTimeSeconds: workspaceDays.watch,
    lifetimeViews: Number(lifetime.views),
    lifetimeWatchTimeSeconds: lifetime.watch,
    heatmapViews: Number(heatmaps.views),
    videoViewCounts: Number(videos.views),
  };
}

/**
 * The database against what was acknowledged: the load's page views and the probe's, which went
 * into the same workspace (the workspace-wide rollup cannot leave a video out), so they are added
 * to what is expected.
 */
export function compareCounts(run: LoadResult['run'], probe: ProbeTally, db: DatabaseCounts): Check[] {
  const exact = (check: string, expected: number, actual: number): Check => ({ check, expected, actual, ok: expected === actual });
  const close = (check: string, expected: number, actual: number): Check => ({
    check,
    expected: round3(expected),
    actual: round3(actual),
    ok: Math.abs(expected - actual) <= WATCH_TIME_TOLERANCE * Math.max(1, expected) + 1e-6,
  });
  const batches = run.deliveredBatches + probe.batches;
  const sessions = run.sessions + probe.sessions;
  const watchTimeSeconds = run.watchTimeSeconds + probe.watchTimeSeconds;
  const views = run.views + probe.views;
  return [
    exact('acknowledged batches = rows in viewing_batches', batches, db.viewingBatches),
    exact('stored batches the fold has not reached', 0, db.unfoldedBatches),
    exact('page views with an acknowledged batch = rows in viewing_sessions', sessions, db.viewingSessions),
    close('progress ranges sent (s) = sum of video_daily_stats.watch_time_seconds', watchTimeSeconds, db.dailyWatchTimeSeconds),
    close('progress ranges sent (s) = sum of video_stats.watch_time_seconds', watchTimeSeconds, db.lifetimeWatchTimeSeconds),
    close('progress ranges sent (s) = sum of workspace_daily_stats.watch_time_seconds', watchTimeSeconds, db.workspaceDayWatchTimeSeconds),
    close('progress ranges sent (s) = sum of viewing_sessions.played_seconds', watchTimeSeconds, db.sessionsPlayedSeconds),
    exact('page views that played ≥ 1 s = sum of video_daily_stats.views', views, db.dailyViews),
    exact('page views that played ≥ 1 s = sum of video_stats.views', views, db.lifetimeViews),
    exact('page views that played ≥ 1 s = sum of workspace_daily_stats.views', views, db.workspaceDayViews),
    exact('page views that played ≥ 1 s = sum of video_heatmaps.views', views, db.heatmapViews),
    exact('page views that played ≥ 1 s = sum of videos.view_count', views, db.videoViewCounts),
    exact('page views that played ≥ 1 s = viewing_sessions marked is_view', views, db.sessionsThatAreViews),
    exact('views with a CTA click = sum of video_daily_stats.conversions', run.conversions, db.dailyConversions),
    exact('views with a CTA click = viewing_sessions that are views with a click', run.conversions, db.viewsWithCtaClick),
    exact('deliberate resends counted again', 0, run.resendsCountedAgain),
    exact('batches refused (4xx)', 0, run.refusedBatches),
  ];
}
