/**
 * The Stripe connection's state, from get_workspace: whether a webhook signing secret is set, and the
 * address to give Stripe. Owners and admins (workspace:manage) may set or remove the secret here
 * (update_workspace); it is never shown again once set. Others see the state only.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { csrfField, type DashboardEnv, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { type FormProblems, fieldError, formAlert, invalidAttributes, problemsOf } from '../leads/form-problems.ts';
import type { WorkspaceView } from '../leads/lead-words.ts';

export function stripeSection(ctx: PageContext, workspace: WorkspaceView | null, problems: FormProblems = {}): string {
  if (!workspace) return '';
  const { stripe_webhook_configured: connected, stripe_webhook_url: url } = workspace.settings;
  const manage = ctx.may('workspace:manage');
  const state = connected
    ? '<p class="stripe-state"><span class="badge on">Connected</span> Payments and refunds from Stripe arrive in the ledger as they happen.</p>'
    : '<p class="stripe-state"><span class="badge">Not connected</span> Connect Stripe to record payments and refunds without writing code.</p>';
  const steps =
    '<ol class="stripe-steps">' +
    `<li>In Stripe, open Developers → Webhooks and add an endpoint with this URL:<pre class="code stripe-url">${escapeHtml(url)}</pre></li>` +
    '<li>Choose the events <code>checkout.session.completed</code>, <code>payment_intent.succeeded</code> and <code>charge.refunded</code>.</li>' +
    `<li>Copy the endpoint’s signing secret (<code>whsec_…</code>)${manage ? ' and save it below.' : ' and give it to an owner or admin to save here.'}</li>` +
    '</ol>';
  const form = manage
    ? `<form class="fields stripe-form" method="post" action="/app/revenue/stripe">${csrfField(ctx.csrf)}${formAlert(problems)}` +
      `<div class="field-box"><label for="stripe-secret">Signing secret</label><input id="stripe-secret" type="password" name="stripe_webhook_secret" autocomplete="off" spellcheck="false" placeholder="whsec_…"${invalidAttributes(
        problems,
        'stripe_webhook_secret',
        'stripe-secret',
      )}>${fieldError(problems, 'stripe_webhook_secret', 'stripe-secret', 'The signing secret')}</div>` +
      `<div class="buttons"><button type="submit" class="primary" name="intent" value="save">${connected ? 'Replace secret' : 'Save secret'}</button>` +
      (connected ? '<button type="submit" class="quiet-danger" name="intent" value="remove">Disconnect Stripe</button>' : '') +
      '</div></form>'
    : '';
  return `<section class="revenue-stripe" id="stripe" aria-labelledby="stripe-heading"><h2 id="stripe-heading">Stripe</h2>${state}${steps}${form}</section>`;
}

export function registerStripeForm(
  scope: FastifyInstance,
  env: DashboardEnv,
  renderRevenue: (ctx: PageContext, problems: FormProblems, status: number) => Promise<FastifyReply>,
): void {
  dashboardPost(scope, env, '/app/revenue/stripe', async (ctx) => {
    const remove = ctx.form.intent === 'remove';
    const answer = await ctx.call('update_workspace', {
      stripe_webhook_secret: remove ? null : (ctx.form.stripe_webhook_secret ?? '').trim(),
    });
    if (answer.ok) return ctx.redirect(`/app/revenue?done=${remove ? 'stripe-removed' : 'stripe-saved'}#stripe`);
    if (answer.status !== 400) return ctx.refused(answer);
    return renderRevenue(ctx, problemsOf(answer, ['stripe_webhook_secret']), 400);
  });
}
