/**
 * The Workspace tab: GET /app/settings (get_workspace: the settings, plan and usage, your access) and
 * its forms, POST /app/settings/workspace (update_workspace: name, slug, time zone, masking, guidance)
 * and POST /app/settings/workspace/stripe (the Stripe signing secret, set or removed). A person who may
 * not manage the workspace reads the same facts without a form; the server refuses their posts anyway.
 */
import type { FastifyInstance } from 'fastify';
import { type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { type Problems, problemsOf } from './form-fields.ts';
import { doneNotice, settingsPage } from './settings-frame.ts';
import {
  planAndUsage,
  valuesOf,
  type WorkspaceFacts,
  type WorkspaceFormValues,
  workspaceForm,
  workspaceReadOnly,
  yourAccess,
} from './workspace-view.ts';

const NOTICES = {
  saved: 'Settings saved.',
  stripe: 'Stripe signing secret saved. Payments Stripe sends now count as revenue.',
  'stripe-removed': 'Stripe disconnected. Events Stripe sends are refused until a new secret is saved.',
};
const FIELDS = ['name', 'slug', 'timezone', 'mask_pii', 'assistant_guidance', 'stripe_webhook_secret'];

export function registerWorkspaceSettings(scope: FastifyInstance, env: DashboardEnv): void {
  async function render(ctx: PageContext, options: { values?: WorkspaceFormValues; problems?: Problems; status?: number } = {}) {
    const answer = await ctx.call<WorkspaceFacts>('get_workspace', {});
    if (!answer.ok) return ctx.refused(answer);
    const facts = answer.body;
    const general = ctx.may('workspace:manage')
      ? workspaceForm(ctx.csrf, options.values ?? valuesOf(facts), facts, options.problems ?? {})
      : workspaceReadOnly(facts, facts.settings.timezone);
    return settingsPage(
      ctx,
      'workspace',
      'Workspace',
      `<div class="settings-columns"><div>${general}</div><div>${planAndUsage(facts)}${yourAccess(facts)}</div></div>`,
      { status: options.status, notice: doneNotice(ctx, NOTICES) },
    );
  }

  dashboardGet(scope, env, '/app/settings', (ctx) => render(ctx));

  dashboardPost(scope, env, '/app/settings/workspace', async (ctx) => {
    const values: WorkspaceFormValues = {
      name: ctx.form.name ?? '',
      slug: (ctx.form.slug ?? '').trim(),
      timezone: ctx.form.timezone ?? '',
      mask_pii: ctx.form.mask_pii === 'true',
      assistant_guidance: ctx.form.assistant_guidance ?? '',
    };
    const answer = await ctx.call('update_workspace', { ...values });
    if (answer.ok) return ctx.redirect('/app/settings?done=saved');
    if (answer.status !== 400) return ctx.refused(answer);
    return render(ctx, { values, problems: problemsOf(answer, FIELDS), status: 400 });
  });

  dashboardPost(scope, env, '/app/settings/workspace/stripe', async (ctx) => {
    const remove = ctx.form.remove === 'true';
    const secret = (ctx.form.stripe_webhook_secret ?? '').trim();
    if (!remove && !secret) {
      return render(ctx, { problems: { stripe_webhook_secret: 'Paste the signing secret (whsec_…) from Stripe.' }, status: 400 });
    }
    const answer = await ctx.call('update_workspace', { stripe_webhook_secret: remove ? null : secret });
    if (answer.ok) return ctx.redirect(`/app/settings?done=${remove ? 'stripe-removed' : 'stripe'}`);
    if (answer.status !== 400) return ctx.refused(answer);
    return render(ctx, { problems: problemsOf(answer, FIELDS), status: 400 });
  });
}
