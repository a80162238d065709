/**
 * /app/scheduling/bookings: booked calls, upcoming (soonest first), past (latest first) or all, with
 * list_bookings' filters (event type, status) as a GET form and its cursor pagination. Each call opens
 * its page, where it is canceled or moved. Three widgets at once: the list, the event types for the
 * filter, and the workspace's time zone the times are written in.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatCount } from '../kit/formats.ts';
import type { PageContext } from '../kit/page-route.ts';
import { workspaceZone } from '../kit/workspace-zone.ts';
import { zonedDateTime, zonedTime } from './local-days.ts';
import { refusedRead } from './not-in-plan.ts';
import { doneNotice, schedulingTabs } from './scheduling-tabs.ts';
import type { Booking, EventType, Pagination } from './scheduling-types.ts';

const SCOPES = [
  { id: 'upcoming', label: 'Upcoming' },
  { id: 'past', label: 'Past' },
  { id: 'all', label: 'All' },
] as const;

const NOTICES: Record<string, string> = {
  canceled: 'The call is canceled; its time is open again.',
  rescheduled: 'The call is moved.',
};

export async function bookingsPage(ctx: PageContext) {
  const scope = SCOPES.some((s) => s.id === ctx.query.scope) ? (ctx.query.scope as string) : 'upcoming';
  const status = ctx.query.status === 'confirmed' || ctx.query.status === 'canceled' ? ctx.query.status : '';
  const eventTypeId = ctx.query.event_type_id ?? '';
  const cursor = ctx.query.cursor;
  const filters = { scope, ...(status ? { status } : {}), ...(eventTypeId ? { event_type_id: eventTypeId } : {}) };
  const [list, types, zone] = await Promise.all([
    ctx.call<{ bookings: Booking[]; pagination: Pagination }>('list_bookings', { ...filters, limit: 25, ...(cursor ? { cursor } : {}) }),
    ctx.call<{ event_types: EventType[] }>('list_event_types', { limit: 100 }),
    workspaceZone(ctx),
  ]);
  if (!list.ok) return refusedRead(ctx, list, 'bookings');
  const query = (extra: Record<string, string>) => `/app/scheduling/bookings?${new URLSearchParams({ ...filters, ...extra }).toString()}`;
  const { bookings, pagination } = list.body;

  const content =
    '<h1>Bookings</h1>' +
    schedulingTabs('bookings') +
    doneNotice(ctx.query.done, NOTICES) +
    '<nav class="segments" aria-label="Which calls">' +
    SCOPES.map((s) => `<a href="${escapeHtml(query({ scope: s.id }))}"${s.id === scope ? ' aria-current="page"' : ''}>${s.label}</a>`).join(
      '',
    ) +
    '</nav>' +
    '<form class="filters" method="get" action="/app/scheduling/bookings">' +
    `<input type="hidden" name="scope" value="${escapeHtml(scope)}">` +
    '<label for="filter-type">Event type<select id="filter-type" name="event_type_id"><option value="">All event types</option>' +
    (types.ok ? types.body.event_types : [])
      .map(
        (t) =>
          `<option value="${escapeHtml(t.event_type_id)}"${t.event_type_id === eventTypeId ? ' selected' : ''}>${escapeHtml(t.name)}</option>`,
      )
      .join('') +
    '</select></label>' +
    '<label for="filter-status">Status<select id="filter-status" name="status">' +
    [
      ['', 'Any status'],
      ['confirmed', 'Confirmed'],
      ['canceled', 'Canceled'],
    ]
      .map(([value, label]) => `<option value="${value}"${value === status ? ' selected' : ''}>${label}</option>`)
      .join('') +
    '</select></label><button type="submit">Filter</button></form>' +
    `<p class="meta">${formatCount(pagination.total)} ${pagination.total === 1 ? 'call' : 'calls'} · times in ${escapeHtml(zone)}</p>` +
    (bookings.length === 0 ? `<p class="empty">${emptyText(scope)}</p>` : table(bookings, zone, ctx.may('leads:write'))) +
    pages(pagination, cursor, query);
  return ctx.page('Bookings', content);
}

function emptyText(scope: string): string {
  if (scope === 'past') return 'No past calls match.';
  if (scope === 'all') return 'No calls match.';
  return 'No upcoming calls match. They appear here as viewers book from your videos’ booking pages.';
}

function table(bookings: Booking[], zone: string, writable: boolean): string {
  const rows = bookings
    .map((b) => {
      const path = `/app/scheduling/bookings/${encodeURIComponent(b.booking_id)}`;
      const who = b.invitee_name ?? b.invitee_email ?? 'Erased invitee';
      const actions =
        writable && b.status === 'confirmed'
          ? `<a href="${path}#reschedule">Reschedule<span class="visually-hidden"> the call with ${escapeHtml(who)}</span></a> ` +
            `<a href="${path}#cancel">Cancel<span class="visually-hidden"> the call with ${escapeHtml(who)}</span></a>`
          : `<a href="${path}">Open<span class="visually-hidden"> the call with ${escapeHtml(who)}</span></a>`;
      return (
        '<tr>' +
        `<td data-label="When"><div><a href="${path}">${escapeHtml(zonedDateTime(b.start, zone))}</a><span class="meta sched-block">until ${escapeHtml(zonedTime(b.end, zone))}</span></div></td>` +
        `<td data-label="Event type"><div>${escapeHtml(b.event_type.name)}</div></td>` +
        `<td data-label="Invitee"><div>${escapeHtml(who)}${b.invitee_email && b.invitee_name ? `<span class="meta sched-block">${escapeHtml(b.invitee_email)}</span>` : ''}</div></td>` +
        `<td data-label="Status"><div><span class="sched-status ${b.status}">${b.status === 'confirmed' ? 'Confirmed' : 'Canceled'}</span>${b.rescheduled_at ? ' <span class="meta">moved</span>' : ''}</div></td>` +
        `<td class="sched-row-actions">${actions}</td>` +
        '</tr>'
      );
    })
    .join('');
  return (
    '<div class="table-scroll sched-scroll"><table class="sched-cards"><thead><tr><th scope="col">When</th><th scope="col">Event type</th><th scope="col">Invitee</th>' +
    `<th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${rows}</tbody></table></div>`
  );
}

function pages(pagination: Pagination, cursor: string | undefined, query: (extra: Record<string, string>) => string): string {
  const links = [
    cursor ? `<a href="${escapeHtml(query({}))}">First page</a>` : '',
    pagination.next_cursor ? `<a href="${escapeHtml(query({ cursor: pagination.next_cursor }))}">Next page</a>` : '',
  ].filter(Boolean);
  return links.length ? `<nav class="pages" aria-label="Pages">${links.join('')}</nav>` : '';
}
