/**
 * Webhook endpoint rows. Every function takes the workspace id and filters on it; an endpoint id that
 * misses in this workspace is not_found, whoever really owns it.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import { AppError } from '../../core/errors.ts';
import { findInWorkspace } from '../../core/find-in-workspace.ts';
import { keysetPage, NEWEST_FIRST } from '../../core/lists/keyset-page.ts';
import type { KeysetRows, PageRequest } from '../../core/lists/pagination.ts';
import type { Database, WebhookEndpointRow, WebhookEndpointsTable } from '../../db/tables/index.ts';
import { ALL_EVENTS, type ListedWebhookEndpoint, type WebhookEndpoint } from './webhooks.schemas.ts';

export function toEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    endpoint_id: row.id,
    name: row.name,
    url: row.url,
    events: row.events,
    active: row.active,
    disabled_reason: row.disabled_reason,
    previous_secret_expires_at: row.previous_secret_sealed ? (row.previous_secret_expires_at?.toISOString() ?? null) : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Duplicates dropped, first-seen order kept; `*` anywhere means every event, written `["*"]`. */
export function normaliseEvents(events: readonly string[]): string[] {
  return events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)];
}

export async function insertEndpoint(
  db: Kysely<Database>,
  workspaceId: string,
  fields: { name: string; url: string; events: string[]; secretSealed: string },
  now: Date,
): Promise<WebhookEndpointRow> {
  return db
    .insertInto('webhook_endpoints')
    .values({
      id: randomUUID(),
      workspace_id: workspaceId,
      name: fields.name,
      url: fields.url,
      events: fields.events,
      active: true,
      disabled_reason: null,
      secret_sealed: fields.secretSealed,
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The endpoint, locked until the transaction ends, so concurrent updates (rotations) take turns. */
export async function lockEndpoint(db: Kysely<Database>, workspaceId: string, endpointId: string): Promise<WebhookEndpointRow> {
  return findInWorkspace(db, 'webhook_endpoints', { workspaceId, id: endpointId }, (query) => query.selectAll().forUpdate());
}

export async function getEndpointRow(db: Kysely<Database>, workspaceId: string, endpointId: string): Promise<WebhookEndpointRow> {
  return findInWorkspace(db, 'webhook_endpoints', { workspaceId, id: endpointId }, (query) => query.selectAll());
}

export type EndpointChanges = Partial<
  Pick<
    Updateable<WebhookEndpointsTable>,
    'name' | 'url' | 'events' | 'active' | 'disabled_reason' | 'secret_sealed' | 'previous_secret_sealed'
  >
> & { previous_secret_expires_at?: Date | null };

export async function updateEndpoint(
  db: Kysely<Database>,
  workspaceId: string,
  endpointId: string,
  changes: EndpointChanges,
  now: Date,
): Promise<WebhookEndpointRow> {
  const row = await db
    .updateTable('webhook_endpoints')
    .set({ ...changes, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', endpointId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw AppError.notFound('webhook endpoint', endpointId);
  return row;
}

/** Deletes the endpoint; its deliveries go with it (foreign key cascade). Answers how many there were. */
export async function deleteEndpoint(
  db: Kysely<Database>,
  workspaceId: string,
  endpointId: string,
): Promise<{ endpoint: WebhookEndpointRow; deliveries: number }> {
  const endpoint = await lockEndpoint(db, workspaceId, endpointId);
  const count = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirstOrThrow();
  await db.deleteFrom('webhook_endpoints').where('workspace_id', '=', workspaceId).where('id', '=', endpointId).execute();
  return { endpoint, deliveries: Number(count.n) };
}

/**
 * Newest first, after the keyset position `after`, each with how many of its deliveries gave up (one
 * statement for the page, read from the partial index of exhausted deliveries).
 */
export async function listEndpoints(
  db: Kysely<Database>,
  workspaceId: string,
  page: PageRequest,
): Promise<KeysetRows<ListedWebhookEndpoint>> {
  const base = db.selectFrom('webhook_endpoints').where('workspace_id', '=', workspaceId);
  const { rows, keys, total } = await keysetPage(
    base,
    (query) =>
      query
        .selectAll()
        .select((eb) =>
          eb
            .selectFrom('webhook_deliveries as d')
            .select(eb.fn.countAll<string>().as('n'))
            .whereRef('d.endpoint_id', '=', 'webhook_endpoints.id')
            .where('d.status', '=', 'exhausted')
            .as('exhausted_deliveries'),
        ),
    NEWEST_FIRST,
    page,
  );
  return { rows: rows.map((row) => ({ ...toEndpoint(row), exhausted_deliveries: Number(row.exhausted_deliveries ?? 0) })), keys, total };
}
