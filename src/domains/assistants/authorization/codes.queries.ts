/**
 * Authorization codes: issued when a person allows a client on the consent page, redeemed once by
 * that client at the token endpoint (OAuth 2.1 §4.1.3), within a minute, with the same redirect URI,
 * the PKCE verifier of the challenge and the same resource. Redemption marks the code first, in one
 * statement, so two redemptions racing cannot both win; whatever is wrong after that, the code is spent.
 * A second redemption of a spent code is reported as a replay, so the caller can revoke what the first
 * one gave (OAuth 2.1 §4.1.3: the code may have been stolen).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Scope } from '../../../core/scopes.ts';
import type { Database, OAuthCodesTable } from '../../../db/tables/index.ts';
import { verifierMatches } from './pkce.ts';

/** OAuth 2.1 §4.1.2 recommends at most ten minutes; an assistant redeems its code at once. */
export const CODE_LIFETIME_MS = 60_000;

/** What a person allowed: who, which workspace, which scopes, for which client and resource. */
export interface CodeGrant {
  clientId: string;
  userId: string;
  workspaceId: string;
  redirectUri: string;
  scopes: Scope[];
  codeChallenge: string;
  resource: string;
}

export interface Redemption {
  code: unknown;
  clientId: string;
  redirectUri: unknown;
  verifier: unknown;
  /** The token request's `resource`, when it sent one (RFC 8707). */
  resource: unknown;
  now: Date;
}

export type RedemptionResult =
  | { ok: true; grant: CodeGrant; codeHash: string }
  | { ok: false; description: string; replayOf?: { codeHash: string; grant: CodeGrant } };

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/** Issues a code for `grant` at `now`; answers the code, which only the redirect carries. */
export async function issueAuthorizationCode(db: Kysely<Database>, grant: CodeGrant, now: Date): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await db
    .insertInto('oauth_codes')
    .values({
      code_hash: hashCode(code),
      client_id: grant.clientId,
      user_id: grant.userId,
      workspace_id: grant.workspaceId,
      redirect_uri: grant.redirectUri,
      scopes: grant.scopes,
      code_challenge: grant.codeChallenge,
      resource: grant.resource,
      created_at: now,
      expires_at: new Date(now.getTime() + CODE_LIFETIME_MS),
    })
    .execute();
  return code;
}

/** Redeems a code (see the header); every refusal is RFC 6749's `invalid_grant`, described. */
export async function redeemAuthorizationCode(db: Kysely<Database>, redemption: Redemption): Promise<RedemptionResult> {
  const { code, now } = redemption;
  if (typeof code !== 'string' || code.length === 0 || code.length > 200)
    return { ok: false, description: 'The code is missing or malformed.' };
  const codeHash = hashCode(code);
  const spent = await db
    .updateTable('oauth_codes')
    .set({ redeemed_at: now })
    .where('code_hash', '=', codeHash)
    .where('redeemed_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!spent) {
    const known = await db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
    if (known?.redeemed_at && known.client_id === redemption.clientId) {
      return { ok: false, description: 'The code was already used.', replayOf: { codeHash, grant: grantOf(known) } };
    }
    return { ok: false, description: 'The code is not valid.' };
  }
  const grant = grantOf(spent);
  // One description for every mismatch of the client: a guesser learns nothing about whose code it is.
  if (spent.client_id !== redemption.clientId) return { ok: false, description: 'The code is not valid.' };
  if (spent.expires_at <= now) return { ok: false, description: 'The code has expired: ask the person again.' };
  // Exactly the one the authorization request named, its loopback port included (OAuth 2.1 §4.1.3).
  if (redemption.redirectUri !== spent.redirect_uri) {
    return { ok: false, description: 'redirect_uri must be the one the authorization request named.' };
  }
  if (!verifierMatches(redemption.verifier, spent.code_challenge)) {
    return { ok: false, description: "code_verifier does not match the authorization request's code_challenge." };
  }
  if (redemption.resource !== undefined && redemption.resource !== spent.resource) {
    return { ok: false, description: `resource must be ${spent.resource}, as the authorization request said.` };
  }
  return { ok: true, grant, codeHash };
}

/** Removes codes past their lifetime by `before` (redeemed or not); answers how many. */
export async function sweepExpiredCodes(db: Kysely<Database>, before: Date): Promise<number> {
  const removed = await db.deleteFrom('oauth_codes').where('expires_at', '<', before).executeTakeFirst();
  return Number(removed.numDeletedRows);
}

function grantOf(row: Selectable<OAuthCodesTable>): CodeGrant {
  return {
    clientId: row.client_id,
    userId: row.user_id,
    workspaceId: row.workspace_id,
    redirectUri: row.redirect_uri,
    scopes: row.scopes as Scope[],
    codeChallenge: row.code_challenge,
    resource: row.resource,
  };
}
