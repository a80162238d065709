/**
 * A lead's story, gathered from where each part lives: views from the viewing sessions of every
 * browser linked to the lead (before and after the link: a link is a fact about the browser, not a
 * moment), CTA clicks with their labels from the raw batches while retention keeps them, route
 * choices from the route visits of those same browsers, outcomes from the ledger itself (so an entry
 * always shows its value), and the rest (form submissions, notes, status changes, bookings) from
 * lead_activities. get_lead shows the newest entries, get_lead_journey the latest ones oldest first;
 * both read at most `limit` rows of each source, so the cost is bounded whatever the lead's history,
 * and count the rest.
 */
import { type Kysely, sql } from 'kysely';
import type { Static } from 'typebox';
import type { Database, LeadRow, LeadStatus } from '../../db/tables/index.ts';
import { firstPurchaseAt, leadLedgerEntries } from '../outcomes/index.ts';
import { browserRouteChoices } from '../routes/index.ts';
import { videoTitles } from '../videos/index.ts';
import { browserCtaClicks, browserJourney, browserViews, slicePlays, totalLength } from '../viewing/index.ts';
import { leadBrowsers } from './lead-browsers.queries.ts';
import type { TimelineEntry as TimelineEntrySchema, TimelineKind } from './leads.schemas.ts';

type Scalar = string | number | boolean | null;
type TimelineEntry = Static<typeof TimelineEntrySchema>;
type OutcomeFacts = NonNullable<TimelineEntry['outcome']>;

export interface Timeline {
  /** Newest first, at most `limit`. */
  entries: TimelineEntry[];
  total: number;
}

interface Source {
  entries: TimelineEntry[];
  total: number;
}

const ref = (videoId: string | null, title: string | null) => (videoId && title !== null ? { video_id: videoId, title } : null);
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** At the same instant, the order the steps happen in: a session starts before its click, a click before the form it led to. */
const STEP_ORDER: Record<TimelineKind, number> = {
  view: 0,
  cta_click: 1,
  route_choice: 2,
  form_submitted: 3,
  booking: 4,
  outcome: 5,
  status_changed: 6,
  note: 7,
};

/** The lead's latest `limit` entries across every source, newest first, and how many there are in all. */
export async function leadTimeline(db: Kysely<Database>, workspaceId: string, leadId: string, limit: number): Promise<Timeline> {
  const sources = await Promise.all([
    views(db, workspaceId, leadId, limit),
    ctaClicks(db, workspaceId, leadId, limit),
    routeChoices(db, workspaceId, leadId, limit),
    activities(db, workspaceId, leadId, limit),
    outcomes(db, workspaceId, leadId, limit),
  ]);
  const entries = sources
    .flatMap((source) => source.entries)
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : STEP_ORDER[b.kind] - STEP_ORDER[a.kind]))
    .slice(0, limit);
  return { entries, total: sources.reduce((sum, source) => sum + source.total, 0) };
}

async function views(db: Kysely<Database>, workspaceId: string, leadId: string, limit: number): Promise<Source> {
  const { rows, total } = await browserViews(db, workspaceId, leadBrowsers(db, workspaceId, leadId), limit);
  return {
    total,
    entries: rows.map((row) => ({
      kind: 'view',
      at: row.started_at.toISOString(),
      video: ref(row.video_id, row.title),
      view: {
        watched_seconds: round(row.played_seconds, 1),
        watched_share: round(Math.min(1, totalLength(row.watched) / row.duration_seconds), 3),
        slices_reached: slicePlays(row.watched, row.duration_seconds).filter((plays) => plays > 0).length,
        furthest_seconds: round(
          row.watched.reduce((furthest, [, end]) => Math.max(furthest, end), 0),
          1,
        ),
        completed: row.completed,
        cta_clicks: row.cta_clicks,
      },
    })),
  };
}

async function ctaClicks(db: Kysely<Database>, workspaceId: string, leadId: string, limit: number): Promise<Source> {
  const { rows, total } = await browserCtaClicks(db, workspaceId, leadBrowsers(db, workspaceId, leadId), limit);
  return {
    total,
    entries: rows.map((row) => ({
      kind: 'cta_click',
      at: row.received_at.toISOString(),
      video: ref(row.video_id, row.title),
      cta: { label: row.label, position_seconds: row.position === null ? null : Number(row.position) },
    })),
  };
}

/**
 * The choices the lead's browsers made in routes (before or after the link, like views): the steps
 * of their visits where a choice was made, with the step's video, and the label as it was chosen
 * (a choice re-wired away since keeps the words the viewer saw).
 */
