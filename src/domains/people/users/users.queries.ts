/** User rows: one per person, found by their (lower-cased) email. */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database, UserRow } from '../../../db/tables/index.ts';

/** How an address is compared and stored: trimmed and lower-cased, so "Ada@Example.com" is ada@example.com's account. */
export function canonicalEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', canonicalEmail(email)).executeTakeFirst();
}

/**
 * The account an address belongs to, with the address held until the caller's transaction ends.
 * Whoever is about to give an address to an account (a new account, an email change) asks here, so two
 * doing it at once cannot both find the address free: the second waits, then finds it taken, instead
 * of meeting the unique index (a 500). Only inside a transaction.
 */
export async function findUserByEmailHeld(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  await sql`select pg_advisory_xact_lock(hashtext('users.email'), hashtext(${canonicalEmail(email)}))`.execute(db);
  return findUserByEmail(db, email);
}

export async function findUser(db: Kysely<Database>, userId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export async function insertUser(
  db: Kysely<Database>,
  user: { email: string; name: string; passwordHash: string | null; now: Date },
): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({
      id: randomUUID(),
      email: canonicalEmail(user.email),
      name: user.name,
      password_hash: user.passwordHash,
      password_changed_at: user.passwordHash ? user.now : null,
      created_at: user.now,
      updated_at: user.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function setPassword(db: Kysely<Database>, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export async function renameUser(db: Kysely<Database>, userId: string, name: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ name, updated_at: now }).where('id', '=', userId).execute();
}
