/**
 * One day of an event type (/app/scheduling/event-types/{id}/days/{date}), reached from the month
 * calendar: follow the weekly hours, close the day, or open it at other hours. The operation replaces
 * `date_overrides` whole, so the form reads the event type (get_event_type), changes this one date and
 * sends the list back (update_event_type); a problem of this date's hours is shown on the form.
 */
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { csrfField, type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { eventTypePath } from './event-type-page.ts';
import { fieldError, type Problems, problemSummary, problemsOf } from './form-problems.ts';
import { intervalsText, WEEKDAY_NAMES } from './hours-text.ts';
import { dayLabel, isDate, weekdayOf } from './local-days.ts';
import { schedulingTabs } from './scheduling-tabs.ts';
import type { DateOverride, EventType, FieldProblem } from './scheduling-types.ts';
import { shownEnd, stretchInputs } from './weekly-hours-form.ts';

type Mode = 'weekly' | 'closed' | 'hours';

interface DayState {
  mode: Mode;
  stretches: { start: string; end: string }[];
  problems: Problems;
  all: FieldProblem[];
}

function params(ctx: PageContext): { id: string; date: string } {
  const { event_type_id: id, date } = ctx.request.params as { event_type_id: string; date: string };
  return { id, date };
}

function stateOf(type: EventType, date: string): DayState {
  const override = type.date_overrides.find((o) => o.date === date);
  if (!override) return { mode: 'weekly', stretches: [], problems: {}, all: [] };
  return {
    mode: override.hours.length === 0 ? 'closed' : 'hours',
    stretches: override.hours.map((h) => ({ start: h.start, end: shownEnd(h.end) })),
    problems: {},
    all: [],
  };
}

async function dayPage(ctx: PageContext, type: EventType, date: string, state: DayState, status = 200) {
  const weekday = weekdayOf(date);
  const weekly = type.weekly_hours[weekday] ?? [];
  const radio = (value: Mode, label: string) =>
    `<div class="sched-check"><input type="radio" id="mode-${value}" name="mode" value="${value}"${state.mode === value ? ' checked' : ''}><label for="mode-${value}">${escapeHtml(label)}</label></div>`;
  const invalid = Boolean(state.problems.hours?.length);
  const content =
    `<p class="crumbs"><a href="${eventTypePath(type.event_type_id)}?month=${date.slice(0, 7)}#overrides">← ${escapeHtml(type.name)}</a></p>` +
    `<h1>${escapeHtml(dayLabel(date))}</h1>` +
    schedulingTabs('event-types') +
    `<p class="lede">${escapeHtml(type.name)}: weekly hours on ${WEEKDAY_NAMES[weekday]}s are ${escapeHtml(intervalsText(weekly))} (${escapeHtml(type.time_zone)}).</p>` +
    '<section class="sched-card sched-narrow" aria-labelledby="day-heading"><h2 id="day-heading">Hours on this day</h2>' +
    problemSummary('The day was not saved:', state.all) +
    `<form method="post" action="${eventTypePath(type.event_type_id)}/days/${date}" class="sched-form" novalidate>${csrfField(ctx.csrf)}` +
    '<fieldset><legend>On this day</legend>' +
    radio('weekly', `Follow the weekly hours (${intervalsText(weekly)})`) +
    radio('closed', 'Closed all day') +
    radio('hours', 'Open at these hours') +
    `<div class="sched-stretches sched-day-hours" role="group" aria-label="Hours on this day">${stretchInputs('day_', 'This day', state.stretches, invalid, invalid ? 'f-hours-error' : '')}</div>` +
    fieldError('f-hours', state.problems, 'hours') +
    '<p class="hint">Hours count only with “Open at these hours”. An end of 00:00 is midnight at the end of the day.</p>' +
    '</fieldset>' +
    '<div class="buttons"><button type="submit" class="primary">Save day</button>' +
    `<a class="button" href="${eventTypePath(type.event_type_id)}?month=${date.slice(0, 7)}#overrides">Cancel</a></div>` +
    '</form></section>';
  return ctx.page(dayLabel(date), content, { status });
}

export function registerDateOverrideRoutes(scope: FastifyInstance, env: DashboardEnv): void {
  const path = '/app/scheduling/event-types/:event_type_id/days/:date';

  dashboardGet(scope, env, path, async (ctx) => {
    const { id, date } = params(ctx);
    if (!isDate(date)) return ctx.notFound('No such day', 'Days are written YYYY-MM-DD.');
    const answer = await ctx.call<EventType>('get_event_type', { event_type_id: id });
    if (!answer.ok)
      return answer.status === 404
        ? ctx.notFound('No such event type', 'This workspace has no event type with that id.')
        : ctx.refused(answer);
    return dayPage(ctx, answer.body, date, stateOf(answer.body, date));
  });

  dashboardPost(scope, env, path, async (ctx) => {
    const { id, date } = params(ctx);
    if (!isDate(date)) return ctx.notFound('No such day', 'Days are written YYYY-MM-DD.');
    const current = await ctx.call<EventType>('get_event_type', { event_type_id: id });
    if (!current.ok)
      return current.status === 404
        ? ctx.notFound('No such event type', 'This workspace has no event type with that id.')
        : ctx.refused(current);
    const mode: Mode = ctx.form.mode === 'closed' || ctx.form.mode === 'hours' ? ctx.form.mode : 'weekly';
    const stretches: { start: string; end: string }[] = [];
    for (let i = 0; i <= 12; i++) {
      const start = (ctx.form[`day_start_${i}`] ?? '').trim();
      const end = (ctx.form[`day_end_${i}`] ?? '').trim();
      if (start || end) stretches.push({ start, end });
    }
    if (mode === 'hours' && stretches.length === 0) {
      const all = [{ field: 'hours', problem: 'Give at least one stretch of hours, or choose “Closed all day”.' }];
      return dayPage(ctx, current.body, date, { mode, stretches, problems: { hours: [all[0]?.problem ?? ''] }, all }, 400);
    }
    const others = current.body.date_overrides.filter((o) => o.date !== date);
    const mine: DateOverride[] =
      mode === 'weekly'
        ? []
        : [{ date, hours: mode === 'closed' ? [] : stretches.map((s) => ({ start: s.start, end: s.end === '00:00' ? '24:00' : s.end })) }];
    const overrides = [...others, ...mine].sort((a, b) => a.date.localeCompare(b.date));
    const answer = await ctx.call<EventType>('update_event_type', { event_type_id: id, date_overrides: overrides });
    if (answer.ok) return ctx.redirect(`${eventTypePath(id)}?month=${date.slice(0, 7)}&done=day#overrides`);
    if (answer.status !== 400) return ctx.refused(answer);
    // Only this date changed, so every problem of the overrides is this day's.
    const { byControl, all } = problemsOf(answer, (field) => (field.startsWith('date_overrides') ? 'hours' : field));
    return dayPage(ctx, current.body, date, { mode, stretches, problems: byControl, all }, 400);
  });
}
