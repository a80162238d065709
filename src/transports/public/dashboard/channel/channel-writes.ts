/**
 * The channel page's forms: the heading (update_channel), the featured item (set_channel_featured),
 * and an item's visibility and place (set_channel_item). Each redirects back to /app/channel with a
 * notice, so the preview reloads showing the change; problems come back beside their fields.
 */
import type { FastifyInstance } from 'fastify';
import { type DashboardEnv, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { type FieldProblems, problemsOf } from '../routes/field-problems.ts';
import { channelPage } from './channel-page.ts';

type Answer = Awaited<ReturnType<PageContext['call']>>;

async function afterWrite(ctx: PageContext, answer: Answer, done: string, rename: (field: string) => string = (field) => field) {
  if (answer.ok) return ctx.redirect(`/app/channel?done=${done}`);
  if (answer.status === 400 || answer.status === 404) {
    const problems: FieldProblems = new Map();
    for (const [field, list] of problemsOf(answer)) problems.set(rename(field), list);
    return channelPage(ctx, problems, answer.status);
  }
  return ctx.refused(answer);
}

/** "video:{id}" or "route:{id}", as the forms' selects send an item. */
function itemOf(value: string | undefined): { kind: string; id: string } | undefined {
  const [kind, id] = (value ?? '').split(':');
  return kind && id ? { kind, id } : undefined;
}

export function registerChannelWrites(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardPost(scope, env, '/app/channel/heading', async (ctx) => {
    // An empty field is "none" (null): the page then shows the workspace's name, or no dek.
    const text = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value);
    return afterWrite(ctx, await ctx.call('update_channel', { headline: text(ctx.form.headline), dek: text(ctx.form.dek) }), 'heading');
  });
  dashboardPost(scope, env, '/app/channel/featured', async (ctx) => {
    const item = itemOf(ctx.form.featured);
    const input = !item ? { video_id: null } : item.kind === 'route' ? { route_id: item.id } : { video_id: item.id };
    return afterWrite(ctx, await ctx.call('set_channel_featured', input), 'featured', () => 'featured');
  });
  dashboardPost(scope, env, '/app/channel/items', async (ctx) => {
    const item = itemOf(ctx.form.item) ?? { kind: ctx.form.kind ?? '', id: ctx.form.id ?? '' };
    const visible = ctx.form.visible === 'true';
    const position = ctx.form.position === undefined ? undefined : Number(ctx.form.position);
    const answer = await ctx.call('set_channel_item', {
      id: item.id,
      kind: item.kind,
      visible,
      ...(position === undefined || !Number.isInteger(position) || position < 0 ? {} : { position }),
    });
    const done = ctx.form.done === 'added' || ctx.form.done === 'moved' ? ctx.form.done : visible ? 'shown' : 'hidden';
    return afterWrite(ctx, answer, done, () => 'item');
  });
}
