/**
 * The analytics reads that put two areas' rows together: the video-day rollups summed per video and
 * period with each video's title (one statement), and the videos that became ready or failed, from the events outbox, with
 * their titles. Every read is scoped to the workspace. The reads of one area alone are that area's:
 * the rollups are the viewing area's (day-rollups, lifetime-rollups), the titles the videos area's.
 */
import { type Kysely, sql } from 'kysely';
import { startOfLocalDay } from '../../../core/calendar/calendar-days.ts';
import { recentEvents } from '../../../db/recent-events.ts';
import type { Database } from '../../../db/tables/index.ts';
import { videosWithIds, workspaceVideos } from '../../videos/index.ts';
import { workspaceVideoDays } from '../../viewing/index.ts';
import type { RollupRow } from './day-metrics.ts';

/** Two periods' rows for comparing them: each video's totals per period, and every day's views across videos. */
export interface PeriodTotals {
  /** One row per video and period, with its title; `day` is the first day of its period. */
  videos: (RollupRow & { video_id: string; title: string })[];
  /** Views per local day ('YYYY-MM-DD') across the workspace's videos; days without views are absent. */
  dailyViews: Map<string, number>;
}

/**
 * The workspace's video-day rollups from `from` to `to`, summed in SQL for a comparison of the period
 * before `currentFrom` with the one from it: per video and period (with the video's title), and per
 * day (grouping sets, one statement). A 28-day comparison over 50 videos reads back about 150 rows
 * instead of 2,800 video-days, which on the embedded database cost the dashboard's home 20 ms a view.
 */
export async function periodTotalsWithTitles(
  db: Kysely<Database>,
  workspaceId: string,
  range: { from: string; currentFrom: string; to: string },
): Promise<PeriodTotals> {
  const days = workspaceVideoDays(db, workspaceId, range.from, range.to)
    .innerJoin(workspaceVideos(db, workspaceId).as('v'), 'v.id', 'd.video_id')
    .select([
      'd.day',
      'd.video_id',
      'v.title',
      'd.views',
      'd.watch_time_seconds',
      'd.engagement_sum',
      'd.completions',
      'd.conversions',
      'd.leads',
      sql<string>`case when d.day >= ${range.currentFrom}::date then ${range.currentFrom}::text else ${range.from}::text end`.as('period'),
    ]);
  const { rows } = await sql<{
    day: string | null;
    video_id: string | null;
    title: string | null;
    period: string | null;
    views: number | string;
    watch_time_seconds: number | string;
    engagement_sum: number | string;
    completions: number | string;
    conversions: number | string;
    leads: number | string;
  }>`select t.day, t.video_id, t.title, t.period, sum(t.views) as views, sum(t.watch_time_seconds) as watch_time_seconds,
      sum(t.engagement_sum) as engagement_sum, sum(t.completions) as completions, sum(t.conversions) as conversions,
      sum(t.leads) as leads
    from (${days}) as t
    group by grouping sets ((t.video_id, t.title, t.period), (t.day))`.execute(db);
  const totals: PeriodTotals = { videos: [], dailyViews: new Map() };
  for (const row of rows) {
    if (row.day !== null) {
      totals.dailyViews.set(row.day, Number(row.views));
      continue;
    }
    totals.videos.push({
      day: row.period as string,
      video_id: row.video_id as string,
      title: row.title as string,
      views: Number(row.views),
      watch_time_seconds: Number(row.watch_time_seconds),
      engagement_sum: Number(row.engagement_sum),
      completions: Number(row.completions),
      conversions: Number(row.conversions),
      leads: Number(row.leads),
    });
  }
  return totals;
}

export interface StatusEvent {
  type: 'video.ready' | 'video.failed';
  video_id: string;
  title: string | null;
  at: Date;
  reason: string | null;
}

/** Videos (still there) that became ready or failed since the start of a local day, newest first. */
export async function videoStatusEvents(
  db: Kysely<Database>,
  workspaceId: string,
  since: { day: string; timeZone: string },
  limit: number,
): Promise<StatusEvent[]> {
  const rows = await recentEvents(db, workspaceId, ['video.ready', 'video.failed'], startOfLocalDay(since.day, since.timeZone), limit);
  const events = rows.map((row) => {
    const data = (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as {
      video_id?: unknown;
      failure_reason?: unknown;
      reason?: unknown;
    };
    // `reason` is how video.failed named it before the events catalog; older rows keep that name.
    const reason = data.failure_reason ?? data.reason;
    return {
      type: row.type as StatusEvent['type'],
      video_id: typeof data.video_id === 'string' ? data.video_id : '',
      at: row.created_at,
      reason: typeof reason === 'string' ? reason : null,
    };
  });
  const valid = events.filter((event) => UUID.test(event.video_id));
  const ids = [...new Set(valid.map((event) => event.video_id))];
  const titles = new Map((ids.length > 0 ? await videosWithIds(db, workspaceId, ids) : []).map((video) => [video.id, video.title]));
  // A video deleted since is left out: nothing of it shows after delete_video.
  return valid.filter((event) => titles.has(event.video_id)).map((event) => ({ ...event, title: titles.get(event.video_id) ?? null }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
