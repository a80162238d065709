/**
 * /app/routes/{route_id}: one route (get_route) with its graph drawn and its numbers on it, the
 * problems that keep it from going live, the funnel and the most common paths; for people who may
 * write routes, its name, its status (go live, pause, resume, archive) and "Add a step". A refused
 * write comes back as this page with the API's problems beside the field that sent them.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatCount, formatShare } from '../kit/formats.ts';
import { csrfField, type PageContext } from '../kit/page-route.ts';
import { type FieldProblems, fieldProblem, invalidAttributes, otherProblems } from './field-problems.ts';
import { pathsTable, reachChart } from './route-analytics.ts';
import { routeGraph } from './route-graph-svg.ts';
import { planWithoutRoutes } from './route-list-page.ts';
import { routeStepsList } from './route-steps-list.ts';
import { type RouteDetail, type RouteStatus, stepNumbers, type VideoOption } from './route-types.ts';

const NOTICES: Record<string, string> = {
  created: 'The route is created as a draft. Add its question and choices with “Edit choices”, then go live.',
  renamed: 'The route is renamed.',
  live: 'The route is live: its link plays it.',
  paused: 'The route is paused: its link says so until you resume it.',
  archived: 'The route is archived: its link answers “not available”.',
  draft: 'The route is back to a draft.',
  step: 'The step is added. Wire a choice to it so visits can reach it.',
  wired: 'The choices are saved.',
};

/** The status moves offered from each status (update_route allows any; these are the ones a person means). */
const MOVES: Record<RouteStatus, { status: RouteStatus; label: string; primary?: boolean }[]> = {
  draft: [
    { status: 'live', label: 'Go live', primary: true },
    { status: 'archived', label: 'Archive' },
  ],
  live: [
    { status: 'paused', label: 'Pause' },
    { status: 'archived', label: 'Archive' },
  ],
  paused: [
    { status: 'live', label: 'Resume', primary: true },
    { status: 'draft', label: 'Back to draft' },
    { status: 'archived', label: 'Archive' },
  ],
  archived: [{ status: 'draft', label: 'Restore as draft' }],
};

function statusControls(ctx: PageContext, route: RouteDetail): string {
  return MOVES[route.status]
    .map(
      (move) =>
        `<form class="inline" method="post" action="/app/routes/${escapeHtml(route.route_id)}/status">${csrfField(ctx.csrf)}` +
        `<input type="hidden" name="status" value="${move.status}"><button type="submit"${move.primary ? ' class="primary"' : ''}>${move.label}</button></form>`,
    )
    .join('');
}

function tiles(route: RouteDetail): string {
  const tile = (label: string, value: string) => `<div class="tile"><p class="label">${label}</p><p class="value">${value}</p></div>`;
  return (
    '<div class="tiles two-up">' +
    tile('Starts', formatCount(route.starts)) +
    tile('Completions', formatCount(route.completions)) +
    tile('Completion rate', formatShare(route.completion_rate)) +
    tile('Steps', formatCount(route.steps.length)) +
    '</div>'
  );
}

function problemsPanel(route: RouteDetail, statusProblems: string[]): string {
  if (route.problems.length === 0 && statusProblems.length === 0) {
    return route.status === 'live' ? '' : '<p class="notice ready-note">No problems: this route can go live.</p>';
  }
  const numbers = stepNumbers(route);
  const items = route.problems
    .map(
      (problem) =>
        `<li>${problem.step_id ? `<a href="#step-${escapeHtml(problem.step_id)}">Step ${numbers.get(problem.step_id) ?? '?'}</a>: ` : ''}${escapeHtml(problem.message)}</li>`,
    )
    .join('');
  return (
    `<section class="route-problems" aria-labelledby="problems-heading"${statusProblems.length > 0 ? ' role="alert"' : ''}>` +
    `<h2 id="problems-heading">${route.problems.length === 1 ? 'One problem' : `${route.problems.length} problems`} to fix before it can go live</h2>` +
    // update_route names each problem as "cannot be live: …", the same messages as the list below.
    (statusProblems.length > 0 ? '<p class="field-error">It did not go live: fix these first.</p>' : '') +
    `<ul>${items}</ul></section>`
  );
}

