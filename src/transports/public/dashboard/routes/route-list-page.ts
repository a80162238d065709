/**
 * /app/routes: every route with how it does (list_routes: name, status, starts, completions and the
 * completion rate as a share bar), filtered by status with a GET form, paged by the API's cursor; and,
 * for people who may write routes, "New route" (create_route: an entry video and a name), whose
 * problems come back beside its fields with what was typed kept.
 */
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { shareBar } from '../kit/charts.ts';
import { formatCount, formatDate, formatShare } from '../kit/formats.ts';
import { type Answer, csrfField, type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { type FieldProblems, fieldProblem, invalidAttributes, otherProblems, problemsOf } from './field-problems.ts';
import type { RouteDetail, RouteSummary, VideoOption } from './route-types.ts';

const STATUSES = ['draft', 'live', 'paused', 'archived'] as const;

interface RouteList {
  routes: RouteSummary[];
  pagination: { has_more: boolean; next_cursor: string | null };
}

/** A plan without routes: said plainly, not as an error page. */
export function planWithoutRoutes(answer: Answer<unknown>): boolean {
  return !answer.ok && answer.error.code === 'plan_limit';
}

function statusFilter(current: string): string {
  return (
    '<form class="filters" method="get" action="/app/routes"><label>Status<select name="status">' +
    `<option value="">All but archived</option>${STATUSES.map((s) => `<option value="${s}"${s === current ? ' selected' : ''}>${s[0]?.toUpperCase()}${s.slice(1)}</option>`).join('')}` +
    '</select></label><button type="submit">Filter</button></form>'
  );
}

function table(list: RouteList): string {
  if (list.routes.length === 0) return '<p class="empty">No routes here yet.</p>';
  const rows = list.routes
    .map(
      (route) =>
        `<tr><th scope="row"><a href="/app/routes/${escapeHtml(route.route_id)}">${escapeHtml(route.name)}</a><span class="meta row-meta">Starts with ${escapeHtml(route.entry_video.title)}</span></th>` +
        `<td><span class="status ${escapeHtml(route.status)}">${escapeHtml(route.status)}</span></td>` +
        `<td class="number">${route.step_count}</td><td class="number">${formatCount(route.starts)}</td><td class="number">${formatCount(route.completions)}</td>` +
        `<td>${shareBar(route.completion_rate, formatShare(route.completion_rate))}</td>` +
        `<td>${escapeHtml(formatDate(route.updated_at))}</td></tr>`,
    )
    .join('');
  return (
    '<div class="table-scroll" role="region" tabindex="0" aria-label="Routes (scrolls sideways)"><table class="routes-table"><caption class="visually-hidden">Routes</caption><thead><tr>' +
    '<th scope="col">Route</th><th scope="col">Status</th><th scope="col" class="number">Steps</th><th scope="col" class="number">Starts</th>' +
    '<th scope="col" class="number">Completions</th><th scope="col">Completion rate</th><th scope="col">Updated</th></tr></thead>' +
    `<tbody>${rows}</tbody></table></div>`
  );
}

function newRouteForm(ctx: PageContext, videos: VideoOption[], problems: FieldProblems): string {
  const chosen = ctx.form.entry_video ?? '';
  const options = videos
    .map(
      (video) =>
        `<option value="${escapeHtml(video.video_id)}"${video.video_id === chosen ? ' selected' : ''}>${escapeHtml(video.title)}</option>`,
    )
    .join('');
  return (
    '<section aria-labelledby="new-route-heading" id="new-route"><h2 id="new-route-heading">New route</h2>' +
    '<p>A route starts with one video; you add the question, the choices and the next videos on its page.</p>' +
    otherProblems(problems, (field) => field === 'name' || field === 'entry_video') +
    `<form class="stack" method="post" action="/app/routes">${csrfField(ctx.csrf)}` +
    `<label class="field" for="route-entry">First video<select id="route-entry" name="entry_video" required${invalidAttributes(problems, 'entry_video', 'route-entry-error')}>` +
    `<option value="">Choose a ready video</option>${options}</select>${fieldProblem(problems, 'entry_video', 'route-entry-error')}</label>` +
    `<label class="field" for="route-name">Name <span class="hint">Optional: left empty, the route takes its video’s title</span>` +
    `<input type="text" id="route-name" name="name" maxlength="200" value="${escapeHtml(ctx.form.name ?? '')}"${invalidAttributes(problems, 'name', 'route-name-error')}>` +
    `${fieldProblem(problems, 'name', 'route-name-error')}</label>` +
    '<button type="submit" class="primary">Create route</button></form></section>'
  );
}

async function listPage(ctx: PageContext, problems: FieldProblems = new Map(), status = 200) {
  const filter: string = STATUSES.includes(ctx.query.status as (typeof STATUSES)[number]) ? (ctx.query.status as string) : '';
  const canWrite = ctx.may('routes:write');
  const [list, videos] = await Promise.all([
    ctx.call<RouteList>('list_routes', {
      limit: 25,
      ...(filter ? { status: filter } : {}),
      ...(ctx.query.cursor ? { cursor: ctx.query.cursor } : {}),
    }),
    canWrite ? ctx.call<{ videos: VideoOption[] }>('list_videos', { status: 'ready', sort: 'title', limit: 100 }) : undefined,
  ]);
  if (planWithoutRoutes(list)) {
    return ctx.page(
      'Routes',
      '<h1>Routes</h1><p class="lede">Interactive routes (a video that asks a question and plays the answer) come with the Pro and Business plans. Your workspace’s plan does not include them.</p>',
    );
  }
  if (!list.ok) return ctx.refused(list);
  const done = ctx.query.done === 'created' ? '<p class="notice" role="status">The route is created.</p>' : '';
  const next =
    list.body.pagination.has_more && list.body.pagination.next_cursor
      ? `<nav class="pages" aria-label="Pages"><a href="/app/routes?${new URLSearchParams({ ...((filter ? { status: filter } : {}) as Record<string, string>), cursor: list.body.pagination.next_cursor }).toString()}">Next page</a></nav>`
      : '';
  const content =
    done +
    '<div class="title-row"><div><h1>Routes</h1><p class="lede">Videos that ask a question and play the answer. Each shows how many visits started and finished.</p></div>' +
    (canWrite ? '<div class="actions"><a class="button primary" href="#new-route">New route</a></div>' : '') +
    '</div>' +
    `<section aria-labelledby="routes-heading"><h2 id="routes-heading" class="visually-hidden">All routes</h2>${statusFilter(filter)}${table(list.body)}${next}</section>` +
    (canWrite && videos?.ok ? newRouteForm(ctx, videos.body.videos, problems) : '');
  return ctx.page('Routes', content, { status });
}

export function registerRouteListPage(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/routes', (ctx) => listPage(ctx));
  dashboardPost(scope, env, '/app/routes', async (ctx) => {
    const name = (ctx.form.name ?? '').trim();
    const created = await ctx.call<RouteDetail>('create_route', { entry_video: ctx.form.entry_video ?? '', ...(name ? { name } : {}) });
    if (created.ok) return ctx.redirect(`/app/routes/${created.body.route_id}?done=created`);
    if (created.status === 400 || created.status === 404) return listPage(ctx, problemsOf(created), created.status);
    return ctx.refused(created);
  });
}
