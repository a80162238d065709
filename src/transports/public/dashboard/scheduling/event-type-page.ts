/**
 * /app/scheduling/event-types/{id}: one event type. Owners and admins edit its details, its weekly hours
 * (one row per weekday) and its date overrides (a month calendar, each day linking to its form); people
 * who may only read see the same facts as text and the same calendar without links. One call:
 * `get_event_type`; the forms' writes are `update_event_type`.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatMoney } from '../kit/formats.ts';
import type { PageContext } from '../kit/page-route.ts';
import { type DetailsValues, detailsForm, detailsValuesOf } from './event-type-form.ts';
import { type Problems, problemSummary } from './form-problems.ts';
import { intervalsText, minutesText } from './hours-text.ts';
import { dayLabel, isMonth, todayIn } from './local-days.ts';
import { monthCalendar } from './month-calendar.ts';
import { doneNotice, schedulingTabs } from './scheduling-tabs.ts';
import type { EventType, FieldProblem } from './scheduling-types.ts';
import { type HoursRows, rowsOf, weeklyHoursForm, weeklyHoursTable } from './weekly-hours-form.ts';

const NOTICES: Record<string, string> = {
  created: 'The event type is created. Set its weekly hours below.',
  details: 'The details are saved.',
  hours: 'The weekly hours are saved.',
  day: 'The day is saved.',
};

export interface EventTypeFormState {
  details?: { values: DetailsValues; problems: Problems; all: FieldProblem[] };
  hours?: { rows: HoursRows; problems: Problems; all: FieldProblem[] };
}

export function eventTypePath(id: string): string {
  return `/app/scheduling/event-types/${encodeURIComponent(id)}`;
}

export async function eventTypePage(ctx: PageContext, type: EventType, state: EventTypeFormState = {}, status = 200) {
  const editable = ctx.may('workspace:manage');
  const path = eventTypePath(type.event_type_id);
  const today = todayIn(type.time_zone, ctx.deps.clock());
  const month = isMonth(ctx.query.month) ? ctx.query.month : today.slice(0, 7);
  const upcoming = type.date_overrides.filter((o) => o.date >= today);

  const content =
    '<p class="crumbs"><a href="/app/scheduling">← Scheduling</a></p>' +
    `<div class="title-row"><h1>${escapeHtml(type.name)} ${type.active ? '<span class="badge on">Active</span>' : '<span class="badge">Inactive</span>'}</h1>` +
    '<div class="actions">' +
    `<a class="button" href="/app/scheduling/availability?event_type=${encodeURIComponent(type.event_type_id)}">Explain availability</a>` +
    (type.active ? `<a class="button" href="${escapeHtml(type.booking_url)}">Open booking page</a>` : '') +
    '</div></div>' +
    schedulingTabs('event-types') +
    doneNotice(ctx.query.done, NOTICES) +
    `<p class="lede">${escapeHtml(minutesText(type.duration_minutes))} calls, hours read in ${escapeHtml(type.time_zone)}. Booking page: <a href="${escapeHtml(type.booking_url)}">${escapeHtml(type.booking_url)}</a></p>` +
    '<div class="sched-columns">' +
    '<section aria-labelledby="details-heading" class="sched-card"><h2 id="details-heading">Details</h2>' +
    (editable
      ? problemSummary('The details were not saved:', state.details?.all ?? []) +
        detailsForm({
          action: path,
          csrf: ctx.csrf,
          values: state.details?.values ?? detailsValuesOf(type),
          problems: state.details?.problems ?? {},
          mode: 'edit',
        })
      : detailsList(type)) +
    '</section>' +
    '<div class="sched-stack">' +
    '<section aria-labelledby="hours-heading" class="sched-card"><h2 id="hours-heading">Weekly hours</h2>' +
    (editable
      ? problemSummary('The weekly hours were not saved:', state.hours?.all ?? []) +
        weeklyHoursForm({
          action: `${path}/hours`,
          csrf: ctx.csrf,
          rows: state.hours?.rows ?? rowsOf(type.weekly_hours),
          problems: state.hours?.problems ?? {},
        })
      : weeklyHoursTable(type.weekly_hours)) +
    '</section>' +
    '<section aria-labelledby="overrides-heading" id="overrides" class="sched-card"><h2 id="overrides-heading">Date overrides</h2>' +
    `<p class="hint">${editable ? 'Choose a day to close it or give it other hours than the week’s.' : 'Days with other hours than the week’s.'} Marked days have an override.</p>` +
    monthCalendar({ type, month, today, editable }) +
    (upcoming.length > 0
      ? '<h3>Overrides ahead</h3><ul class="rows">' +
        upcoming
          .map((o) => {
            const label = `${dayLabel(o.date)}: ${intervalsText(o.hours)}`;
            return editable ? `<li><a href="${path}/days/${o.date}">${escapeHtml(label)}</a></li>` : `<li>${escapeHtml(label)}</li>`;
          })
          .join('') +
        '</ul>'
      : '<p class="empty">No overrides ahead: every day follows the weekly hours.</p>') +
    '</section></div></div>';
  return ctx.page(type.name, content, { status, scripts: editable ? ['scheduling-hours.js'] : [] });
}

function detailsList(type: EventType): string {
  const row = (term: string, value: string) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`;
  return (
    '<dl>' +
    row('Length', minutesText(type.duration_minutes)) +
    row('Start times every', minutesText(type.slot_interval_minutes)) +
    row('Location', type.location ?? 'None given') +
    row('Time zone', type.time_zone) +
    row('Free before / after each call', `${minutesText(type.buffer_before_minutes)} / ${minutesText(type.buffer_after_minutes)}`) +
    row('Minimum notice', minutesText(type.minimum_notice_minutes)) +
    row('Bookable days ahead', type.horizon_days === null ? 'No limit' : String(type.horizon_days)) +
    row('Most calls a day', type.daily_cap === null ? 'No cap' : String(type.daily_cap)) +
    row('Value of a booked call', type.value ? formatMoney(type.value.amount, type.value.currency) : 'None') +
    '</dl>'
  );
}
