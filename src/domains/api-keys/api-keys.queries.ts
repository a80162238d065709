/**
 * Credential rows: minting (shared by create_api_key and the CLI), listing active ones, revoking.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { AppError } from '../../core/errors.ts';
import { keysetPage, NEWEST_FIRST } from '../../core/lists/keyset-page.ts';
import type { KeysetRows, PageRequest } from '../../core/lists/pagination.ts';
import { type Scope, sortScopes, tierOf } from '../../core/scopes.ts';
import { type CredentialKind, generateToken } from '../../core/secrets/tokens.ts';
import type { CredentialRow, Database } from '../../db/tables/index.ts';
import { userNames } from '../people/index.ts';
import { lockWorkspace } from '../workspace/index.ts';
import type { ApiKey } from './api-keys.schemas.ts';

export interface MintRequest {
  workspaceId: string;
  name: string;
  kind: CredentialKind;
  scopes: Scope[];
  expiresAt: Date | null;
  /** The credential minting it (null on the command line). */
  createdBy: string | null;
  /** The member minting it, directly or through a key they minted; null for an owner's command-line key. */
  createdByUser?: string | null;
  /** The only resource it works at (a connected assistant's token: the MCP endpoint). */
  resource?: string | null;
  /** Its first token's own end, before `expiresAt` (a connected assistant's access token). */
  tokenExpiresAt?: Date | null;
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
      created_by_user: request.createdByUser ?? null,
      created_at: request.now,
      expires_at: request.expiresAt,
      resource: request.resource ?? null,
      token_expires_at: request.tokenExpiresAt ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const names = await userNames(db, row.created_by_user ? [row.created_by_user] : []);
  return { key: toApiKey(row, names), token };
}

/** `names`: the minting members' names by user id (people's userNames). */
export function toApiKey(row: CredentialRow, names: ReadonlyMap<string, string>): ApiKey {
  return {
    key_id: row.id,
    name: row.name,
    prefix: row.prefix,
    kind: row.kind,
    tier: tierOf(row.scopes),
    scopes: row.scopes as Scope[],
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at ? row.expires_at.toISOString() : null,
    last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
    created_by: row.created_by_user ? { user_id: row.created_by_user, name: names.get(row.created_by_user) ?? '' } : null,
    resource: row.resource,
  };
}

/** Active keys (not revoked, not expired), newest first, after the keyset position `after`. */
export async function listActiveCredentials(
  db: Kysely<Database>,
  workspaceId: string,
  now: Date,
  page: PageRequest,
): Promise<KeysetRows<ApiKey>> {
  const active = db
    .selectFrom('credentials')
    .where('workspace_id', '=', workspaceId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  const { rows, keys, total } = await keysetPage(active, (query) => query.selectAll(), NEWEST_FIRST, page);
  const names = await userNames(
    db,
    rows.flatMap((row) => (row.created_by_user ? [row.created_by_user] : [])),
  );
  return { rows: rows.map((row) => toApiKey(row, names)), keys, total };
}

/** Who is revoking: their credential and the scopes it holds. */
export interface Revoker {
  credentialId: string;
  scopes: ReadonlySet<Scope>;
}

/**
 * Revokes an active key of this workspace, under three rules: the key must be in this workspace and
 * not revoked yet (404); the revoker must hold every scope the key holds (403), so a narrow admin key
 * cannot take access away from a broader one; and the workspace's last unexpired credential holding
 * workspace:manage stays (409), since without it nobody could manage the workspace through the API
 * again. The workspace row is locked first, so two revocations of the last two admin keys at once
 * run one after the other and the second sees the first: they cannot both succeed.
 */
export async function revokeCredential(
  db: Kysely<Database>,
  workspaceId: string,
  keyId: string,
  revoker: Revoker,
  now: Date,
): Promise<{ key: ApiKey; revokedSelf: boolean }> {
  // FOR NO KEY UPDATE serialises revocations without blocking the rows that merely reference the workspace.
  await lockWorkspace(db, workspaceId);
  const target = await db
    .selectFrom('credentials')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!target) throw AppError.notFound('active API key', keyId);

  const missing = sortScopes((target.scopes as Scope[]).filter((scope) => !revoker.scopes.has(scope)));
  if (missing.length > 0) {
    throw new AppError(
      'forbidden',
      `A credential can only revoke keys whose scopes it holds; this one lacks ${missing.join(', ')}, which that key has. ` +
        'Revoke it with a credential that holds them (an admin key).',
      { required_scope: missing[0], missing_scopes: missing },
    );
  }
  const isUnexpired = !target.expires_at || target.expires_at.getTime() > now.getTime();
  if (target.scopes.includes('workspace:manage') && isUnexpired && (await otherManagers(db, workspaceId, keyId, now)) === 0) {
    throw new AppError(
      'conflict',
      'This is the last active credential holding workspace:manage in this workspace: revoking it would leave nobody able ' +
        'to manage keys, webhooks or settings, and no key could be minted again without server access. Mint another ' +
        'admin key first (create_api_key with scope "admin"), then revoke this one.',
      { reason: 'last_admin_credential' },
    );
  }
  const row = await db
    .updateTable('credentials')
    .set({ revoked_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', keyId)
    .returningAll()
    .executeTakeFirstOrThrow();
  const names = await userNames(db, row.created_by_user ? [row.created_by_user] : []);
  return { key: toApiKey(row, names), revokedSelf: keyId === revoker.credentialId };
}

/** Unrevoked, unexpired credentials holding workspace:manage, other than `exceptId`. */
async function otherManagers(db: Kysely<Database>, workspaceId: string, exceptId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('credentials')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('id', '!=', exceptId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .where(sql<boolean>`'workspace:manage' = any(scopes)`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