async function routeChoices(db: Kysely<Database>, workspaceId: string, leadId: string, limit: number): Promise<Source> {
  const { rows, total } = await browserRouteChoices(db, workspaceId, leadBrowsers(db, workspaceId, leadId), limit);
  return {
    total,
    entries: rows.map((row) => ({
      kind: 'route_choice',
      at: row.chosen_at.toISOString(),
      video: ref(row.video_id, row.title),
      details: { route_id: row.route_id, route: row.route, choice: row.choice, target: row.target },
    })),
  };
}

async function activities(db: Kysely<Database>, workspaceId: string, leadId: string, limit: number): Promise<Source> {
  // Outcomes are read from the ledger (below) and route choices from the visits (above), whatever
  // activity rows their writers also keep, so neither shows twice.
  const base = db
    .selectFrom('lead_activities as a')
    .where('a.workspace_id', '=', workspaceId)
    .where('a.lead_id', '=', leadId)
    .where('a.kind', 'not in', ['outcome', 'route_choice']);
  const [rows, count] = await Promise.all([
    base
      .leftJoin(videoTitles(db, workspaceId).as('v'), 'v.id', 'a.video_id')
      .select(['a.kind', 'a.data', 'a.occurred_at', 'a.video_id', 'v.title'])
      .orderBy('a.occurred_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { total: count.n, entries: rows.map((row) => activityEntry(row.kind, row.data, row.occurred_at, ref(row.video_id, row.title))) };
}

const PERSONAL_KEY = /email|phone|name/i;

function activityEntry(kind: TimelineKind, data: Record<string, unknown>, at: Date, video: TimelineEntry['video']): TimelineEntry {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const entry: TimelineEntry = { kind, at: at.toISOString(), video };
  if (kind === 'note') entry.note = { body: text(data.body), author: text(data.author) };
  else if (kind === 'status_changed')
    entry.status_change = { from: text(data.from) as LeadStatus, to: text(data.to) as LeadStatus, author: text(data.author) };
  else if (kind === 'form_submitted') {
    const fields = Array.isArray(data.fields) ? data.fields.filter((f): f is string => typeof f === 'string') : [];
    entry.form = { fields };
  } else {
    // `details` carries no masking markers, so a fact named like a personal field (an invitee's
    // email) is never passed through: masked answers must not leak it.
    entry.details = Object.fromEntries(
      Object.entries(data).filter(
        (pair): pair is [string, Scalar] =>
          !PERSONAL_KEY.test(pair[0]) && (pair[1] === null || ['string', 'number', 'boolean'].includes(typeof pair[1])),
      ),
    );
  }
  return entry;
}

async function outcomes(db: Kysely<Database>, workspaceId: string, leadId: string, limit: number): Promise<Source> {
  const { rows, total } = await leadLedgerEntries(db, workspaceId, leadId, limit);
  return {
    total,
    entries: rows.map((row) => ({
      kind: 'outcome',
      at: row.occurred_at.toISOString(),
      video: ref(row.video_id, row.title),
      outcome: {
        outcome_id: row.id,
        kind: row.kind,
        status: row.status,
        value: Number(row.amount),
        currency: row.currency.trim(),
      } satisfies OutcomeFacts,
    })),
  };
}

export interface JourneySummary {
  first_touch: { at: string; video: { video_id: string; title: string } } | null;
  last_touch: { at: string; video: { video_id: string; title: string } } | null;
  conversion: { kind: 'purchase' | 'capture'; at: string } | null;
  time_to_conversion_seconds: number | null;
  sessions: number;
  videos_watched: number;
  watched_seconds: number;
}

/**
 * First and last touch are the first and last views by the lead's browsers (the same "last video
 * watched" that outcome attribution uses). The conversion is the first succeeded purchase, or the
 * capture (when the lead was added) for a lead who has not bought.
 */
export async function journeySummary(db: Kysely<Database>, workspaceId: string, lead: LeadRow): Promise<JourneySummary> {
  const { touches, totals } = await browserJourney(db, workspaceId, leadBrowsers(db, workspaceId, lead.id));
  const purchasedAt = await firstPurchaseAt(db, workspaceId, lead.id);
  const touch = (edge: string) => {
    const row = touches.find((r) => r.edge === edge);
    return row ? { at: row.started_at.toISOString(), video: { video_id: row.video_id, title: row.title } } : null;
  };
  const firstTouch = touch('first');
  const conversion = purchasedAt
    ? { kind: 'purchase' as const, at: purchasedAt.toISOString() }
    : { kind: 'capture' as const, at: lead.created_at.toISOString() };
  const gap = firstTouch ? Date.parse(conversion.at) - Date.parse(firstTouch.at) : -1;
  return {
    first_touch: firstTouch,
    last_touch: touch('last'),
    conversion,
    time_to_conversion_seconds: gap >= 0 ? Math.floor(gap / 1000) : null,
    sessions: totals?.sessions ?? 0,
    videos_watched: totals?.videos ?? 0,
    watched_seconds: round(totals?.seconds ?? 0, 1),
  };
}
