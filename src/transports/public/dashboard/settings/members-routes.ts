/**
 * The Members tab: GET /app/settings/members (list_members), POST …/invite (invite_member),
 * POST …/{member_id}/role (update_member) and POST …/{member_id}/remove (remove_member, confirmed in
 * a dialog). A refusal (the last owner, a role above one's own) comes back on the page in the
 * operation's own words. Only owners and admins hold workspace:manage; list_members refuses others.
 */
import type { FastifyInstance } from 'fastify';
import { type Answer, type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { problemsOf } from './form-fields.ts';
import { isRole, type MemberRow, type MembersView, membersContent } from './members-view.ts';
import { doneNotice, settingsPage } from './settings-frame.ts';

const PAGE = '/app/settings/members';
const NOTICES = {
  invited: 'Invitation sent.',
  role: 'Role changed. Their next request already acts with it.',
  removed: 'Removed. They were signed out everywhere.',
  withdrawn: 'Invitation withdrawn. Its link no longer works.',
};

export function registerMembersSettings(scope: FastifyInstance, env: DashboardEnv): void {
  async function render(ctx: PageContext, options: { invite?: Partial<MembersView['invite']>; alert?: string; status?: number } = {}) {
    const [members, workspace] = await Promise.all([
      ctx.call<{ members: MemberRow[] }>('list_members', {}),
      ctx.call<{ settings: { timezone: string } }>('get_workspace', {}),
    ]);
    if (!members.ok) return ctx.refused(members);
    const actor = ctx.principal.role;
    const view: MembersView = {
      csrf: ctx.csrf,
      actor,
      actorUserId: ctx.principal.userId ?? '',
      rows: members.body.members,
      timeZone: workspace.ok ? workspace.body.settings.timezone : 'UTC',
      invite: { email: '', role: 'member', problems: {}, ...options.invite },
    };
    return settingsPage(ctx, 'members', 'Members', membersContent(view), {
      status: options.status,
      alert: options.alert,
      notice: doneNotice(ctx, NOTICES),
    });
  }

  /** A refusal shown on the page in the operation's words (409 for the last owner, 403 above one's role). */
  function refusedOnPage(ctx: PageContext, answer: Answer<unknown> & { ok: false }) {
    if (answer.status === 409 || answer.status === 403 || answer.status === 404) {
      return render(ctx, { alert: answer.error.message, status: answer.status });
    }
    return ctx.refused(answer);
  }

  dashboardGet(scope, env, PAGE, (ctx) => render(ctx));

  dashboardPost(scope, env, `${PAGE}/invite`, async (ctx) => {
    const email = (ctx.form.email ?? '').trim();
    const role = isRole(ctx.form.role) ? ctx.form.role : 'member';
    const answer = await ctx.call('invite_member', { email, role });
    if (answer.ok) return ctx.redirect(`${PAGE}?done=invited`);
    if (answer.status === 400)
      return render(ctx, { invite: { email, role, problems: problemsOf(answer, ['email', 'role']) }, status: 400 });
    // Already a member (409) belongs next to the address typed.
    if (answer.status === 409) return render(ctx, { invite: { email, role, problems: { email: answer.error.message } }, status: 409 });
    return refusedOnPage(ctx, answer);
  });

  dashboardPost(scope, env, `${PAGE}/:member_id/role`, async (ctx) => {
    const memberId = (ctx.request.params as { member_id: string }).member_id;
    const answer = await ctx.call('update_member', { member_id: memberId, role: ctx.form.role ?? '' });
    if (answer.ok) return ctx.redirect(`${PAGE}?done=role`);
    return refusedOnPage(ctx, answer);
  });

  dashboardPost(scope, env, `${PAGE}/:member_id/remove`, async (ctx) => {
    const memberId = (ctx.request.params as { member_id: string }).member_id;
    const answer = await ctx.call<{ status: string }>('remove_member', { member_id: memberId });
    if (answer.ok) return ctx.redirect(`${PAGE}?done=${answer.body.status === 'invited' ? 'withdrawn' : 'removed'}`);
    return refusedOnPage(ctx, answer);
  });
}
