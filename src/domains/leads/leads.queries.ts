/**
 * Reading and changing leads for the lead operations, always inside one workspace: the list with its
 * filters and orders, and the row fetches and checks update_lead needs. Creating and enriching is
 * lead-records.queries.ts.
 */
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { findInWorkspace } from '../../core/find-in-workspace.ts';
import { type KeysetOrder, keysetPage } from '../../core/lists/keyset-page.ts';
import type { KeysetRows, PageRequest } from '../../core/lists/pagination.ts';
import type { Database, LeadRow, LeadSource, LeadStatus } from '../../db/tables/index.ts';
import { videoTitles } from '../videos/index.ts';
import { viewersOfVideo } from '../viewing/index.ts';
import { emailKey, toLeadSnapshot } from './lead-records.queries.ts';
import type { LeadSnapshot } from './leads.events.ts';

export const LEAD_SORTS = ['engagement', 'newest', 'oldest'] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];

export interface LeadFilters {
  video_id?: string;
  status?: LeadStatus;
  source?: LeadSource;
  /** Captured at or after this instant (the start of from_date in the workspace time zone). */
  capturedFrom?: Date;
  /** Captured before this instant (the start of the day after to_date). */
  capturedBefore?: Date;
  search?: string;
  /** While answers are masked: the search matches emails and names only whole. */
  personalFieldsWhole?: boolean;
  sort: LeadSort;
}

/** The order of each sort; `id` last breaks ties. `engagement_rank` orders by current points (engagement-score.ts). */
const ORDER: Record<LeadSort, KeysetOrder> = {
  engagement: {
    direction: 'desc',
    columns: [
      { expression: 'l.engagement_rank', type: 'float8' },
      { expression: 'l.id', type: 'uuid' },
    ],
  },
  newest: {
    direction: 'desc',
    columns: [
      { expression: 'l.created_at', type: 'timestamptz' },
      { expression: 'l.id', type: 'uuid' },
    ],
  },
  oldest: {
    direction: 'asc',
    columns: [
      { expression: 'l.created_at', type: 'timestamptz' },
      { expression: 'l.id', type: 'uuid' },
    ],
  },
};

/** An ILIKE pattern matching text that contains `text` as typed (its %, _ and \ escaped). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The leads (as `l`) whose email, name or notes hold `search`, case aside. Searched on the stored
 * values, so an address finds its lead even while answers mask it. While they do
 * (`personalFieldsWhole`), personal fields match only whole (an address, a name), so probing with
 * fragments cannot unmask them a letter at a time; notes always match in part. list_leads and
 * search both use it.
 */
export function leadTextMatch(workspaceId: string, search: string, personalFieldsWhole: boolean): RawBuilder<SqlBool> {
  const text = search.trim();
  const lower = text.toLowerCase();
  const pattern = containsPattern(text);
  const fullName = sql`concat_ws(' ', l.first_name, l.last_name)`;
  const personal = personalFieldsWhole
    ? sql`(lower(l.email) = ${lower} or lower(l.name) = ${lower} or lower(${fullName}) = ${lower}
        or lower(l.first_name) = ${lower} or lower(l.last_name) = ${lower})`
    : sql`(l.email ilike ${pattern} or l.name ilike ${pattern} or ${fullName} ilike ${pattern})`;
  return sql<SqlBool>`(${personal} or exists (
    select 1 from lead_activities a
    where a.lead_id = l.id and a.workspace_id = ${workspaceId} and a.kind = 'note' and a.data->>'body' ilike ${pattern}))`;
}

function filteredLeads(db: Kysely<Database>, workspaceId: string, filters: LeadFilters) {
  let query = db
    .selectFrom('leads as l')
    .leftJoin(videoTitles(db, workspaceId).as('sv'), 'sv.id', 'l.source_video_id')
    .where('l.workspace_id', '=', workspaceId);
  if (filters.status) query = query.where('l.status', '=', filters.status);
  if (filters.source) query = query.where('l.source', '=', filters.source);
  if (filters.capturedFrom) query = query.where('l.created_at', '>=', filters.capturedFrom);
  if (filters.capturedBefore) query = query.where('l.created_at', '<', filters.capturedBefore);
  const videoId = filters.video_id;
  if (videoId) {
    // Watched it (a view by one of the lead's browsers), or was captured by its form.
    query = query.where((eb) =>
      eb.or([
        eb('l.source_video_id', '=', videoId),
        eb.exists(
          eb
            .selectFrom('lead_viewers as lv')
            .innerJoin(viewersOfVideo(db, workspaceId, videoId).as('s'), 's.viewer_id', 'lv.viewer_id')
            .select(sql.lit(1).as('one'))
            .whereRef('lv.lead_id', '=', 'l.id')
            .where('lv.workspace_id', '=', workspaceId),
        ),
      ]),
    );
  }
  if (filters.search) query = query.where(leadTextMatch(workspaceId, filters.search, filters.personalFieldsWhole ?? false));
  return query;
}

export async function listLeads(
  db: Kysely<Database>,
  workspaceId: string,
  filters: LeadFilters,
  page: PageRequest,
  now: Date,
): Promise<KeysetRows<LeadSnapshot>> {
  const { rows, keys, total } = await keysetPage(
    filteredLeads(db, workspaceId, filters),
    (query) => query.selectAll('l').select('sv.title as source_video_title'),
    ORDER[filters.sort],
    page,
  );
  return { rows: rows.map((row) => toLeadSnapshot(row, row.source_video_title, now)), keys, total };
}

/** The lead's row, locked for an update, or not_found. */
export function lockLead(db: Kysely<Database>, workspaceId: string, leadId: string): Promise<LeadRow> {
  return findInWorkspace(db, 'leads', { workspaceId, id: leadId }, (query) => query.selectAll().forUpdate());
}

/** The row, or not_found: for reads, which need no lock. */
export function findLead(db: Kysely<Database>, workspaceId: string, leadId: string): Promise<LeadRow> {
  return findInWorkspace(db, 'leads', { workspaceId, id: leadId }, (query) => query.selectAll());
}

/** Whether another lead of the workspace has this email (compared as upsert_lead compares). */
export async function emailTakenByOther(db: Kysely<Database>, workspaceId: string, email: string, leadId: string): Promise<boolean> {
  const hit = await db
    .selectFrom('leads')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where(sql<string>`lower(email)`, '=', emailKey(email))
    .where('id', '<>', leadId)
    .executeTakeFirst();
  return hit !== undefined;
}
