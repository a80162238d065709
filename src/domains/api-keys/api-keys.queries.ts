/**
 * Credential rows: minting (shared by create_api_key and the CLI), listing active ones, revoking.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError } from '../../core/errors.ts';
import { type Scope, sortScopes, tierOf } from '../../core/scopes.ts';
import { type CredentialKind, generateToken } from '../../core/tokens.ts';
import { newestFirstPage } from '../../db/newest-first-page.ts';
import type { CredentialRow, Database } from '../../db/tables.ts';
import type { ApiKey } from './api-keys.schemas.ts';

export interface MintRequest {
  workspaceId: string;
  name: string;
  kind: CredentialKind;
  scopes: Scope[];
  expiresAt: Date | null;
  createdBy: string | null;
  now: Date;
}

export async function mintCredential(db: Kysely<Database>, request: MintRequest): Promise<{ key: ApiKey; token: string }> {
  const { token, prefix, hash } = generateToken(request.kind);
  const row = await db
    .insertInto('credentials')
    .values({
      id: randomUUID(),
      workspace_id: request.workspaceId,
      kind: request.kind,
      name: request.name,
      prefix,
      token_hash: hash,
      scopes: sortScopes(request.scopes),
      created_by: request.createdBy,
      created_at: request.now,
      expires_at: request.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { key: toApiKey(row), token };
}

export function toApiKey(row: CredentialRow): ApiKey {
  return {
    key_id: row.id,
    name: row.name,
    prefix: row.prefix,
    kind: row.kind,
    tier: tierOf(row.scopes),
    scopes: row.scopes as Scope[],
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at ? row.expires_at.toISOString() : null,
  };
}

/** Active keys (not revoked, not expired), newest first, after the keyset position `after`. */
export async function listActiveCredentials(
  db: Kysely<Database>,
  workspaceId: string,
  now: Date,
  page: { after: (string | number | null)[] | undefined; limit: number },
): Promise<{ rows: ApiKey[]; total: number }> {
  const active = db
    .selectFrom('credentials')
    .where('workspace_id', '=', workspaceId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  const { rows, total } = await newestFirstPage(active, page);
  return { rows: rows.map(toApiKey), total };
}

export async function revokeCredential(db: Kysely<Database>, workspaceId: string, keyId: string, now: Date): Promise<ApiKey> {
  const row = await db
    .updateTable('credentials')
    .set({ revoked_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw AppError.notFound('active API key', keyId);
  return toApiKey(row);
}
