/**
 * Grants: what a redeemed code becomes (issue 29). A grant's access token is a credential of kind
 * `assistant` named after the client, made by the person who allowed it (so it acts with at most their
 * role, and not at all once they leave), bound to the MCP endpoint, its token good for an hour. Its
 * refresh token is good for 30 days and is used once: each refresh gives the credential a new token
 * and the assistant a new refresh token, and moves the grant's end 30 days on. A refresh token
 * presented a second time means one of the two presenters stole it: the grant ends (OAuth 2.1 §4.3.1).
 *
 * Every grant, refusal of a refresh and end is an audit event of the workspace, in its transaction.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Scope } from '../../../core/scopes.ts';
import type { Database } from '../../../db/tables/index.ts';
import {
  credentialIdOfToken,
  credentialIsLive,
  credentialSummary,
  endCredential,
  mintCredential,
  replaceCredentialToken,
} from '../../api-keys/index.ts';
import { type AuditEntry, recordAuditEvent } from '../../audit/index.ts';
import { membershipsOf } from '../../people/index.ts';
import type { CodeGrant } from '../authorization/codes.queries.ts';

export const ACCESS_TOKEN_LIFETIME_MS = 60 * 60 * 1000;
export const REFRESH_TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
  scopes: Scope[];
}

export type TokenRefusal = { ok: false; error: 'invalid_grant'; description: string };

/** Who calls the token endpoint, for the audit log. */
export interface TokenCaller {
  address?: string;
  userAgent?: string;
}

/** Refresh tokens are kept as the SHA-256 of the token, as every other secret of ours. */
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
/** A refresh token: 32 random bytes, with a prefix that tells it apart from every other secret of ours. */
const newRefreshToken = () => `cue_rt_${randomBytes(32).toString('base64url')}`;

/** Starts the grant a redeemed code describes: its credential, its first refresh token, and the audit event. */
export async function startGrant(
  db: Kysely<Database>,
  input: { code: CodeGrant; codeHash: string; clientName: string; caller: TokenCaller; now: Date },
): Promise<IssuedTokens> {
  const { code, now } = input;
  return db.transaction().execute(async (trx) => {
    const { key, token } = await mintCredential(trx, {
      workspaceId: code.workspaceId,
      name: input.clientName,
      kind: 'assistant',
      scopes: code.scopes,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_MS),
      tokenExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_LIFETIME_MS),
      resource: code.resource,
      createdBy: null,
      createdByUser: code.userId,
      now,
    });
    const grantId = randomUUID();
    await trx
      .insertInto('oauth_grants')
      .values({
        id: grantId,
        credential_id: key.key_id,
        client_id: code.clientId,
        workspace_id: code.workspaceId,
        user_id: code.userId,
        created_at: now,
      })
      .execute();
    await trx.updateTable('oauth_codes').set({ grant_id: grantId }).where('code_hash', '=', input.codeHash).execute();
    const refreshToken = await issueRefreshToken(trx, grantId, now);
    await recordAuditEvent(
      trx,
      grantEvent(
        { workspaceId: code.workspaceId, credentialId: key.key_id, clientId: code.clientId, clientName: input.clientName },
        'assistant.connected',
        input,
        { actor: { kind: 'user', id: code.userId, name: key.created_by?.name ?? '' }, scopes: code.scopes },
      ),
    );
    return { accessToken: token, refreshToken, expiresInSeconds: ACCESS_TOKEN_LIFETIME_MS / 1000, scopes: code.scopes };
  });
}

interface GrantFacts {
  grantId: string;
  workspaceId: string;
  credentialId: string;
  clientId: string;
  clientName: string;
  userId: string;
  scopes: Scope[];
}

/**
 * A refresh: `refreshToken` exchanged for a new access token and a new refresh token, or refused
 * (`invalid_grant`, in words), the grant ended when the token was used before or its person left.
 */
export async function refreshGrant(
  db: Kysely<Database>,
  input: { refreshToken: string; clientId: string; caller: TokenCaller; now: Date },
): Promise<IssuedTokens | TokenRefusal> {
  const { now } = input;
  const refusal = (description: string): TokenRefusal => ({ ok: false, error: 'invalid_grant', description });
  const hash = hashOf(input.refreshToken);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('oauth_refresh_tokens')
      .select(['grant_id', 'expires_at'])
      .where('token_hash', '=', hash)
      .executeTakeFirst();
    const grant = row ? await grantFacts(trx, row.grant_id) : undefined;
    if (!row || !grant) return refusal('The refresh token is not recognised.');
    const failed = async (description: string, ended: boolean) => {
      await recordAuditEvent(
        trx,
        grantEvent(grant, ended ? 'assistant.disconnected' : 'assistant.refresh_failed', input, { reason: description }),
      );
      return refusal(description);
    };
    if (grant.clientId !== input.clientId) return failed('The refresh token was issued to another client.', false);
    if (!(await credentialIsLive(trx, grant.credentialId, now))) {
      return failed('The connection was ended (disconnected, revoked, or its key deleted). Connect again.', false);
    }
    const used = await trx
      .updateTable('oauth_refresh_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) === 0) {
      const ended = await endGrantIn(trx, grant, now);
      return failed('The refresh token was already used, so it may have been stolen: the connection is ended. Connect again.', ended);
    }
    if (row.expires_at <= now) return failed('The refresh token has expired. Connect again.', false);
    const memberships = await membershipsOf(trx, grant.userId);
    if (!memberships.some((membership) => membership.workspace_id === grant.workspaceId)) {
      const ended = await endGrantIn(trx, grant, now);
      return failed('The person who allowed this connection no longer belongs to the workspace: the connection is ended.', ended);
    }
    const accessToken = await replaceCredentialToken(trx, grant.credentialId, {
      tokenExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_LIFETIME_MS),
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_MS),
    });
    if (!accessToken) return failed('The connection was ended (disconnected, revoked, or its key deleted). Connect again.', false);
    await trx.updateTable('oauth_grants').set({ refreshed_at: now }).where('id', '=', grant.grantId).execute();
    const refreshToken = await issueRefreshToken(trx, grant.grantId, now);
    return { accessToken, refreshToken, expiresInSeconds: ACCESS_TOKEN_LIFETIME_MS / 1000, scopes: grant.scopes };
  });
}

