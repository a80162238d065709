/**
 * How a member looks to callers: a person in the workspace, or an invitation not yet accepted (its
 * `member_id` is the invitation's, so update_member changes the role it will give and remove_member
 * withdraws it).
 */
import { type Static, Type } from 'typebox';
import { ROLES } from '../../../core/roles.ts';
import { Id, Nullable, StringEnum, Timestamp } from '../../../core/schemas.ts';
import type { InvitationRow } from '../../../db/tables/index.ts';
import type { MemberWithPerson } from './members.queries.ts';

export const RoleSchema = StringEnum(ROLES, {
  description:
    'owner and admin: everything, including members, keys, webhooks, deleting and revealing personal data; ' +
    'member: reads and writes (the write tier); viewer: reads only (the read tier).',
});

export const Member = Type.Object(
  {
    member_id: Id('The membership, or the open invitation, for update_member and remove_member.'),
    status: StringEnum(['active', 'invited'] as const, { description: 'active: a member; invited: an invitation not yet accepted.' }),
    user_id: Nullable(Id('The person’s user id; null while invited.')),
    email: Type.String(),
    name: Nullable(Type.String({ description: 'The person’s name; null while invited.' })),
    role: RoleSchema,
    created_at: Timestamp('When they joined, or were invited.'),
    expires_at: Nullable(Timestamp('When an invitation’s link stops working; null for members.')),
  },
  { additionalProperties: false },
);
export type Member = Static<typeof Member>;

export function memberOf(row: MemberWithPerson): Member {
  return {
    member_id: row.id,
    status: 'active',
    user_id: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role,
    created_at: row.created_at.toISOString(),
    expires_at: null,
  };
}

export function invitedMemberOf(row: InvitationRow): Member {
  return {
    member_id: row.id,
    status: 'invited',
    user_id: null,
    email: row.email ?? '',
    name: null,
    role: row.role,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  };
}
