/**
 * What viewing knows of a set of browsers (viewer ids): their views and CTA clicks, newest first,
 * their first and last touches, and the view at either end of a period. A lead's journey
 * (leads) and outcome attribution (outcomes) ask it for the browsers linked to a lead, which they
 * pass as a subquery, so each read stays the one statement it was. Every read is of one workspace.
 */
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { videoTitles } from '../videos/index.ts';

/** A subquery answering viewer ids (one `viewer_id` column), such as the browsers linked to a lead. */
export type ViewerIds = Expression<{ viewer_id: string }>;

/** Rows of one kind, at most the limit asked, and how many there are in all. */
export interface Counted<R> {
  rows: R[];
  total: number;
}

export interface BrowserView {
  video_id: string;
  title: string;
  started_at: Date;
  duration_seconds: number;
  watched: [number, number][];
  played_seconds: number;
  completed: boolean;
  cta_clicks: number;
}

export interface BrowserCtaClick {
  video_id: string;
  title: string;
  received_at: Date;
  label: string | null;
  /** The event's `position`, as text. */
  position: string | null;
}

export interface BrowserTouch {
  edge: 'first' | 'last';
  started_at: Date;
  video_id: string;
  title: string;
}

export interface BrowserViewTotals {
  sessions: number;
  videos: number;
  seconds: number | null;
}

/** A condition on sessions `s`: those of the browsers, before or after any link of theirs. */
const ofBrowsers = (workspaceId: string, viewerIds: ViewerIds) =>
  sql<SqlBool>`s.workspace_id = ${workspaceId} and s.viewer_id in ${viewerIds}`;

/** The browsers' latest `limit` views (sessions that count as views), with their videos' titles, and how many there are. */
export async function browserViews(
  db: Kysely<Database>,
  workspaceId: string,
  viewerIds: ViewerIds,
  limit: number,
): Promise<Counted<BrowserView>> {
  const rows = await sql<BrowserView>`
    select s.video_id, v.title, s.started_at, s.duration_seconds, s.watched, s.played_seconds, s.completed, s.cta_clicks
     from viewing_sessions s join ${videoTitles(db, workspaceId)} v on v.id = s.video_id
     where ${ofBrowsers(workspaceId, viewerIds)} and s.is_view
     order by s.started_at desc, s.id desc limit ${limit}`.execute(db);
  const count = await sql<{ n: number }>`
    select count(*)::int as n from viewing_sessions s where ${ofBrowsers(workspaceId, viewerIds)} and s.is_view`.execute(db);
  return { rows: rows.rows, total: count.rows[0]?.n ?? 0 };
}

/** The browsers' latest `limit` CTA clicks, read from the raw batches while retention keeps them, and how many there are. */
export async function browserCtaClicks(
  db: Kysely<Database>,
  workspaceId: string,
  viewerIds: ViewerIds,
  limit: number,
): Promise<Counted<BrowserCtaClick>> {
  const rows = await sql<BrowserCtaClick>`
    select s.video_id, v.title, b.received_at, e.event->>'label' as label, e.event->>'position' as position
    from viewing_sessions s
    join viewing_batches b on b.session_id = s.id
    join ${videoTitles(db, workspaceId)} v on v.id = s.video_id
    cross join lateral jsonb_array_elements(b.events) as e(event)
    where ${ofBrowsers(workspaceId, viewerIds)} and e.event->>'type' = 'cta_click'
    order by b.received_at desc, b.session_id desc, b.sequence desc limit ${limit}`.execute(db);
  const count = await sql<{ n: number }>`
    select count(*)::int as n
    from viewing_sessions s
    join viewing_batches b on b.session_id = s.id
    cross join lateral jsonb_array_elements(b.events) as e(event)
    where ${ofBrowsers(workspaceId, viewerIds)} and e.event->>'type' = 'cta_click'`.execute(db);
  return { rows: rows.rows, total: count.rows[0]?.n ?? 0 };
}

/** The browsers' first and last views (each with its video's title; none without views), and their totals. */
export async function browserJourney(
  db: Kysely<Database>,
  workspaceId: string,
  viewerIds: ViewerIds,
): Promise<{ touches: BrowserTouch[]; totals: BrowserViewTotals | undefined }> {
  const views = sql`viewing_sessions s join ${videoTitles(db, workspaceId)} v on v.id = s.video_id
    where ${ofBrowsers(workspaceId, viewerIds)} and s.is_view`;
  const touches = await sql<BrowserTouch>`
    (select 'first' as edge, s.started_at, s.video_id, v.title from ${views} order by s.started_at asc, s.id asc limit 1)
    union all
    (select 'last' as edge, s.started_at, s.video_id, v.title from ${views} order by s.started_at desc, s.id desc limit 1)`.execute(db);
  const totals = await sql<BrowserViewTotals>`
    select count(*)::int as sessions, count(distinct s.video_id)::int as videos, sum(s.played_seconds)::float8 as seconds
    from ${views}`.execute(db);
  return { touches: touches.rows, totals: totals.rows[0] };
}

/**
 * The browsers' earliest (`asc`) or latest (`desc`) view that started at or before `until`: the
 * video and when, or undefined. Outcome attribution's first and last touch.
 */
export async function viewAtEdge(
  db: Kysely<Database>,
  workspaceId: string,
  viewerIds: ViewerIds,
  until: Date,
  direction: 'asc' | 'desc',
): Promise<{ video_id: string; started_at: Date } | undefined> {
  return (
    db
      .selectFrom('viewing_sessions as s')
      .select(['s.video_id', 's.started_at'])
      .where('s.workspace_id', '=', workspaceId)
      .where('s.is_view', '=', true)
      .where('s.started_at', '<=', until)
      .where(sql<SqlBool>`s.viewer_id in ${viewerIds}`)
      // The viewer index (workspace_id, viewer_id, started_at) serves both ends.
      .orderBy('s.started_at', direction)
      .orderBy(sql`s.id`, direction)
      .limit(1)
      .executeTakeFirst()
  );
}

/** One browser's latest `limit` views, newest first: what a new link to a lead credits. */
export function recentViewsOfViewer(db: Kysely<Database>, workspaceId: string, viewerId: string, limit: number) {
  return db
    .selectFrom('viewing_sessions')
    .select(['last_seen_at', 'duration_seconds', 'watched', 'played_seconds', 'cta_clicks'])
    .where('workspace_id', '=', workspaceId)
    .where('viewer_id', '=', viewerId)
    .where('is_view', '=', true)
    .orderBy('started_at', 'desc')
    .limit(limit)
    .execute();
}
