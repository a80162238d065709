/**
 * invite_member: emails a one-time link (7 days) that makes its holder a member with `role`, creating
 * their account if they have none. Nobody invites above their own role. Inviting an address again
 * replaces its earlier link.
 */
import { Type } from 'typebox';
import { AppError } from '../../../core/errors.ts';
import { defineOperation } from '../../../core/operation.ts';
import { mayGrant } from '../../../core/roles.ts';
import { Email } from '../../../core/schemas.ts';
import { workspaceFacts } from '../../workspace/index.ts';
import { queueInvitationEmail } from '../invitations/invitation-email.ts';
import { createInvitation } from '../invitations/invitations.queries.ts';
import { invitedMemberOf, Member, RoleSchema } from '../members/member.schemas.ts';
import { listWorkspaceMembers } from '../members/members.queries.ts';
import { canonicalEmail } from '../users/users.queries.ts';

export const inviteMember = defineOperation({
  name: 'invite_member',
  summary: 'Invite someone to the workspace',
  description:
    'Emails an invitation to join the workspace with a role (default member). The link works once, for 7 days; ' +
    'accepting it creates the person’s account or adds the membership to the one they have. Nobody may invite ' +
    'above their own role (403). Inviting an address again replaces its earlier link; an address that is already ' +
    'a member is refused (409): change its role with update_member.',
  method: 'POST',
  path: '/members',
  group: 'Members',
  scope: 'workspace:manage',
  write: true,
  status: 201,
  errors: ['conflict'],
  input: Type.Object(
    {
      email: Email('The address to send the invitation to.'),
      role: Type.Optional(RoleSchema),
    },
    { additionalProperties: false },
  ),
  output: Member,
  example: { email: 'grace@example.com', role: 'member' },
  async handler(ctx, input) {
    const role = input.role ?? 'member';
    if (!mayGrant(ctx.principal.role, role)) {
      throw new AppError(
        'forbidden',
        `You act as ${ctx.principal.role}, so you cannot invite anyone as ${role}: nobody grants a role above their own.`,
        {
          your_role: ctx.principal.role,
          requested_role: role,
        },
      );
    }
    const email = canonicalEmail(input.email);
    const existing = (await listWorkspaceMembers(ctx.db, ctx.workspaceId)).find((member) => member.email === email);
    if (existing) {
      throw new AppError(
        'conflict',
        `${email} is already a member of this workspace (${existing.role}). Change their role with update_member.`,
        {
          member_id: existing.id,
        },
      );
    }
    const { invitation, secret } = await createInvitation(ctx.db, {
      workspaceId: ctx.workspaceId,
      email,
      role,
      invitedByUser: ctx.principal.userId,
      invitedByCredential: ctx.principal.kind === 'user' ? null : ctx.principal.credentialId,
      now: ctx.now,
    });
    const facts = await workspaceFacts(ctx.db, ctx.workspaceId);
    await queueInvitationEmail(
      ctx.db,
      {
        workspaceId: ctx.workspaceId,
        workspaceName: facts?.name ?? 'Cuepoint',
        email,
        role,
        inviterName: ctx.principal.kind === 'user' ? ctx.principal.name : null,
        url: ctx.links.invitationUrl(secret),
        expiresAt: invitation.expires_at,
      },
      ctx.now,
    );
    return invitedMemberOf(invitation);
  },
});
