/**
 * Server-side sessions (DESIGN §10): a row per signed-in browser, found by the SHA-256 of the cookie's
 * secret, ended server-side. A session ends after 7 idle days or 30 days in all, at sign-out, and
 * everywhere at once when the password changes or the person is removed from the workspace they are in.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database, MemberRole, SessionRow } from '../../../db/tables/index.ts';
import { workspaceSettings } from '../../workspace/index.ts';
import { ABSOLUTE_LIFETIME_MS, IDLE_LIFETIME_MS, LAST_SEEN_RESOLUTION_MS } from './session-lifetimes.ts';
import { hashSecret, newSecret } from './session-tokens.ts';

export interface SessionStart {
  userId: string;
  workspaceId: string | null;
  address: string | null;
  userAgent: string | null;
  now: Date;
}

/** A new session; its secret goes into the cookie and is never stored. */
export async function startSession(db: Kysely<Database>, start: SessionStart): Promise<{ session: SessionRow; secret: string }> {
  const { secret, hash } = newSecret();
  const session = await db
    .insertInto('sessions')
    .values({
      id: randomUUID(),
      token_hash: hash,
      user_id: start.userId,
      workspace_id: start.workspaceId,
      created_at: start.now,
      last_seen_at: start.now,
      expires_at: new Date(start.now.getTime() + ABSOLUTE_LIFETIME_MS),
      address: start.address?.slice(0, 100) ?? null,
      user_agent: start.userAgent?.slice(0, 300) ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { session, secret };
}

/** A live session, the person, and the workspace they work in with their role there (null: no membership). */
export interface SignedIn {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  workspace: { id: string; role: MemberRole; plan: 'free' | 'pro' | 'business'; maskPii: boolean } | null;
}

/**
 * The live session a cookie's secret names, or undefined (unknown, ended, idle too long, past its
 * absolute end). Its last_seen_at moves forward at most once a minute. When the person is no longer a
 * member of the workspace the session was in, it falls back to their oldest membership.
 */
export async function liveSession(db: Kysely<Database>, secret: string, now: Date): Promise<SignedIn | undefined> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.user_id', 's.workspace_id', 's.last_seen_at', 's.expires_at', 's.ended_at', 'u.email', 'u.name'])
    .where('s.token_hash', '=', hashSecret(secret))
    .executeTakeFirst();
  if (!row || row.ended_at) return undefined;
  if (row.expires_at.getTime() <= now.getTime() || row.last_seen_at.getTime() + IDLE_LIFETIME_MS <= now.getTime()) return undefined;
  if (now.getTime() - row.last_seen_at.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', row.id).execute();
  }
  return {
    sessionId: row.id,
    userId: row.user_id,
    email: row.email,
    name: row.name,
    workspace: await workspaceOf(db, row.user_id, row.workspace_id),
  };
}

async function workspaceOf(db: Kysely<Database>, userId: string, preferred: string | null): Promise<SignedIn['workspace']> {
  const rows = await db
    .selectFrom('members as m')
    .innerJoin(workspaceSettings(db).as('w'), 'w.id', 'm.workspace_id')
    .select(['m.workspace_id', 'm.role', 'w.plan', 'w.mask_pii'])
    .where('m.user_id', '=', userId)
    // The preferred workspace first, then the oldest membership.
    .orderBy(sql`m.workspace_id = ${preferred}`, 'desc')
    .orderBy('m.created_at')
    .limit(1)
    .execute();
  const row = rows[0];
  return row ? { id: row.workspace_id, role: row.role, plan: row.plan, maskPii: row.mask_pii } : null;
}

export async function endSession(db: Kysely<Database>, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ ended_at: now }).where('id', '=', sessionId).where('ended_at', 'is', null).execute();
}

/** Ends every live session of a person (but `except`, the one asking, when given); how many ended. */
export async function endUserSessions(db: Kysely<Database>, userId: string, now: Date, except?: string): Promise<number> {
  let query = db.updateTable('sessions').set({ ended_at: now }).where('user_id', '=', userId).where('ended_at', 'is', null);
  if (except) query = query.where('id', '!=', except);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Moves a session to another of the person's workspaces; false when they are not a member of it. */
export async function switchWorkspace(
  db: Kysely<Database>,
  session: { id: string; userId: string },
  workspaceId: string,
): Promise<boolean> {
  const member = await db
    .selectFrom('members')
    .select('id')
    .where('user_id', '=', session.userId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  if (!member) return false;
  await db.updateTable('sessions').set({ workspace_id: workspaceId }).where('id', '=', session.id).execute();
  return true;
}

/** The person's live sessions, most recently used first (the account page lists them). */
export async function listUserSessions(db: Kysely<Database>, userId: string, now: Date): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', new Date(now.getTime() - IDLE_LIFETIME_MS))
    .orderBy('last_seen_at', 'desc')
    .limit(100)
    .execute();
}
