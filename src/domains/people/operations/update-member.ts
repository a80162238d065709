/**
 * update_member: changes a member's role (or the role an open invitation will give). Nobody grants a
 * role above their own or changes someone above them; the last owner cannot be demoted (409).
 */
import { Type } from 'typebox';
import { AppError } from '../../../core/errors.ts';
import { defineOperation } from '../../../core/operation.ts';
import { mayGrant } from '../../../core/roles.ts';
import { ResourceId } from '../../../core/schemas.ts';
import { changeInvitationRole, findOpenInvitation } from '../invitations/invitations.queries.ts';
import { invitedMemberOf, Member, memberOf, RoleSchema } from '../members/member.schemas.ts';
import { changeMemberRole } from '../members/members.queries.ts';

export const updateMember = defineOperation({
  name: 'update_member',
  summary: 'Change a member’s role',
  description:
    'Changes the role of a member, or of an open invitation (the role it will give). Nobody may grant a role above ' +
    'their own or change a member above them (403). The workspace always keeps an owner: demoting the last one is ' +
    'refused (409); make someone else an owner first. The member’s next request already acts with the new role.',
  method: 'PATCH',
  path: '/members/{member_id}',
  group: 'Members',
  scope: 'workspace:manage',
  write: true,
  errors: ['not_found', 'conflict'],
  input: Type.Object(
    {
      member_id: ResourceId('member', 'The member or invitation, from list_members.'),
      role: RoleSchema,
    },
    { additionalProperties: false },
  ),
  output: Member,
  example: { member_id: '0b7f3c2e-6c1d-4d57-9f0e-5a8b2c4d6e10', role: 'viewer' },
  async handler(ctx, input) {
    const manager = { role: ctx.principal.role, userId: ctx.principal.userId };
    const invitation = await findOpenInvitation(ctx.db, ctx.workspaceId, input.member_id, ctx.now);
    if (invitation) {
      if (!mayGrant(manager.role, invitation.role) || !mayGrant(manager.role, input.role)) {
        throw new AppError('forbidden', `You act as ${manager.role}: nobody grants a role above their own.`, {
          your_role: manager.role,
          requested_role: input.role,
        });
      }
      return invitedMemberOf(await changeInvitationRole(ctx.db, invitation.id, input.role));
    }
    return memberOf(await changeMemberRole(ctx.db, ctx.workspaceId, input.member_id, input.role, manager, ctx.now));
  },
});
