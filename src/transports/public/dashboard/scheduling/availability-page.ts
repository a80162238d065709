/**
 * /app/scheduling/availability: the explainer. Pick an event type and a day; the page lists every start
 * time of that day, in the event type's zone, as a timeline: offered, or not and why, in the words of
 * `get_scheduling_availability` (runs of start times with the same reasons are one entry), with the
 * bookings and calendars in the way linked. A bar chart counts the reasons of the day.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { barChart } from '../kit/charts.ts';
import { formatCount } from '../kit/formats.ts';
import type { PageContext } from '../kit/page-route.ts';
import { minutesText } from './hours-text.ts';
import { addDays, clockOf, dayLabel, isDate, middayUtc, todayIn } from './local-days.ts';
import { refusedRead } from './not-in-plan.ts';
import { schedulingTabs } from './scheduling-tabs.ts';
import type { Availability, EventType, NotOfferedRun, OfferedSlot, Pagination, Reason } from './scheduling-types.ts';

/** Short names of the reason codes, for the chart and the badges (the sentences come from the API). */
const REASON_NAMES: Record<string, string> = {
  inactive: 'Inactive',
  past: 'Past',
  min_notice: 'Too soon',
  beyond_horizon: 'Too far ahead',
  outside_hours: 'Outside hours',
  date_override: 'Date override',
  booked: 'Booked',
  buffer: 'Buffer',
  daily_cap: 'Daily cap',
  busy_calendar: 'Busy calendar',
  off_interval: 'Off the grid',
};

type Entry = { kind: 'offered'; slot: OfferedSlot } | { kind: 'run'; run: NotOfferedRun };

export async function availabilityPage(ctx: PageContext) {
  const chosen = ctx.query.event_type;
  const asked = isDate(ctx.query.date) ? ctx.query.date : undefined;
  const explain = (id: string, date: string) => {
    // A window wide enough for the day in any zone; the API's local times tell which candidates are its.
    const from = new Date(middayUtc(date).getTime() - 36 * 3600_000).toISOString();
    const to = new Date(middayUtc(date).getTime() + 36 * 3600_000).toISOString();
    return ctx.call<Availability>('get_scheduling_availability', { event_type: id, from, to });
  };
  // With the type and the day named, the picker's list and the explanation are asked for at once.
  const [list, early] = await Promise.all([
    ctx.call<{ event_types: EventType[]; pagination: Pagination }>('list_event_types', { limit: 100 }),
    chosen && asked ? explain(chosen, asked) : undefined,
  ]);
  if (!list.ok) return refusedRead(ctx, list, 'availability');
  const types = list.body.event_types;
  const listed = chosen ? types.find((t) => t.event_type_id === chosen) : (types.find((t) => t.active) ?? types[0]);
  const typeId = chosen ?? listed?.event_type_id;
  const date = asked ?? todayIn(listed?.time_zone ?? 'UTC', ctx.deps.clock());
  const answer = early ?? (typeId ? await explain(typeId, date) : undefined);

  let body = '';
  let status = 200;
  if (!answer) body = '<p class="empty">No event types yet: create one first.</p>';
  else if (!answer.ok && (answer.status === 400 || answer.status === 404)) {
    // An id nobody has, or a day the operation cannot explain: said above the picker, which stays usable.
    status = answer.status;
    body = `<p class="alert" role="alert">${escapeHtml(answer.error.message)}</p>`;
  } else if (!answer.ok) return ctx.refused(answer);
  else body = explanation(date, answer.body);

  const content =
    '<h1>Availability</h1>' +
    schedulingTabs('availability') +
    '<p class="lede">Every start time of a day, and why it is or is not offered on the booking page.</p>' +
    picker(types, typeId ?? '', date) +
    body;
  return ctx.page('Availability', content, { status });
}

function picker(types: EventType[], chosen: string, date: string): string {
  return (
    '<form class="filters" method="get" action="/app/scheduling/availability">' +
    '<label for="explain-type">Event type<select id="explain-type" name="event_type">' +
    types
      .map(
        (t) =>
          `<option value="${escapeHtml(t.event_type_id)}"${t.event_type_id === chosen ? ' selected' : ''}>${escapeHtml(t.name)}${t.active ? '' : ' (inactive)'}</option>`,
      )
      .join('') +
    '</select></label>' +
    `<label for="explain-day">Day<input id="explain-day" type="date" name="date" value="${escapeHtml(date)}" required></label>` +
    '<button type="submit">Explain</button></form>'
  );
}

