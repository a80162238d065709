/**
 * The ledger's reads and its one insert, each scoped to a workspace. `insertOutcome` is the only
 * way an entry is written (record_outcome, Stripe events, and bookings once scheduling exists): it
 * stores the attribution with the entry and yields to an existing entry with the same external_id.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import { foundInWorkspace } from '../../core/find-in-workspace.ts';
import { type KeysetOrder, keysetPage } from '../../core/lists/keyset-page.ts';
import type { KeysetRows, PageRequest } from '../../core/lists/pagination.ts';
import type { Database, OutcomeKind, OutcomeSource, OutcomeStatus, OutcomesTable } from '../../db/tables/index.ts';
import { leadContacts } from '../leads/index.ts';
import { videoTitles } from '../videos/index.ts';
import { countLedgerEntry } from '../viewing/index.ts';
import { attributeToVideos } from './attribution.ts';
import type { OutcomeSnapshot } from './outcomes.events.ts';

export interface NewLedgerEntry {
  workspaceId: string;
  kind: OutcomeKind;
  status: OutcomeStatus;
  amount: number;
  currency: string;
  leadId: string | null;
  videoId: string | null;
  refundedOutcomeId: string | null;
  externalId: string | null;
  source: OutcomeSource;
  description: string | null;
  occurredAt: Date;
  now: Date;
}

/**
 * Inserts the entry with its attribution (when it has a lead). With an external_id already in the
 * workspace nothing is written and `inserted` is false: the unique index decides, so two concurrent
 * writers of one external_id cannot both insert (the second waits for the first, then yields).
 */
