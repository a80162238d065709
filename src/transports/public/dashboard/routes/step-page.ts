/**
 * /app/routes/{route_id}/steps/{step_id}: the form that wires one step (add_route_branches), with the
 * graph beside it so a person sees what they are changing. Sent with problems, it comes back with
 * every value kept and each of the API's problems beside the field that caused it.
 */
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { type FieldProblems, otherProblems, problemsOf, problemsSummary } from './field-problems.ts';
import { routeGraph } from './route-graph-svg.ts';
import type { EventTypeOption, RouteDetail, VideoOption } from './route-types.ts';
import { branchesOf, problemsByFormField, type StepFormValues, stepChoicesForm, valuesOfForm, valuesOfStep } from './step-choices-form.ts';

type Params = { route_id: string; step_id: string };

const FORM_FIELD = /^(question|ask_at_second|branches|(label|target|to_step|to_video|url|event_type)_\d)$/;

async function stepPage(ctx: PageContext, values?: StepFormValues, problems: FieldProblems = new Map(), status = 200) {
  const { route_id: routeId, step_id: stepId } = ctx.request.params as Params;
  const [answer, videos, eventTypes] = await Promise.all([
    ctx.call<RouteDetail>('get_route', { route_id: routeId }),
    ctx.call<{ videos: VideoOption[] }>('list_videos', { status: 'ready', sort: 'title', limit: 100 }),
    ctx.call<{ event_types: EventTypeOption[] }>('list_event_types', { active: true, limit: 100 }),
  ]);
  if (!answer.ok)
    return answer.status === 404 || answer.status === 400
      ? ctx.notFound('No such route', 'It may have been deleted.')
      : ctx.refused(answer);
  const route = answer.body;
  const index = route.steps.findIndex((step) => step.step_id === stepId.toLowerCase());
  const step = route.steps[index];
  if (!step) return ctx.notFound('No such step', 'The route has no such step any more.');
  const content =
    `<p class="crumbs"><a href="/app/routes">Routes</a> / <a href="/app/routes/${escapeHtml(route.route_id)}">${escapeHtml(route.name)}</a></p>` +
    `<h1>Step ${index + 1}: ${escapeHtml(step.video.title)}</h1>` +
    '<p class="lede">What the viewer is asked when this video ends, and where each answer leads.</p>' +
    problemsSummary(problems) +
    otherProblems(problems, (field) => FORM_FIELD.test(field)) +
    '<div class="step-layout">' +
    `<section aria-labelledby="choices-heading"><h2 id="choices-heading" class="visually-hidden">Question and choices</h2>${stepChoicesForm(
      ctx.csrf,
      route,
      step,
      values ?? valuesOfStep(step),
      videos.ok ? videos.body.videos : [],
      eventTypes.ok ? eventTypes.body.event_types : [],
      problems,
    )}</section>` +
    `<section aria-labelledby="now-heading" class="step-graph"><h2 id="now-heading">The route now</h2>${routeGraph(route, 'step-graph')}</section>` +
    '</div>';
  return ctx.page(`Step ${index + 1} of ${route.name}`, content, { status, scripts: ['routes-editor.js'] });
}

export function registerStepPage(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/routes/:route_id/steps/:step_id', async (ctx) => {
    if (!ctx.may('routes:write')) {
      const { route_id: routeId } = ctx.request.params as Params;
      return ctx.redirect(`/app/routes/${encodeURIComponent(routeId)}`);
    }
    return stepPage(ctx);
  });
  dashboardPost(scope, env, '/app/routes/:route_id/steps/:step_id', async (ctx) => {
    const { route_id: routeId, step_id: stepId } = ctx.request.params as Params;
    const values = valuesOfForm(ctx.form);
    const { input, rowOfBranch } = branchesOf(values);
    const saved = await ctx.call<RouteDetail>('add_route_branches', { route_id: routeId, from_step_id: stepId, ...input });
    if (saved.ok) return ctx.redirect(`/app/routes/${encodeURIComponent(routeId)}?done=wired#step-${encodeURIComponent(stepId)}`);
    if (saved.status === 400 || (saved.status === 404 && saved.error.details)) {
      return stepPage(ctx, values, problemsByFormField(problemsOf(saved), rowOfBranch), saved.status);
    }
    return ctx.refused(saved);
  });
}