/** Ends the grant a code made, when that code is presented again (OAuth 2.1 §4.1.3); false when there was none. */
export async function endGrantOfCode(db: Kysely<Database>, input: { codeHash: string; caller: TokenCaller; now: Date }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const code = await trx.selectFrom('oauth_codes').select('grant_id').where('code_hash', '=', input.codeHash).executeTakeFirst();
    const grant = code?.grant_id ? await grantFacts(trx, code.grant_id) : undefined;
    if (!grant) return false;
    if (await endGrantIn(trx, grant, input.now)) {
      await recordAuditEvent(
        trx,
        grantEvent(grant, 'assistant.disconnected', input, { reason: 'Its authorization code was presented a second time.' }),
      );
    }
    return true;
  });
}

/**
 * Revocation (RFC 7009): the grant a refresh token or access token of `clientId` belongs to ends.
 * Answers whether one did; an unknown token, or another client's, changes nothing.
 */
export async function revokeGrantByToken(
  db: Kysely<Database>,
  input: { token: string; clientId: string; caller: TokenCaller; now: Date },
): Promise<boolean> {
  const hash = hashOf(input.token);
  return db.transaction().execute(async (trx) => {
    const byRefresh = await trx.selectFrom('oauth_refresh_tokens').select('grant_id').where('token_hash', '=', hash).executeTakeFirst();
    const credentialId = byRefresh ? undefined : await credentialIdOfToken(trx, input.token);
    const byAccess = credentialId
      ? await trx.selectFrom('oauth_grants').select('id as grant_id').where('credential_id', '=', credentialId).executeTakeFirst()
      : undefined;
    const grantId = byRefresh?.grant_id ?? byAccess?.grant_id;
    const grant = grantId ? await grantFacts(trx, grantId) : undefined;
    if (!grant || grant.clientId !== input.clientId) return false;
    if (!(await endGrantIn(trx, grant, input.now))) return false;
    await recordAuditEvent(trx, grantEvent(grant, 'assistant.disconnected', input, { reason: 'The assistant revoked its token.' }));
    return true;
  });
}

/** Removes refresh tokens past their end (a day after, so a late one is still recognised as expired). */
export async function sweepExpiredRefreshTokens(db: Kysely<Database>, before: Date): Promise<number> {
  const removed = await db.deleteFrom('oauth_refresh_tokens').where('expires_at', '<', before).executeTakeFirst();
  return Number(removed.numDeletedRows);
}

async function issueRefreshToken(db: Kysely<Database>, grantId: string, now: Date): Promise<string> {
  const token = newRefreshToken();
  await db
    .insertInto('oauth_refresh_tokens')
    .values({
      token_hash: hashOf(token),
      grant_id: grantId,
      created_at: now,
      expires_at: new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_MS),
    })
    .execute();
  return token;
}

/**
 * Ends the grant: its credential ends, and with it every refresh (refreshGrant checks it first). The
 * refresh tokens stay until their own end, so one presented later is refused in words and audited.
 * False when it had already ended.
 */
async function endGrantIn(db: Kysely<Database>, grant: GrantFacts, now: Date): Promise<boolean> {
  return endCredential(db, grant.credentialId, now);
}

async function grantFacts(db: Kysely<Database>, grantId: string): Promise<GrantFacts | undefined> {
  const row = await db.selectFrom('oauth_grants').selectAll().where('id', '=', grantId).executeTakeFirst();
  const credential = row ? await credentialSummary(db, row.credential_id) : undefined;
  if (!row || !credential) return undefined;
  return {
    grantId: row.id,
    workspaceId: row.workspace_id,
    credentialId: row.credential_id,
    clientId: row.client_id,
    clientName: credential.name,
    userId: row.user_id,
    scopes: credential.scopes,
  };
}

/** An audit entry about a grant: its object is the credential (what list_api_keys and delete_api_key name). */
function grantEvent(
  grant: { workspaceId: string; credentialId: string; clientId: string; clientName: string },
  action: 'assistant.connected' | 'assistant.refresh_failed' | 'assistant.disconnected',
  input: { caller: TokenCaller; now: Date },
  extra: { actor?: AuditEntry['actor']; scopes?: readonly Scope[]; reason?: string },
): AuditEntry {
  return {
    workspaceId: grant.workspaceId,
    at: input.now,
    actor: extra.actor ?? { kind: 'assistant', id: grant.credentialId, name: grant.clientName },
    action,
    object: { kind: 'api_key', id: grant.credentialId },
    origin: { transport: 'oauth', ...input.caller },
    details: {
      client_id: grant.clientId.slice(0, 200),
      ...(extra.scopes ? { scopes: extra.scopes.join(' ') } : {}),
      ...(extra.reason ? { reason: extra.reason } : {}),
    },
  };
}