function editPanel(ctx: PageContext, route: RouteDetail, videos: VideoOption[], problems: FieldProblems): string {
  const name = ctx.form.name ?? route.name;
  const chosen = ctx.form.video ?? '';
  const options = videos
    .map(
      (video) =>
        `<option value="${escapeHtml(video.video_id)}"${video.video_id === chosen ? ' selected' : ''}>${escapeHtml(video.title)}</option>`,
    )
    .join('');
  const id = escapeHtml(route.route_id);
  return (
    '<section aria-labelledby="edit-heading" class="route-edit"><h2 id="edit-heading">Edit the route</h2><div class="edit-grid">' +
    `<form class="stack" method="post" action="/app/routes/${id}/name">${csrfField(ctx.csrf)}` +
    `<label class="field" for="route-name">Name<input type="text" id="route-name" name="name" maxlength="200" required value="${escapeHtml(name)}"${invalidAttributes(problems, 'name', 'route-name-error')}>` +
    `${fieldProblem(problems, 'name', 'route-name-error')}</label><button type="submit">Rename</button></form>` +
    `<form class="stack" method="post" action="/app/routes/${id}/steps">${csrfField(ctx.csrf)}` +
    `<label class="field" for="step-video">Add a step<select id="step-video" name="video" required${invalidAttributes(problems, 'video', 'step-video-error')}>` +
    `<option value="">Choose a ready video</option>${options}</select>` +
    `<span class="hint">${route.status === 'live' ? 'A live route takes new steps through a choice (“Edit choices”, then “A new step playing”), so no step is left unreachable. Pause it to add a loose step.' : 'Then wire a choice to it with “Edit choices” on the step that should lead there.'}</span>` +
    `${fieldProblem(problems, 'video', 'step-video-error')}</label><button type="submit">Add step</button></form>` +
    '</div></section>'
  );
}

export async function routePage(ctx: PageContext, routeId: string, problems: FieldProblems = new Map(), status = 200) {
  const canWrite = ctx.may('routes:write');
  const [answer, videos] = await Promise.all([
    ctx.call<RouteDetail>('get_route', { route_id: routeId }),
    canWrite ? ctx.call<{ videos: VideoOption[] }>('list_videos', { status: 'ready', sort: 'title', limit: 100 }) : undefined,
  ]);
  if (planWithoutRoutes(answer)) return ctx.refused(answer as Parameters<PageContext['refused']>[0]);
  if (!answer.ok)
    return answer.status === 404 || answer.status === 400
      ? ctx.notFound('No such route', 'It may have been deleted, or it belongs to another workspace.')
      : ctx.refused(answer);
  const route = answer.body;
  const notice = NOTICES[ctx.query.done ?? ''];
  const statusProblems = problems.get('status') ?? [];
  const content =
    '<p class="crumbs"><a href="/app/routes">← Routes</a></p>' +
    (notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : '') +
    otherProblems(problems, (field) => ['name', 'video', 'status'].includes(field)) +
    '<div class="title-row"><div>' +
    `<h1>${escapeHtml(route.name)} <span class="status ${escapeHtml(route.status)}">${escapeHtml(route.status)}</span></h1>` +
    `<p class="lede">Starts with “${escapeHtml(route.entry_video.title)}”.${route.status === 'live' || route.status === 'paused' ? ` Public link: <a href="${escapeHtml(route.url)}">${escapeHtml(route.url)}</a>` : ''}</p>` +
    '</div>' +
    (canWrite ? `<div class="actions">${statusControls(ctx, route)}</div>` : '') +
    '</div>' +
    tiles(route) +
    problemsPanel(route, statusProblems) +
    `<section aria-labelledby="graph-heading" class="route-picture"><h2 id="graph-heading">The route</h2>` +
    '<p class="hint">Boxes are steps, with the visits that reached them; arrows are choices, with the share of the step’s visits that took them.</p>' +
    routeGraph(route, 'route-graph') +
    `<h3 class="steps-heading">Steps and choices</h3>${routeStepsList(route, canWrite)}</section>` +
    '<div class="route-analytics">' +
    `<section aria-labelledby="funnel-heading"><h2 id="funnel-heading">Funnel</h2>${reachChart(route)}</section>` +
    `<section aria-labelledby="paths-heading"><h2 id="paths-heading">Most common paths</h2>${pathsTable(route)}</section>` +
    '</div>' +
    (canWrite && videos?.ok ? editPanel(ctx, route, videos.body.videos, problems) : '');
  return ctx.page(route.name, content, { status });
}
