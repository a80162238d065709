/**
 * /app/scheduling: the event types at a glance. Two widgets, called at once: the list
 * (`list_event_types`, paginated) and the overview (`get_scheduling_overview`: the next open slot, how
 * full the next 7 days are, and what needs attention). Owners and admins are offered "New event type".
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { shareBar } from '../kit/charts.ts';
import { formatCount, formatShare } from '../kit/formats.ts';
import type { PageContext } from '../kit/page-route.ts';
import { minutesText, weekSummary } from './hours-text.ts';
import { zonedDateTime } from './local-days.ts';
import { refusedRead } from './not-in-plan.ts';
import { doneNotice, schedulingTabs } from './scheduling-tabs.ts';
import type { EventType, Overview, OverviewEventType, Pagination } from './scheduling-types.ts';

const NOTICES: Record<string, string> = { created: 'The event type is created.' };

export async function eventTypesPage(ctx: PageContext) {
  const cursor = ctx.query.cursor;
  const [list, overview] = await Promise.all([
    ctx.call<{ event_types: EventType[]; pagination: Pagination }>('list_event_types', { limit: 50, ...(cursor ? { cursor } : {}) }),
    ctx.call<Overview>('get_scheduling_overview', {}),
  ]);
  if (!list.ok) return refusedRead(ctx, list, 'event-types');
  const glance = overview.ok ? overview.body : undefined;
  const byId = new Map((glance?.event_types ?? []).map((t) => [t.event_type_id, t]));
  const writable = ctx.may('workspace:manage');
  const { event_types: types, pagination } = list.body;

  const content =
    '<div class="title-row"><h1>Scheduling</h1>' +
    (writable ? '<div class="actions"><a class="button primary" href="/app/scheduling/event-types/new">New event type</a></div>' : '') +
    '</div>' +
    schedulingTabs('event-types') +
    doneNotice(ctx.query.done, NOTICES) +
    (glance ? tiles(glance) + attention(glance) : '') +
    '<section aria-labelledby="types-heading"><h2 id="types-heading">Event types</h2>' +
    (types.length === 0
      ? `<p class="empty">No event types yet.${writable ? ' Create one to offer calls on a booking page.' : ''}</p>`
      : typesTable(types, byId)) +
    pages(pagination, cursor) +
    '</section>';
  return ctx.page('Scheduling', content);
}

function tiles(glance: Overview): string {
  const sum = (pick: (t: OverviewEventType) => number) => glance.event_types.reduce((total, t) => total + pick(t), 0);
  const booked = sum((t) => t.next_7_days.booked);
  const offered = sum((t) => t.next_7_days.offered);
  const failing = glance.calendars.filter((c) => c.last_error).length;
  const tile = (label: string, value: string, change = '') =>
    `<div class="tile"><p class="label">${escapeHtml(label)}</p><p class="value">${escapeHtml(value)}</p>${change ? `<p class="change">${escapeHtml(change)}</p>` : ''}</div>`;
  return (
    '<div class="tiles sched-tiles">' +
    tile('Active event types', formatCount(glance.active_event_types), `${formatCount(glance.inactive_event_types)} inactive`) +
    tile('Calls booked, next 7 days', formatCount(booked)) +
    tile(
      'Open slots, next 7 days',
      formatCount(offered),
      booked + offered > 0 ? `${formatShare(booked / (booked + offered))} booked` : '',
    ) +
    tile('Busy calendars', formatCount(glance.calendars.length), failing > 0 ? `${failing} failing` : 'all readable') +
    '</div>'
  );
}

function attention(glance: Overview): string {
  const items = glance.event_types.flatMap((t) => {
    return t.problems.filter((p) => p.code !== 'inactive').map((p) => ({ name: t.name, id: t.event_type_id, message: p.message }));
  });
  if (items.length === 0) return '';
  return (
    '<section aria-labelledby="attention-heading" class="sched-attention"><h2 id="attention-heading">Needs attention</h2><ul>' +
    items
      .map(
        (item) =>
          `<li><a href="/app/scheduling/event-types/${escapeHtml(item.id)}">${escapeHtml(item.name)}</a>: ${escapeHtml(item.message)}</li>`,
      )
      .join('') +
    '</ul></section>'
  );
}

function typesTable(types: EventType[], byId: Map<string, OverviewEventType>): string {
  const rows = types
    .map((type) => {
      const glance = byId.get(type.event_type_id);
      const next = glance?.next_offered ? zonedDateTime(glance.next_offered.start, type.time_zone) : type.active ? 'None in 28 days' : '—';
      const week = glance?.next_7_days;
      const fill =
        week && week.utilization !== null
          ? shareBar(week.utilization, `${formatShare(week.utilization)} · ${formatCount(week.booked)} booked`)
          : '<span class="meta">—</span>';
      return (
        '<tr>' +
        `<th scope="row"><a href="/app/scheduling/event-types/${escapeHtml(type.event_type_id)}">${escapeHtml(type.name)}</a>` +
        `<span class="meta sched-block">${escapeHtml(weekSummary(type.weekly_hours))}</span></th>` +
        `<td data-label="Length"><div>${escapeHtml(minutesText(type.duration_minutes))}</div></td>` +
        `<td data-label="Time zone"><div>${escapeHtml(type.time_zone)}</div></td>` +
        `<td data-label="Next open"><div>${escapeHtml(next)}</div></td>` +
        `<td data-label="Next 7 days"><div>${fill}</div></td>` +
        `<td data-label="Status"><div>${type.active ? '<span class="badge on">Active</span>' : '<span class="badge">Inactive</span>'}</div></td>` +
        '</tr>'
      );
    })
    .join('');
  return (
    '<div class="table-scroll sched-scroll"><table class="sched-cards"><thead><tr><th scope="col">Event type and weekly hours</th><th scope="col">Length</th>' +
    '<th scope="col">Time zone</th><th scope="col">Next open slot</th><th scope="col">Next 7 days booked</th><th scope="col">Status</th></tr></thead>' +
    `<tbody>${rows}</tbody></table></div>`
  );
}

function pages(pagination: Pagination, cursor: string | undefined): string {
  const links = [
    cursor ? '<a href="/app/scheduling">First page</a>' : '',
    pagination.next_cursor ? `<a href="/app/scheduling?cursor=${encodeURIComponent(pagination.next_cursor)}">Next page</a>` : '',
  ].filter(Boolean);
  return links.length ? `<nav class="pages" aria-label="Pages">${links.join('')}</nav>` : '';
}
