/**
 * The analytics reads that put two areas' rows together: the video-day rollups with each video's
 * title (one statement), and the videos that became ready or failed, from the events outbox, with
 * their titles. Every read is scoped to the workspace. The reads of one area alone are that area's:
 * the rollups are the viewing area's (day-rollups, lifetime-rollups), the titles the videos area's.
 */
import type { Kysely } from 'kysely';
import { startOfLocalDay } from '../../../core/calendar/calendar-days.ts';
import { recentEvents } from '../../../db/recent-events.ts';
import type { Database } from '../../../db/tables/index.ts';
import { videosWithIds, workspaceVideos } from '../../videos/index.ts';
import { workspaceVideoDays } from '../../viewing/index.ts';

/** The workspace's video-day rows between two local days, without sketches, with each video's title, for comparisons between periods. */
export async function workspaceDayRowsWithTitles(db: Kysely<Database>, workspaceId: string, from: string, to: string) {
  return workspaceVideoDays(db, workspaceId, from, to)
    .innerJoin(workspaceVideos(db, workspaceId).as('v'), 'v.id', 'd.video_id')
    .select([
      'd.day',
      'd.views',
      'd.watch_time_seconds',
      'd.engagement_sum',
      'd.completions',
      'd.conversions',
      'd.leads',
      'd.video_id',
      'v.title',
    ])
    .execute();
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
