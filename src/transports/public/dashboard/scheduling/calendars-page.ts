/**
 * /app/scheduling/calendars: the outside calendars whose busy times block every event type's slots.
 * Each feed with its last fetch (working, failing with the reason, or not read yet) from
 * list_calendar_feeds; owners and admins add one (create_calendar_feed: a name and the ICS address),
 * fetch one again now (refresh_calendar_feed) and remove one in a confirm dialog (delete_calendar_feed).
 */
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { formatCount, formatDateTime } from '../kit/formats.ts';
import { csrfField, type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { inputControl } from './form-controls.ts';
import { type Problems, problemSummary, problemsOf } from './form-problems.ts';
import { refusedRead } from './not-in-plan.ts';
import { relativeTime } from './relative-time.ts';
import { removeControl } from './remove-dialog.ts';
import { doneNotice, schedulingTabs } from './scheduling-tabs.ts';
import type { CalendarFeed, FieldProblem, Pagination } from './scheduling-types.ts';

const NOTICES: Record<string, string> = {
  added: 'The calendar is added. Its first fetch is queued: refresh this page in a moment to see it.',
  refreshed: 'A fetch is queued now. Refresh this page in a moment to see its result.',
  removed: 'The calendar is removed; its busy times no longer block slots.',
};

interface AddState {
  values: { name: string; url: string };
  problems: Problems;
  all: FieldProblem[];
}

async function calendarsPage(ctx: PageContext, add: AddState = { values: { name: '', url: '' }, problems: {}, all: [] }, status = 200) {
  const list = await ctx.call<{ calendar_feeds: CalendarFeed[]; pagination: Pagination }>('list_calendar_feeds', { limit: 100 });
  if (!list.ok) return refusedRead(ctx, list, 'calendars');
  const feeds = list.body.calendar_feeds;
  const writable = ctx.may('workspace:manage');
  const now = ctx.deps.clock();
  const content =
    '<h1>Calendars</h1>' +
    schedulingTabs('calendars') +
    doneNotice(ctx.query.done, NOTICES) +
    '<p class="lede">Busy times from your other calendars (Google, Outlook, Apple, any ICS address) block the slots of every event type. Feeds are read every 15 minutes; up to 10.</p>' +
    '<div class="sched-columns">' +
    '<section class="sched-card" aria-labelledby="feeds-heading"><h2 id="feeds-heading">Connected calendars</h2>' +
    (feeds.length === 0
      ? '<p class="empty">No calendars yet: every slot inside the hours is offered unless a booking is in the way.</p>'
      : `<ul class="sched-feeds">${feeds.map((feed) => feedItem(ctx, feed, writable, now)).join('')}</ul>`) +
    '</section>' +
    (writable ? addSection(ctx, add) : '') +
    '</div>';
  return ctx.page('Calendars', content, { status });
}

function feedStatus(feed: CalendarFeed, now: Date): string {
  if (feed.fetching) return '<span class="sched-status pending">Fetching now</span>';
  if (feed.last_error) return '<span class="sched-status failing">Failing</span>';
  if (feed.last_success_at) return '<span class="sched-status confirmed">Working</span>';
  return `<span class="sched-status pending">Not read yet</span>${feed.next_fetch_at ? ` <span class="meta">first fetch ${escapeHtml(relativeTime(feed.next_fetch_at, now))}</span>` : ''}`;
}

function feedItem(ctx: PageContext, feed: CalendarFeed, writable: boolean, now: Date): string {
  const facts = [
    feed.last_success_at
      ? `${formatCount(feed.busy_count)} busy ${feed.busy_count === 1 ? 'time' : 'times'}, read ${relativeTime(feed.last_success_at, now)}`
      : '',
    feed.last_fetched_at && feed.last_fetched_at !== feed.last_success_at ? `last tried ${relativeTime(feed.last_fetched_at, now)}` : '',
    feed.next_fetch_at && feed.last_fetched_at ? `next ${relativeTime(feed.next_fetch_at, now)}` : '',
    `added ${formatDateTime(feed.created_at)}`,
  ].filter(Boolean);
  const path = `/app/scheduling/calendars/${encodeURIComponent(feed.calendar_feed_id)}`;
  return (
    '<li class="sched-feed">' +
    `<div class="sched-feed-head"><strong>${escapeHtml(feed.name)}</strong> ${feedStatus(feed, now)}</div>` +
    `<p class="meta sched-url">${escapeHtml(feed.url)}</p>` +
    `<p class="meta">${escapeHtml(facts.join(' · '))}</p>` +
    (feed.last_error
      ? `<p class="sched-error">${escapeHtml(feed.last_error)}${feed.last_success_at ? ' The busy times of its last successful read still block slots.' : ''}</p>`
      : '') +
    (writable
      ? '<div class="buttons">' +
        `<form method="post" action="${path}/refresh">${csrfField(ctx.csrf)}<button type="submit">Refresh<span class="visually-hidden"> ${escapeHtml(feed.name)}</span></button></form>` +
        removeControl({
          id: feed.calendar_feed_id,
          label: `Remove ${feed.name}`,
          heading: `Remove “${feed.name}”?`,
          consequence: 'Its busy times stop blocking slots at once. You can add the address again later.',
          action: `${path}/remove`,
          csrf: ctx.csrf,
        }) +
        '</div>'
      : '') +
    '</li>'
  );
}

function addSection(ctx: PageContext, add: AddState): string {
  return (
    '<section class="sched-card" aria-labelledby="add-heading"><h2 id="add-heading">Add a calendar</h2>' +
    problemSummary('The calendar was not added:', add.all) +
    `<form method="post" action="/app/scheduling/calendars" class="sched-form" novalidate>${csrfField(ctx.csrf)}` +
    inputControl({
      name: 'name',
      id: 'f-feed-name',
      label: 'Name',
      value: add.values.name,
      problems: add.problems,
      attributes: 'required maxlength="100"',
      hint: 'For you, such as “Work calendar”.',
    }) +
    inputControl({
      name: 'url',
      id: 'f-feed-url',
      label: 'ICS address',
      type: 'url',
      value: add.values.url,
      problems: add.problems,
      attributes: 'required maxlength="4096" autocomplete="off"',
      hint: 'Google: Settings › your calendar › “Secret address in iCal format”. Outlook: Publish a calendar › ICS. The address is stored sealed and never shown again whole.',
    }) +
    '<div class="buttons"><button type="submit" class="primary">Add calendar</button></div></form></section>'
  );
}

export function registerCalendarRoutes(scope: FastifyInstance, env: DashboardEnv): void {
  const idOf = (ctx: PageContext) => (ctx.request.params as { calendar_feed_id: string }).calendar_feed_id;

  dashboardGet(scope, env, '/app/scheduling/calendars', (ctx) => calendarsPage(ctx));

  dashboardPost(scope, env, '/app/scheduling/calendars', async (ctx) => {
    const values = { name: ctx.form.name ?? '', url: (ctx.form.url ?? '').trim() };
    const answer = await ctx.call<CalendarFeed>('create_calendar_feed', values);
    if (answer.ok) return ctx.redirect('/app/scheduling/calendars?done=added');
    if (answer.status === 400) {
      const { byControl, all } = problemsOf(answer);
      return calendarsPage(ctx, { values, problems: byControl, all }, 400);
    }
    if (answer.status === 409) {
      const all = [{ field: '', problem: answer.error.message }];
      return calendarsPage(ctx, { values, problems: {}, all }, 409);
    }
    return ctx.refused(answer);
  });

  dashboardPost(scope, env, '/app/scheduling/calendars/:calendar_feed_id/refresh', async (ctx) => {
    const answer = await ctx.call('refresh_calendar_feed', { calendar_feed_id: idOf(ctx) });
    return answer.ok ? ctx.redirect('/app/scheduling/calendars?done=refreshed') : ctx.refused(answer);
  });

  dashboardPost(scope, env, '/app/scheduling/calendars/:calendar_feed_id/remove', async (ctx) => {
    const answer = await ctx.call('delete_calendar_feed', { calendar_feed_id: idOf(ctx) });
    return answer.ok ? ctx.redirect('/app/scheduling/calendars?done=removed') : ctx.refused(answer);
  });
}
