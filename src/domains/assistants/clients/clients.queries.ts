/**
 * The OAuth client registry: registering a client (RFC 7591), finding a client by its id (a
 * registered one from its row; a metadata-document one from its row while that reading is fresh, else
 * from its document, read again and kept), and sweeping registrations nobody ever used.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, OAuthClientRegistration, OAuthClientsTable } from '../../../db/tables/index.ts';
import type { ClientMetadata } from './client-metadata.ts';
import { type DocumentFetch, isDocumentClientId, readMetadataDocument } from './client-metadata-document.ts';

export interface OAuthClient {
  clientId: string;
  registration: OAuthClientRegistration;
  clientName: string;
  clientUri: string | null;
  redirectUris: string[];
  createdAt: Date;
}

export type ClientLookup = { ok: true; client: OAuthClient } | { ok: false; problems: string[] };

/** A registered client's id: never an https URL, so it can never be taken for a metadata document's. */
const REGISTERED_ID_PREFIX = 'cue_client_';

export async function registerClient(db: Kysely<Database>, metadata: ClientMetadata, now: Date): Promise<OAuthClient> {
  const clientId = `${REGISTERED_ID_PREFIX}${randomBytes(18).toString('base64url')}`;
  await db
    .insertInto('oauth_clients')
    .values({
      client_id: clientId,
      registration: 'dynamic',
      client_name: metadata.clientName,
      client_uri: metadata.clientUri,
      redirect_uris: JSON.stringify(metadata.redirectUris),
      created_at: now,
    })
    .execute();
  return { clientId, registration: 'dynamic', ...metadata, createdAt: now };
}

/** The client `clientId` names, as of `now`; the problems in words when there is none. */
export async function findClient(
  db: Kysely<Database>,
  clientId: string,
  options: { fetchDocument: DocumentFetch; now: Date },
): Promise<ClientLookup> {
  // A client id is printable ASCII (RFC 6749 Appendix A.1); anything else names no client, and is never sent to the database.
  if (!/^[\x20-\x7e]{1,2000}$/.test(clientId))
    return { ok: false, problems: ['the client_id is not a client id: printable ASCII, at most 2,000 characters'] };
  const row = await db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
  if (!isDocumentClientId(clientId)) {
    return row
      ? { ok: true, client: clientOf(row) }
      : { ok: false, problems: [`no client has the id ${JSON.stringify(clientId.slice(0, 100))}`] };
  }
  if (row?.fresh_until && row.fresh_until > options.now) return { ok: true, client: clientOf(row) };
  const reading = await readMetadataDocument(clientId, options.fetchDocument, options.now);
  if (!reading.ok) return reading;
  const { clientName, clientUri, redirectUris } = reading.metadata;
  const kept = await db
    .insertInto('oauth_clients')
    .values({
      client_id: clientId,
      registration: 'metadata_document',
      client_name: clientName,
      client_uri: clientUri,
      redirect_uris: JSON.stringify(redirectUris),
      created_at: options.now,
      fetched_at: options.now,
      fresh_until: reading.freshUntil,
    })
    .onConflict((conflict) =>
      conflict.column('client_id').doUpdateSet({
        client_name: clientName,
        client_uri: clientUri,
        redirect_uris: JSON.stringify(redirectUris),
        fetched_at: options.now,
        fresh_until: reading.freshUntil,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ok: true, client: clientOf(kept) };
}

/** Notes that a client was used (an authorization began), which keeps it from the sweep. */
export async function markClientUsed(db: Kysely<Database>, clientId: string, now: Date): Promise<void> {
  await db.updateTable('oauth_clients').set({ last_used_at: now }).where('client_id', '=', clientId).execute();
}

/** Removes registrations never used and older than `before` (registration is open to anyone); answers how many. */
export async function sweepUnusedClients(db: Kysely<Database>, before: Date): Promise<number> {
  const removed = await db
    .deleteFrom('oauth_clients')
    .where('last_used_at', 'is', null)
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(removed.numDeletedRows);
}

function clientOf(row: Selectable<OAuthClientsTable>): OAuthClient {
  return {
    clientId: row.client_id,
    registration: row.registration,
    clientName: row.client_name,
    clientUri: row.client_uri,
    redirectUris: row.redirect_uris as string[],
    createdAt: row.created_at,
  };
}
