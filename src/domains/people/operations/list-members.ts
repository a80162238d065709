/** list_members: the people of the workspace and the invitations not yet accepted. Reads only. */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { listOpenInvitations } from '../invitations/invitations.queries.ts';
import { invitedMemberOf, Member, memberOf } from '../members/member.schemas.ts';
import { listWorkspaceMembers } from '../members/members.queries.ts';

export const listMembers = defineOperation({
  name: 'list_members',
  summary: 'List members and open invitations',
  description:
    'Lists the people who belong to the workspace, with their role (owner, admin, member, viewer), oldest first, then ' +
    'the invitations not yet accepted (status "invited"), each with when its link expires. Use member_id with ' +
    'update_member or remove_member.',
  method: 'GET',
  path: '/members',
  group: 'Members',
  scope: 'workspace:manage',
  write: false,
  errors: [],
  input: Type.Object({}, { additionalProperties: false }),
  output: Type.Object({ members: Type.Array(Member) }, { additionalProperties: false }),
  example: {},
  async handler(ctx) {
    const [members, invitations] = await Promise.all([
      listWorkspaceMembers(ctx.db, ctx.workspaceId),
      listOpenInvitations(ctx.db, ctx.workspaceId, ctx.now),
    ]);
    return { members: [...members.map(memberOf), ...invitations.map(invitedMemberOf)] };
  },
});