export async function insertOutcome(db: Kysely<Database>, entry: NewLedgerEntry): Promise<{ outcomeId: string; inserted: boolean }> {
  const attribution = entry.leadId
    ? await attributeToVideos(db, entry.workspaceId, entry.leadId, entry.occurredAt)
    : { first_touch_video_id: null, last_touch_video_id: null };
  const id = randomUUID();
  const inserted = await db
    .insertInto('outcomes')
    .values({
      id,
      workspace_id: entry.workspaceId,
      kind: entry.kind,
      status: entry.status,
      amount: entry.amount,
      currency: entry.currency,
      lead_id: entry.leadId,
      video_id: entry.videoId,
      ...attribution,
      refunded_outcome_id: entry.refundedOutcomeId,
      external_id: entry.externalId,
      source: entry.source,
      description: entry.description,
      occurred_at: entry.occurredAt,
      created_at: entry.now,
    })
    .onConflict((conflict) => conflict.columns(['workspace_id', 'external_id']).where('external_id', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) {
    await countLedgerEntry(db, entry);
    return { outcomeId: id, inserted: true };
  }
  const existing = await findOutcomeIdByExternalId(db, entry.workspaceId, entry.externalId as string);
  return { outcomeId: existing as string, inserted: false };
}

/**
 * Holds writers of one external_id in a workspace one at a time until the transaction ends, so a
 * second writer sees the first one's entry before it writes anything (not even a lead). The unique
 * index stays the guarantee; this only keeps the loser from doing work it would have to undo.
 */
export async function lockExternalId(db: Kysely<Database>, workspaceId: string, externalId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${workspaceId}), hashtext(${externalId}))`.execute(db);
}

export async function findOutcomeIdByExternalId(
  db: Kysely<Database>,
  workspaceId: string,
  externalId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('outcomes')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  return row?.id;
}

/** The purchase a refund names, its row locked until the transaction ends, so refunds of it are added up one at a time. */
export async function lockRefundable(db: Kysely<Database>, workspaceId: string, outcomeId: string) {
  const row = await db
    .selectFrom('outcomes')
    .select(['id', 'kind', 'status', 'amount', 'currency', 'lead_id', 'video_id'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', outcomeId)
    .forUpdate()
    .executeTakeFirst();
  return foundInWorkspace(row, 'outcomes', outcomeId);
}

/** What the refunds of a purchase add up to, counting those that are or may become money back (pending, succeeded). */
export async function refundedAmount(db: Kysely<Database>, workspaceId: string, purchaseId: string): Promise<number> {
  const row = await db
    .selectFrom('outcomes')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
    .where('workspace_id', '=', workspaceId)
    .where('refunded_outcome_id', '=', purchaseId)
    .where('kind', '=', 'refund')
    .where('status', 'in', ['pending', 'succeeded'])
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** What refunds recorded under external ids starting with the prefix add up to (a Stripe charge's refunds so far). */
export async function refundedUnderPrefix(db: Kysely<Database>, workspaceId: string, externalIdPrefix: string): Promise<number> {
  const row = await db
    .selectFrom('outcomes')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'refund')
    .where('status', 'in', ['pending', 'succeeded'])
    .where('external_id', 'like', `${escapeLike(externalIdPrefix)}%`)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

type OutcomesAsO = Database & { o: Database['outcomes'] };

/** An entry's columns with its lead and the titles of its videos, on a query over the workspace's `outcomes as o`. */
function withParts<O>(db: Kysely<Database>, workspaceId: string, query: SelectQueryBuilder<OutcomesAsO, 'o', O>) {
  return query
    .leftJoin(leadContacts(db, workspaceId).as('l'), 'l.id', 'o.lead_id')
    .leftJoin(videoTitles(db, workspaceId).as('v'), 'v.id', 'o.video_id')
    .leftJoin(videoTitles(db, workspaceId).as('vf'), 'vf.id', 'o.first_touch_video_id')
    .leftJoin(videoTitles(db, workspaceId).as('vl'), 'vl.id', 'o.last_touch_video_id')
    .select([
      'o.id',
      'o.kind',
      'o.status',
      'o.amount',
      'o.currency',
      'o.lead_id',
      'o.video_id',
      'o.first_touch_video_id',
      'o.last_touch_video_id',
      'o.refunded_outcome_id',
      'o.external_id',
      'o.source',
      'o.description',
      'o.occurred_at',
      'o.created_at',
      'l.email as lead_email',
      'l.name as lead_name',
      'l.first_name as lead_first_name',
      'l.last_name as lead_last_name',
      'v.title as video_title',
      'vf.title as first_touch_title',
      'vl.title as last_touch_title',
    ]);
}

/** A ledger row with the lead's and the videos' fields the snapshot shows (outcomeColumns). */
type OutcomeRow = Omit<Selectable<OutcomesTable>, 'workspace_id'> & {
  lead_email: string | null;
  lead_name: string | null;
  lead_first_name: string | null;
  lead_last_name: string | null;
  video_title: string | null;
  first_touch_title: string | null;
  last_touch_title: string | null;
};

const videoRef = (videoId: string | null, title: string | null) => (videoId && title !== null ? { video_id: videoId, title } : null);

function toOutcomeSnapshot(row: OutcomeRow): OutcomeSnapshot {
  const joinedName = [row.lead_first_name, row.lead_last_name].filter(Boolean).join(' ');
  return {
    outcome_id: row.id,
    kind: row.kind,
    status: row.status,
    value: Number(row.amount),
    currency: row.currency,
    lead:
      row.lead_id && row.lead_email !== null
        ? { lead_id: row.lead_id, email: row.lead_email, name: row.lead_name ?? (joinedName || null) }
        : null,
    video: videoRef(row.video_id, row.video_title),
    first_touch_video: videoRef(row.first_touch_video_id, row.first_touch_title),
    last_touch_video: videoRef(row.last_touch_video_id, row.last_touch_title),
    refunded_outcome_id: row.refunded_outcome_id,
    external_id: row.external_id,
    source: row.source,
    description: row.description,
    occurred_at: row.occurred_at.toISOString(),
    created_at: row.created_at.toISOString(),
  };
}

/** One entry as list_outcomes and outcome.created show it (unmasked: the pipeline and webhook payloads mask). */
export async function outcomeSnapshot(db: Kysely<Database>, workspaceId: string, outcomeId: string): Promise<OutcomeSnapshot> {
  const row = await withParts(
    db,
    workspaceId,
    db.selectFrom('outcomes as o').where('o.workspace_id', '=', workspaceId).where('o.id', '=', outcomeId),
  ).executeTakeFirst();
  return toOutcomeSnapshot(foundInWorkspace(row, 'outcomes', outcomeId));
}

export interface OutcomeFilters {
  from?: Date | undefined;
  /** Exclusive. */
  before?: Date | undefined;
  kind?: OutcomeKind | undefined;
  status?: OutcomeStatus | undefined;
  leadId?: string | undefined;
  /** Matches the named video, the first touch or the last touch. */
  videoId?: string | undefined;
}

function filtered(db: Kysely<Database>, workspaceId: string, filters: OutcomeFilters) {
  let query = db.selectFrom('outcomes as o').where('o.workspace_id', '=', workspaceId);
  if (filters.from) query = query.where('o.occurred_at', '>=', filters.from);
  if (filters.before) query = query.where('o.occurred_at', '<', filters.before);
  if (filters.kind) query = query.where('o.kind', '=', filters.kind);
  if (filters.status) query = query.where('o.status', '=', filters.status);
  if (filters.leadId) query = query.where('o.lead_id', '=', filters.leadId);
  const { videoId } = filters;
  if (videoId) {
    query = query.where((eb) =>
      eb.or([eb('o.video_id', '=', videoId), eb('o.first_touch_video_id', '=', videoId), eb('o.last_touch_video_id', '=', videoId)]),
    );
  }
  return query;
}

/** Newest first: the ledger's natural reading order, served by outcomes_occurred_idx. */
const NEWEST_OCCURRED: KeysetOrder = {
  direction: 'desc',
  columns: [
    { expression: 'o.occurred_at', type: 'timestamptz' },
    { expression: 'o.id', type: 'uuid' },
  ],
};

export async function listOutcomes(
  db: Kysely<Database>,
  workspaceId: string,
  filters: OutcomeFilters,
  page: PageRequest,
  /** The entries' count when the caller has it (outcomeTotals counts them per currency). */
  total?: Promise<number>,
): Promise<KeysetRows<OutcomeSnapshot>> {
  const {
    rows,
    keys,
    total: counted,
  } = await keysetPage(filtered(db, workspaceId, filters), (query) => withParts(db, workspaceId, query), NEWEST_OCCURRED, page, total);
  return { rows: rows.map(toOutcomeSnapshot), keys, total: counted };
}

export interface CurrencyTotal {
  currency: string;
  count: number;
  purchases: number;
  refunds: number;
  net: number;
}

/**
 * Per currency, over every entry the filters match (not one page): how many entries, the succeeded
 * purchases, the succeeded refunds and the net (purchases minus refunds). Booked calls are counted
 * but carry no money into the net; pending, failed and canceled entries are counted only.
 */
export async function outcomeTotals(db: Kysely<Database>, workspaceId: string, filters: OutcomeFilters): Promise<CurrencyTotal[]> {
  const succeeded = (kind: OutcomeKind) =>
    sql<string>`coalesce(sum(o.amount) filter (where o.kind = ${kind} and o.status = 'succeeded'), 0)`;
  const rows = await filtered(db, workspaceId, filters)
    .select(['o.currency', sql<string>`count(*)`.as('count'), succeeded('purchase').as('purchases'), succeeded('refund').as('refunds')])
    .groupBy('o.currency')
    .orderBy('o.currency')
    .execute();
  return rows.map((row) => {
    const purchases = Number(row.purchases);
    const refunds = Number(row.refunds);
    return { currency: row.currency, count: Number(row.count), purchases, refunds, net: purchases - refunds };
  });
}
