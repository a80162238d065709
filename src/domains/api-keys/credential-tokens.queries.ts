/**
 * What the assistants area does to the credential behind a connected assistant (its grant's access
 * token): give it a new token when the assistant refreshes (the previous token stops at once), and
 * end it when the grant ends. The catalog's delete_api_key, with its rules, is the people's way.
 */
import type { Kysely } from 'kysely';
import type { Scope } from '../../core/scopes.ts';
import { generateToken, hashToken } from '../../core/secrets/tokens.ts';
import type { Database } from '../../db/tables/index.ts';

/**
 * A new token for a live credential, ending at `tokenExpiresAt`, the credential itself moved on to
 * `expiresAt`; undefined when it was revoked (or deleted) meanwhile.
 */
export async function replaceCredentialToken(
  db: Kysely<Database>,
  credentialId: string,
  ends: { tokenExpiresAt: Date; expiresAt: Date },
): Promise<string | undefined> {
  const { token, prefix, hash } = generateToken('assistant');
  const replaced = await db
    .updateTable('credentials')
    .set({ token_hash: hash, prefix, token_expires_at: ends.tokenExpiresAt, expires_at: ends.expiresAt })
    .where('id', '=', credentialId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return replaced ? token : undefined;
}

/** Ends a credential now; false when it had already ended. */
export async function endCredential(db: Kysely<Database>, credentialId: string, now: Date): Promise<boolean> {
  const ended = await db
    .updateTable('credentials')
    .set({ revoked_at: now })
    .where('id', '=', credentialId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(ended.numUpdatedRows) > 0;
}

/** Whether a credential is live at `now`: not revoked, not past its own end. */
export async function credentialIsLive(db: Kysely<Database>, credentialId: string, now: Date): Promise<boolean> {
  const row = await db.selectFrom('credentials').select(['revoked_at', 'expires_at']).where('id', '=', credentialId).executeTakeFirst();
  return !!row && !row.revoked_at && (!row.expires_at || row.expires_at > now);
}

/** A credential's name and scopes (a connected assistant's: the client's name, what the person allowed). */
export async function credentialSummary(
  db: Kysely<Database>,
  credentialId: string,
): Promise<{ name: string; scopes: Scope[] } | undefined> {
  const row = await db.selectFrom('credentials').select(['name', 'scopes']).where('id', '=', credentialId).executeTakeFirst();
  return row ? { name: row.name, scopes: row.scopes as Scope[] } : undefined;
}

/** The id of the credential whose token this is, if any (revocation by an access token). */
export async function credentialIdOfToken(db: Kysely<Database>, token: string): Promise<string | undefined> {
  const row = await db.selectFrom('credentials').select('id').where('token_hash', '=', hashToken(token)).executeTakeFirst();
  return row?.id;
}
