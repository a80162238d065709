/**
 * Memberships: who belongs to a workspace and with which role. Every change that could leave a
 * workspace without an owner locks the workspace row first (workspace's lockWorkspace), so two
 * demotions of its last two owners at once run one after the other and the second is refused.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError } from '../../../core/errors.ts';
import { mayGrant, type Role } from '../../../core/roles.ts';
import type { Database, MemberRole, MemberRow } from '../../../db/tables/index.ts';
import { lockWorkspace } from '../../workspace/index.ts';

export interface MemberWithPerson extends MemberRow {
  email: string;
  name: string;
}

export async function listWorkspaceMembers(db: Kysely<Database>, workspaceId: string): Promise<MemberWithPerson[]> {
  return db
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('m')
    .select(['u.email', 'u.name'])
    .where('m.workspace_id', '=', workspaceId)
    .orderBy('m.created_at')
    .orderBy('m.id')
    .execute();
}

export async function findMember(db: Kysely<Database>, workspaceId: string, memberId: string): Promise<MemberWithPerson | undefined> {
  return db
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('m')
    .select(['u.email', 'u.name'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.id', '=', memberId)
    .executeTakeFirst();
}

export async function membershipOf(db: Kysely<Database>, workspaceId: string, userId: string): Promise<MemberRow | undefined> {
  return db.selectFrom('members').selectAll().where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
}

/** The workspaces a person belongs to, with their names, oldest membership first (the workspace switcher). */
export async function membershipsOf(db: Kysely<Database>, userId: string): Promise<MemberRow[]> {
  return db.selectFrom('members').selectAll().where('user_id', '=', userId).orderBy('created_at').limit(200).execute();
}

/** Adds the person to the workspace with `role`, or, when already a member, keeps the higher of the two roles. */
export async function addMember(
  db: Kysely<Database>,
  workspaceId: string,
  userId: string,
  role: MemberRole,
  now: Date,
): Promise<MemberRow> {
  const existing = await membershipOf(db, workspaceId, userId);
  if (existing) {
    if (mayGrant(existing.role, role)) return existing;
    return db.updateTable('members').set({ role, updated_at: now }).where('id', '=', existing.id).returningAll().executeTakeFirstOrThrow();
  }
  return db
    .insertInto('members')
    .values({ id: randomUUID(), workspace_id: workspaceId, user_id: userId, role, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function ownerCount(db: Kysely<Database>, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Who is changing a membership: their role, and which user they are (null for a command-line key). */
export interface MemberManager {
  role: Role;
  userId: string | null;
}

function refuseAbove(manager: MemberManager, target: MemberRow, verb: string): void {
  if (!mayGrant(manager.role, target.role)) {
    throw new AppError(
      'forbidden',
      `You act as ${article(manager.role)} and this member is ${article(target.role)}: nobody may ${verb} a member above their own role.`,
      { your_role: manager.role, member_role: target.role },
    );
  }
}

function article(role: Role): string {
  return `${role === 'owner' || role === 'admin' ? 'an' : 'a'} ${role}`;
}

function lastOwner(action: string): AppError {
  return new AppError(
    'conflict',
    `This is the workspace's last owner: ${action} would leave nobody who can manage members and billing. ` +
      'Make another member an owner first (update_member with role "owner"), then try again.',
    { reason: 'last_owner' },
  );
}

export async function changeMemberRole(
  db: Kysely<Database>,
  workspaceId: string,
  memberId: string,
  role: MemberRole,
  manager: MemberManager,
  now: Date,
): Promise<MemberWithPerson> {
  await lockWorkspace(db, workspaceId);
  const target = await findMember(db, workspaceId, memberId);
  if (!target) throw AppError.notFound('member', memberId);
  refuseAbove(manager, target, 'change the role of');
  if (!mayGrant(manager.role, role)) {
    throw new AppError(
      'forbidden',
      `You act as ${article(manager.role)}, so you cannot make anyone ${article(role)}: nobody grants a role above their own.`,
      {
        your_role: manager.role,
        requested_role: role,
      },
    );
  }
  if (target.role === 'owner' && role !== 'owner' && (await ownerCount(db, workspaceId)) <= 1) throw lastOwner('demoting them');
  const updated = await db
    .updateTable('members')
    .set({ role, updated_at: now })
    .where('id', '=', memberId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...updated, email: target.email, name: target.name };
}

/** Removes the membership; the caller ends the person's sessions in the same transaction. */
export async function removeMembership(
  db: Kysely<Database>,
  workspaceId: string,
  memberId: string,
  manager: MemberManager,
): Promise<MemberWithPerson> {
  await lockWorkspace(db, workspaceId);
  const target = await findMember(db, workspaceId, memberId);
  if (!target) throw AppError.notFound('member', memberId);
  refuseAbove(manager, target, 'remove');
  if (target.role === 'owner' && (await ownerCount(db, workspaceId)) <= 1) throw lastOwner('removing them');
  await db.deleteFrom('members').where('id', '=', memberId).execute();
  return target;
}
