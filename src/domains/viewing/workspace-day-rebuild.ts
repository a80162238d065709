/**
 * Builds a workspace's day rollup from what it summarises: from its video days (workspace_daily_stats'
 * viewing: the sums, the viewers' sketches merged and a sketch of the videos with views), and from
 * its leads and ledger (new leads per day, workspace_daily_revenue). Used once each, by migrations
 * 0026 and 0027, to fill the tables for the history written before they existed, and by the
 * analytics benchmark, which writes history in bulk; the fold and the writers of leads and entries
 * keep them in step from then on. Days are local days in the workspace's zone, worked out here as
 * the writers work them out (localDay), not in SQL.
 */
import { type Kysely, sql } from 'kysely';
import { localDay } from '../../core/calendar/time-zone.ts';
import { leadCreationTimes } from '../leads/index.ts';
import { succeededRevenueEntries } from '../outcomes/index.ts';
import { workspaceTimeZone } from '../workspace/index.ts';
import { addViewer, countViewers, emptySketch, mergeSketches } from './viewer-sketch.ts';

interface VideoDay {
  video_id: string;
  day: string;
  views: number;
  watch_time_seconds: number;
  engagement_sum: number;
  completions: number;
  conversions: number;
  leads: number;
  viewer_sketch: Uint8Array;
}

type Summed = 'views' | 'watch_time_seconds' | 'engagement_sum' | 'completions' | 'conversions' | 'leads';

// biome-ignore lint/suspicious/noExplicitAny: a migration runs on a Kysely of no particular schema
export async function rebuildWorkspaceDays(db: Kysely<any>, workspaceId: string): Promise<number> {
  const { rows } = await sql<VideoDay>`
    select video_id, day::text as day, views, watch_time_seconds, engagement_sum, completions, conversions, leads, viewer_sketch
    from video_daily_stats where workspace_id = ${workspaceId}`.execute(db);
  const days = Map.groupBy(rows, (row) => row.day);
  await sql`
    update workspace_daily_stats set views = 0, unique_viewers = 0, viewer_sketch = ${Buffer.from(emptySketch())},
      video_sketch = ${Buffer.from(emptySketch())}, watch_time_seconds = 0, engagement_sum = 0, completions = 0,
      conversions = 0, leads = 0
    where workspace_id = ${workspaceId}`.execute(db);
  for (const [day, videoDays] of days) {
    const sum = (column: Summed) => videoDays.reduce((total, row) => total + Number(row[column]), 0);
    const viewers = mergeSketches(videoDays.map((row) => row.viewer_sketch));
    const videos = videoDays.filter((row) => row.views > 0).reduce((sketch, row) => addViewer(sketch, row.video_id), emptySketch());
    await sql`
      insert into workspace_daily_stats (workspace_id, day, views, unique_viewers, viewer_sketch, video_sketch,
        watch_time_seconds, engagement_sum, completions, conversions, leads)
      values (${workspaceId}, ${day}, ${sum('views')}, ${countViewers(viewers)}, ${Buffer.from(viewers)}, ${Buffer.from(videos)},
        ${sum('watch_time_seconds')}, ${sum('engagement_sum')}, ${sum('completions')}, ${sum('conversions')}, ${sum('leads')})
      on conflict (workspace_id, day) do update set views = excluded.views, unique_viewers = excluded.unique_viewers,
        viewer_sketch = excluded.viewer_sketch, video_sketch = excluded.video_sketch,
        watch_time_seconds = excluded.watch_time_seconds, engagement_sum = excluded.engagement_sum,
        completions = excluded.completions, conversions = excluded.conversions, leads = excluded.leads`.execute(db);
  }
  return days.size;
}

/** New leads per local day and succeeded revenue per local day and currency, from the leads and the ledger. */
// biome-ignore lint/suspicious/noExplicitAny: a migration runs on a Kysely of no particular schema
export async function rebuildWorkspaceLedgerDays(db: Kysely<any>, workspaceId: string): Promise<void> {
  const timeZone = await workspaceTimeZone(db, workspaceId);
  const leadDays = Map.groupBy(await leadCreationTimes(db, workspaceId), (createdAt) => localDay(createdAt, timeZone));
  await sql`update workspace_daily_stats set new_leads = 0 where workspace_id = ${workspaceId}`.execute(db);
  for (const [day, created] of leadDays) {
    await sql`
      insert into workspace_daily_stats (workspace_id, day, viewer_sketch, video_sketch, new_leads)
      values (${workspaceId}, ${day}, ${Buffer.from(emptySketch())}, ${Buffer.from(emptySketch())}, ${created.length})
      on conflict (workspace_id, day) do update set new_leads = excluded.new_leads`.execute(db);
  }
  const entries = await succeededRevenueEntries(db, workspaceId);
  const revenueDays = Map.groupBy(entries, (entry) => `${localDay(entry.occurred_at, timeZone)} ${entry.currency}`);
  await sql`delete from workspace_daily_revenue where workspace_id = ${workspaceId}`.execute(db);
  for (const [key, inDay] of revenueDays) {
    const [day, currency] = key.split(' ') as [string, string];
    const of = (kind: 'purchase' | 'refund') => inDay.filter((entry) => entry.kind === kind);
    const total = (kind: 'purchase' | 'refund') => of(kind).reduce((sum, entry) => sum + Number(entry.amount), 0);
    await sql`
      insert into workspace_daily_revenue (workspace_id, day, currency, purchases, purchased, refunds, refunded)
      values (${workspaceId}, ${day}, ${currency}, ${of('purchase').length}, ${total('purchase')}, ${of('refund').length}, ${total('refund')})`.execute(
      db,
    );
  }
}
