/**
 * Who is calling: resolves `Authorization: Bearer <credential>` into a principal with its workspace,
 * scopes and plan. Shared by both transports. There is no cache: a revoked or expired credential is
 * refused on the very next request, on every process. A credential that authenticates has its
 * `last_used_at` refreshed when it is over a minute old (one write a minute, not one per request).
 */
import type { CredentialLookupRow } from '../../db/client.ts';
import { AppError } from '../errors.ts';
import type { PlanName } from '../plans.ts';
import { type Role, roleScopes } from '../roles.ts';
import { isScope, type Scope } from '../scopes.ts';
import { type CredentialKind, hashToken, parseToken } from '../secrets/tokens.ts';

/** Who calls: a key, an assistant token, or a person signed in to the dashboard. */
export type PrincipalKind = CredentialKind | 'user';

export interface Principal {
  /** The credential's id; for a signed-in person, their user id. The rate limit's bucket. */
  credentialId: string;
  workspaceId: string;
  kind: PrincipalKind;
  /**
   * The role this principal acts with (DESIGN §10): a person's membership; for a key, the role of the
   * member who minted it, or owner for a key minted on the command line. Scopes never exceed it.
   */
  role: Role;
  /** The person behind the call: the signed-in user or the member who minted the key; null for a command-line key. */
  userId: string | null;
  /** How notes and the audit log name who acted: the key's name, or the person's name. */
  name: string;
  scopes: ReadonlySet<Scope>;
  /** When the credential stops working; null for never. Keys it mints cannot outlive it. */
  expiresAt: Date | null;
  plan: PlanName;
  maskPii: boolean;
}

const CHALLENGE = 'Bearer realm="cuepoint"';

function unauthorized(message: string, credentialSent: boolean): AppError {
  const challenge = credentialSent ? `${CHALLENGE}, error="invalid_token"` : CHALLENGE;
  return new AppError('unauthorized', message, undefined, { 'WWW-Authenticate': challenge });
}

export type FindCredential = (tokenHash: string) => Promise<CredentialLookupRow | undefined>;

/** Stores that a credential was used at `now` (see core/pipeline/credential-use.ts). */
export type RecordCredentialUse = (credentialId: string, now: Date) => Promise<void>;

/** `last_used_at` is kept to the minute: a credential used more often costs no more writes. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export async function authenticate(
  findCredential: FindCredential,
  authorization: string | undefined,
  now: Date,
  recordUse?: RecordCredentialUse,
  /** The resource called (RFC 8707): the MCP endpoint's URL; undefined for /v1, which no bound token reaches. */
  resource?: string,
): Promise<Principal> {
  if (!authorization) {
    throw unauthorized('Send a credential in the header Authorization: Bearer <API key or assistant token>.', false);
  }
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match) {
    throw unauthorized('The Authorization header must be "Bearer <credential>".', true);
  }
  const token = match[1] as string;
  // Malformed strings never reach the database: the prefix and checksum are checked offline.
  if (!parseToken(token)) {
    throw unauthorized('The credential is malformed: expected a cue_live_ API key or a cue_asst_ assistant token.', true);
  }
  const row = await findCredential(hashToken(token));
  if (!row || row.revoked_at) {
    throw unauthorized('The credential is not recognised or has been revoked.', true);
  }
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) {
    throw unauthorized(`The credential expired at ${row.expires_at.toISOString()}.`, true);
  }
  if (row.token_expires_at && row.token_expires_at.getTime() <= now.getTime()) {
    throw unauthorized(`The access token expired at ${row.token_expires_at.toISOString()}; use the refresh token for a new one.`, true);
  }
  if (row.resource !== null && row.resource !== resource) {
    throw unauthorized(`This token was issued for ${row.resource} and works only there.`, true);
  }
  // A key minted by a member acts with at most that member's role, and not at all once they are gone.
  const role: Role | null = row.created_by_user ? row.member_role : 'owner';
  if (!role) {
    throw unauthorized('The member who minted this credential no longer belongs to the workspace, so it no longer works.', true);
  }
  if (recordUse && (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS)) {
    await recordUse(row.id, now);
  }
  return {
    credentialId: row.id,
    workspaceId: row.workspace_id,
    kind: row.kind,
    role,
    userId: row.created_by_user,
    // Notes and status changes credit their author by this name ("API key" for a key minted without one).
    name: row.name || 'API key',
    scopes: withinRole(row.scopes, role),
    expiresAt: earlier(row.expires_at, row.token_expires_at),
    plan: row.plan,
    maskPii: row.mask_pii,
  };
}

const earlier = (a: Date | null, b: Date | null): Date | null => (a && b ? (a < b ? a : b) : (a ?? b));

/** The credential's scopes that its role also allows. */
export function withinRole(scopes: readonly string[], role: Role): ReadonlySet<Scope> {
  const allowed = new Set<string>(roleScopes(role));
  return new Set(scopes.filter((scope): scope is Scope => isScope(scope) && allowed.has(scope)));
}
