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
 * The ids of the workspace's leads whose email, name or notes hold `search`, case aside. Searched on
 * the stored values, so an address finds its lead even while answers mask it. While they do
 * (`personalFieldsWhole`), personal fields match only whole (an address, a name), so probing with
 * fragments cannot unmask them a letter at a time; notes always match in part. `closeNames` adds
 * names close to the text (a typo; never while masking, see search).
 *
 * One arm per place the text can be, each an index lookup (the email's unique index or its
 * trigrams, the names' trigrams, the notes' trigrams: migrations 0024, 0034), put together with
 * UNION: as one OR over the columns it read every lead of the workspace and probed its notes one
 * lead at a time (47 ms over 50,000 leads). A name must contain the text before it can equal it, so
 * the names' trigram index narrows the exact comparisons too.
 */
export function leadTextMatchIds(
  workspaceId: string,
  search: string,
  personalFieldsWhole: boolean,
  options: { closeNames?: boolean } = {},
): RawBuilder<{ id: string }> {
  const text = search.trim();
  const lower = text.toLowerCase();
  const pattern = containsPattern(text);
  const fullName = sql`concat_ws(' ', m.first_name, m.last_name)`;
  const searchName = sql`lead_search_name(m.name, m.first_name, m.last_name)`;
  const inWorkspace = sql`m.workspace_id = ${workspaceId}`;
  const byEmail = personalFieldsWhole ? sql`lower(m.email) = ${lower}` : sql`m.email ilike ${pattern}`;
  const byName = personalFieldsWhole
    ? sql`(lower(m.name) = ${lower} or lower(${fullName}) = ${lower} or lower(m.first_name) = ${lower} or lower(m.last_name) = ${lower})`
    : sql`(m.name ilike ${pattern} or ${fullName} ilike ${pattern})`;
  const close = options.closeNames ? sql` union select m.id from leads m where ${inWorkspace} and ${lower} <% ${searchName}` : sql``;
  return sql<{ id: string }>`select m.id from leads m where ${inWorkspace} and ${byEmail}
    union select m.id from leads m where ${inWorkspace} and ${searchName} ilike ${pattern} and ${byName}
    union select a.lead_id from lead_activities a
      where a.workspace_id = ${workspaceId} and a.kind = 'note' and a.data->>'body' ilike ${pattern}${close}`;
}

/** The leads (as `l`) that leadTextMatchIds finds. list_leads and search both use it. */
export function leadTextMatch(
  workspaceId: string,
  search: string,
  personalFieldsWhole: boolean,
  options: { closeNames?: boolean } = {},
): RawBuilder<SqlBool> {
  return sql<SqlBool>`l.id in (${leadTextMatchIds(workspaceId, search, personalFieldsWhole, options)})`;
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
