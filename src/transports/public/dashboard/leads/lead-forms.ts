/**
 * The lead page's forms, each a POST from our own page with the session's CSRF token (kit), each one
 * operation: "Reveal" (reveal_lead: the page again, unmasked for this answer only), "Delete lead"
 * (erase_lead), "Add note" and "Status and tags" (update_lead). A refused note or edit comes back as
 * the page with the problem beside its field and what was typed kept; a role without the scope is
 * refused by the operation itself (the page does not offer it the form).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type Answer, type DashboardEnv, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { problemsOf } from './form-problems.ts';
import { type Revealed, renderLead } from './lead-page.ts';

const leadIdOf = (ctx: PageContext) => (ctx.request.params as { lead_id: string }).lead_id;

/** Tags as a person types them: "vip, webinar ,  q4" is three tags. */
export function tagsFrom(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
}

async function reveal(ctx: PageContext): Promise<FastifyReply> {
  const leadId = leadIdOf(ctx);
  const answer = await ctx.call<Revealed>('reveal_lead', { lead_id: leadId });
  if (answer.status === 404) return ctx.notFound('No such lead', 'It may have been deleted.');
  if (!answer.ok) return ctx.refused(answer);
  return renderLead(ctx, leadId, { revealed: answer.body });
}

async function erase(ctx: PageContext): Promise<FastifyReply> {
  const answer = await ctx.call('erase_lead', { lead_id: leadIdOf(ctx) });
  if (answer.status === 404) return ctx.notFound('No such lead', 'It may have been deleted.');
  if (!answer.ok) return ctx.refused(answer);
  return ctx.redirect('/app?deleted=lead');
}

async function addNote(ctx: PageContext): Promise<FastifyReply> {
  const leadId = leadIdOf(ctx);
  const notes = ctx.form.notes ?? '';
  const answer = await ctx.call('update_lead', { lead_id: leadId, notes });
  return afterUpdate(ctx, leadId, answer, 'notes', ['notes'], { notes }, 'note');
}

async function edit(ctx: PageContext): Promise<FastifyReply> {
  const leadId = leadIdOf(ctx);
  const values = { status: ctx.form.status ?? '', tags: ctx.form.tags ?? '' };
  const answer = await ctx.call('update_lead', { lead_id: leadId, status: values.status, tags: tagsFrom(values.tags) });
  return afterUpdate(ctx, leadId, answer, 'edit', ['status', 'tags'], values, 'saved');
}

async function afterUpdate(
  ctx: PageContext,
  leadId: string,
  answer: Answer<unknown>,
  form: 'notes' | 'edit',
  fields: string[],
  values: Record<string, string>,
  done: string,
): Promise<FastifyReply> {
  if (answer.ok) return ctx.redirect(`/app/leads/${encodeURIComponent(leadId)}?done=${done}`);
  if (answer.status === 404) return ctx.notFound('No such lead', 'It may have been deleted.');
  if (answer.status !== 400 && answer.status !== 409) return ctx.refused(answer);
  return renderLead(ctx, leadId, { form: { form, problems: problemsOf(answer, fields), values }, status: answer.status });
}

export function registerLeadForms(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardPost(scope, env, '/app/leads/:lead_id/reveal', reveal);
  dashboardPost(scope, env, '/app/leads/:lead_id/delete', erase);
  dashboardPost(scope, env, '/app/leads/:lead_id/notes', addNote);
  dashboardPost(scope, env, '/app/leads/:lead_id/edit', edit);
}
