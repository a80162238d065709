/**
 * remove_member: takes a person out of the workspace and ends their sessions at once (or withdraws an
 * open invitation). Keys they minted stop working with them (they act with their member's role). The
 * last owner cannot be removed (409).
 */
import { Type } from 'typebox';
import { AppError } from '../../../core/errors.ts';
import { defineOperation } from '../../../core/operation.ts';
import { mayGrant } from '../../../core/roles.ts';
import { ResourceId, Timestamp } from '../../../core/schemas.ts';
import { findOpenInvitation, revokeInvitation } from '../invitations/invitations.queries.ts';
import { invitedMemberOf, Member, memberOf } from '../members/member.schemas.ts';
import { removeMembership } from '../members/members.queries.ts';
import { endUserSessions } from '../sessions/sessions.queries.ts';

export const removeMember = defineOperation({
  name: 'remove_member',
  summary: 'Remove a member or withdraw an invitation',
  description:
    'Removes a person from the workspace: their sessions end at once, and the API keys they minted stop working. ' +
    'For an open invitation, withdraws it (its link stops working). Nobody may remove a member above their own ' +
    'role (403); the last owner cannot be removed (409).',
  method: 'DELETE',
  path: '/members/{member_id}',
  group: 'Members',
  scope: 'workspace:manage',
  write: true,
  destructive: true,
  errors: ['not_found', 'conflict'],
  input: Type.Object({ member_id: ResourceId('member', 'The member or invitation, from list_members.') }, { additionalProperties: false }),
  output: Type.Object(
    { ...Member.properties, removed: Type.Literal(true), removed_at: Timestamp('When they were removed.') },
    { additionalProperties: false },
  ),
  example: { member_id: '0b7f3c2e-6c1d-4d57-9f0e-5a8b2c4d6e10' },
  async handler(ctx, input) {
    const manager = { role: ctx.principal.role, userId: ctx.principal.userId };
    const removed = { removed: true as const, removed_at: ctx.now.toISOString() };
    const invitation = await findOpenInvitation(ctx.db, ctx.workspaceId, input.member_id, ctx.now);
    if (invitation) {
      if (!mayGrant(manager.role, invitation.role)) {
        throw new AppError('forbidden', `You act as ${manager.role}: nobody may withdraw an invitation above their own role.`);
      }
      await revokeInvitation(ctx.db, invitation.id, ctx.now);
      return { ...invitedMemberOf(invitation), ...removed };
    }
    const member = await removeMembership(ctx.db, ctx.workspaceId, input.member_id, manager);
    // DESIGN §10: removal ends the person's sessions everywhere, at once.
    await endUserSessions(ctx.db, member.user_id, ctx.now);
    return { ...memberOf(member), ...removed };
  },
});