function explanation(date: string, answer: Availability): string {
  const type = answer.event_type;
  const mine = (local: string) => local.slice(0, 10) === date;
  const offered = answer.offered.filter((s) => mine(s.local_start));
  const runs = answer.not_offered.filter((r) => mine(r.local_start));
  const entries: Entry[] = [
    ...offered.map((slot) => ({ kind: 'offered' as const, slot })),
    ...runs.map((run) => ({ kind: 'run' as const, run })),
  ].sort((a, b) => startOf(a).localeCompare(startOf(b)));
  const notOfferedCount = runs.reduce((sum, r) => sum + r.count, 0);
  const counts = new Map<string, number>();
  for (const run of runs) for (const reason of run.reasons) counts.set(reason.code, (counts.get(reason.code) ?? 0) + run.count);
  const base = `/app/scheduling/availability?event_type=${encodeURIComponent(type.event_type_id)}`;
  const total = offered.length + notOfferedCount;

  return (
    '<div class="sched-day-nav">' +
    `<a class="button" href="${base}&amp;date=${addDays(date, -1)}">← Previous day</a>` +
    `<h2 id="day-heading">${escapeHtml(dayLabel(date))}</h2>` +
    `<a class="button" href="${base}&amp;date=${addDays(date, 1)}">Next day →</a></div>` +
    `<p class="sched-verdict"><strong>${formatCount(offered.length)} of ${formatCount(total)}</strong> start times are offered` +
    ` (${escapeHtml(minutesText(type.duration_minutes))} calls every ${escapeHtml(minutesText(type.slot_interval_minutes))}, times in ${escapeHtml(answer.timezone)}).` +
    (type.active ? '' : ' This event type is inactive: it offers nothing.') +
    '</p>' +
    '<div class="sched-columns sched-explainer">' +
    '<section aria-labelledby="timeline-heading" class="sched-card"><h3 id="timeline-heading">The day, start by start</h3>' +
    (entries.length === 0
      ? '<p class="empty">No start times on this day.</p>'
      : `<ol class="sched-timeline">${entries.map(entryHtml).join('')}</ol>`) +
    '</section>' +
    '<section aria-labelledby="reasons-heading" class="sched-card"><h3 id="reasons-heading">Why start times are not offered</h3>' +
    (counts.size === 0
      ? '<p class="empty">Every start time of the day is offered.</p>'
      : barChart({
          id: 'reasons-chart',
          title: `Start times not offered on ${dayLabel(date)}, by reason`,
          description: `${formatCount(notOfferedCount)} of ${formatCount(total)} start times are not offered. ${[...counts]
            .map(([code, n]) => `${REASON_NAMES[code] ?? code}: ${n}`)
            .join('; ')}. A start time with two reasons counts under both.`,
          bars: [...counts].map(([code, n]) => ({ label: REASON_NAMES[code] ?? code, value: n })),
          format: formatCount,
          xHeading: 'Reason',
          valueHeading: 'Start times',
        })) +
    '</section></div>'
  );
}

function startOf(entry: Entry): string {
  return entry.kind === 'offered' ? entry.slot.start : entry.run.start;
}

function entryHtml(entry: Entry): string {
  if (entry.kind === 'offered') {
    const { slot } = entry;
    return (
      `<li class="sched-offered"><span class="sched-time">${clockOf(slot.local_start)}–${clockOf(slot.local_end)}</span>` +
      '<span class="sched-state">Offered</span></li>'
    );
  }
  const { run } = entry;
  const span = run.count === 1 ? clockOf(run.local_start) : `${clockOf(run.local_start)}–${clockOf(run.local_last_start)}`;
  return (
    `<li class="sched-blocked"><span class="sched-time">${span}</span>` +
    `<span class="sched-state">Not offered${run.count > 1 ? ` · ${run.count} start times` : ''}</span>` +
    `<ul class="sched-reasons">${run.reasons.map(reasonHtml).join('')}</ul></li>`
  );
}

function reasonHtml(reason: Reason): string {
  const bookings = (reason.bookings ?? [])
    .map(
      (b) =>
        `<a href="/app/scheduling/bookings/${encodeURIComponent(b.booking_id)}">${escapeHtml(b.event_type)} with ${escapeHtml(b.invitee_name ?? 'an erased invitee')}</a>`,
    )
    .join(', ');
  const calendars = (reason.calendars ?? []).map((c) => `<a href="/app/scheduling/calendars">${escapeHtml(c.name)}</a>`).join(', ');
  const inTheWay = bookings || calendars;
  return (
    `<li><span class="sched-code">${escapeHtml(REASON_NAMES[reason.code] ?? reason.code)}</span> ${escapeHtml(reason.message)}` +
    (inTheWay ? ` <span class="meta">In the way: ${inTheWay}</span>` : '') +
    '</li>'
  );
}
