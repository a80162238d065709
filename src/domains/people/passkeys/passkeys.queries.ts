/**
 * A person's passkeys: the public key and signature counter of each WebAuthn credential they
 * registered, its name, and when it was last used. A credential id belongs to one passkey of one
 * person (unique in the table), whoever registers it first.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, PasskeyRow, UserRow } from '../../../db/tables/index.ts';

/** A passkey as the account page shows it (its row: the public key is not a secret). */
export type Passkey = PasskeyRow;

export async function listPasskeys(db: Kysely<Database>, userId: string): Promise<PasskeyRow[]> {
  return db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

/** The passkey with this credential id (base64url) and the person it belongs to. */
export async function findPasskeyByCredentialId(
  db: Kysely<Database>,
  credentialId: string,
): Promise<{ passkey: PasskeyRow; user: UserRow } | undefined> {
  const passkey = await db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
  if (!passkey) return undefined;
  const user = await db.selectFrom('users').selectAll().where('id', '=', passkey.user_id).executeTakeFirst();
  return user ? { passkey, user } : undefined;
}

export interface NewPasskey {
  userId: string;
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  name: string;
  now: Date;
}

/** The new passkey, or undefined when its credential id is registered already (to anyone). */
export async function insertPasskey(db: Kysely<Database>, passkey: NewPasskey): Promise<PasskeyRow | undefined> {
  return db
    .insertInto('passkeys')
    .values({
      id: randomUUID(),
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports,
      device_type: passkey.deviceType,
      backed_up: passkey.backedUp,
      name: passkey.name,
      created_at: passkey.now,
    })
    .onConflict((conflict) => conflict.column('credential_id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Renames one of the person's passkeys; undefined when they have none with this id. */
export async function renamePasskey(
  db: Kysely<Database>,
  userId: string,
  passkeyId: string,
  name: string,
): Promise<PasskeyRow | undefined> {
  return db
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', passkeyId)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

/** Removes one of the person's passkeys; undefined when they have none with this id. */
export async function removePasskey(db: Kysely<Database>, userId: string, passkeyId: string): Promise<PasskeyRow | undefined> {
  return db.deleteFrom('passkeys').where('id', '=', passkeyId).where('user_id', '=', userId).returningAll().executeTakeFirst();
}

/**
 * Records a sign-in with `passkey`: its new signature counter, backup state and last use. Only if the
 * counter is still the one the check was made against, so two sign-ins racing with one counter value
 * cannot both pass; false when it moved meanwhile.
 */
export async function recordPasskeyUse(
  db: Kysely<Database>,
  passkey: PasskeyRow,
  use: { counter: number; backedUp: boolean; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ counter: use.counter, backed_up: use.backedUp, last_used_at: use.now })
    .where('id', '=', passkey.id)
    .where('counter', '=', passkey.counter)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
