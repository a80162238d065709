/**
 * The event type's pages and forms: new (create_event_type), one event type (get_event_type), its
 * details and its weekly hours (update_event_type). A refused form comes back with each problem next
 * to its field and the values as typed; a role without `workspace:manage` is refused by the operation
 * whatever it sends.
 */
import type { FastifyInstance } from 'fastify';
import { type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { type DetailsValues, detailsControl, detailsForm, detailsInput, NEW_TYPE_VALUES } from './event-type-form.ts';
import { eventTypePage, eventTypePath } from './event-type-page.ts';
import { type Problems, problemSummary, problemsOf } from './form-problems.ts';
import { schedulingTabs } from './scheduling-tabs.ts';
import type { EventType, FieldProblem } from './scheduling-types.ts';
import { hoursControl, rowsFromForm, weeklyHoursInput } from './weekly-hours-form.ts';

type EventTypeAnswer = Awaited<ReturnType<typeof readEventType>>;

function readEventType(ctx: PageContext, id: string) {
  return ctx.call<EventType>('get_event_type', { event_type_id: id });
}

async function newTypePage(ctx: PageContext, values: DetailsValues, problems: Problems, all: FieldProblem[], status = 200) {
  const content =
    '<p class="crumbs"><a href="/app/scheduling">← Scheduling</a></p><h1>New event type</h1>' +
    schedulingTabs('event-types') +
    '<p class="lede">A kind of call viewers can book. After creating it, set its weekly hours (Monday to Friday, 09:00–17:00 to start with).</p>' +
    '<section class="sched-card sched-narrow" aria-label="New event type">' +
    problemSummary('The event type was not created:', all) +
    detailsForm({ action: '/app/scheduling/event-types', csrf: ctx.csrf, values, problems, mode: 'create' }) +
    '</section>';
  return ctx.page('New event type', content, { status });
}

/** The operation said no: a missing event type as "not found", anything else in its own words. */
function notShown(ctx: PageContext, answer: EventTypeAnswer & { ok: false }) {
  if (answer.status === 404) return ctx.notFound('No such event type', 'This workspace has no event type with that id.');
  return ctx.refused(answer);
}

export function registerEventTypeRoutes(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/scheduling/event-types/new', async (ctx) => {
    if (!ctx.may('workspace:manage'))
      return ctx.page('Not allowed', '<h1>Not allowed</h1><p class="lede">Only owners and admins create event types.</p>', { status: 403 });
    return newTypePage(ctx, NEW_TYPE_VALUES, {}, []);
  });

  dashboardPost(scope, env, '/app/scheduling/event-types', async (ctx) => {
    const answer = await ctx.call<EventType>('create_event_type', detailsInput(ctx.form, 'create'));
    if (answer.ok) return ctx.redirect(`${eventTypePath(answer.body.event_type_id)}?done=created`);
    if (answer.status !== 400) return ctx.refused(answer);
    const { byControl, all } = problemsOf(answer, detailsControl);
    return newTypePage(ctx, { ...NEW_TYPE_VALUES, ...ctx.form }, byControl, all, 400);
  });

  dashboardGet(scope, env, '/app/scheduling/event-types/:event_type_id', async (ctx) => {
    const answer = await readEventType(ctx, (ctx.request.params as { event_type_id: string }).event_type_id);
    if (!answer.ok) return notShown(ctx, answer);
    return eventTypePage(ctx, answer.body);
  });

  dashboardPost(scope, env, '/app/scheduling/event-types/:event_type_id', async (ctx) => {
    const id = (ctx.request.params as { event_type_id: string }).event_type_id;
    const answer = await ctx.call<EventType>('update_event_type', { event_type_id: id, ...detailsInput(ctx.form, 'edit') });
    if (answer.ok) return ctx.redirect(`${eventTypePath(id)}?done=details`);
    if (answer.status !== 400) return ctx.refused(answer);
    const current = await readEventType(ctx, id);
    if (!current.ok) return notShown(ctx, current);
    const { byControl, all } = problemsOf(answer, detailsControl);
    return eventTypePage(
      ctx,
      current.body,
      { details: { values: { ...ctx.form, active: ctx.form.active ?? '' }, problems: byControl, all } },
      400,
    );
  });

  dashboardPost(scope, env, '/app/scheduling/event-types/:event_type_id/hours', async (ctx) => {
    const id = (ctx.request.params as { event_type_id: string }).event_type_id;
    const rows = rowsFromForm(ctx.form);
    const answer = await ctx.call<EventType>('update_event_type', { event_type_id: id, weekly_hours: weeklyHoursInput(rows) });
    if (answer.ok) return ctx.redirect(`${eventTypePath(id)}?done=hours`);
    if (answer.status !== 400) return ctx.refused(answer);
    const current = await readEventType(ctx, id);
    if (!current.ok) return notShown(ctx, current);
    const { byControl, all } = problemsOf(answer, hoursControl);
    return eventTypePage(ctx, current.body, { hours: { rows, problems: byControl, all } }, 400);
  });
}
