/**
 * Weekly hours as one row per weekday, each open stretch a start and an end time (a day with a lunch
 * break has two). Every row has one empty stretch more, so a stretch is added without JavaScript; a day
 * with none filled in is closed. `<input type="time">` cannot say 24:00, so an end of 00:00 means
 * midnight at the end of the day.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { csrfField } from '../kit/page-route.ts';
import { fieldError, type Problems } from './form-problems.ts';
import { intervalsText, WEEKDAY_NAMES } from './hours-text.ts';
import type { Interval, Weekday } from './scheduling-types.ts';
import { WEEKDAYS } from './scheduling-types.ts';

/** The API allows 12 stretches a day. */
const MOST_STRETCHES = 12;

/** The form's rows: the hours as they are (or as typed), per weekday. */
export type HoursRows = Record<string, { start: string; end: string }[]>;

export function rowsOf(week: Record<Weekday, Interval[]>): HoursRows {
  return Object.fromEntries(WEEKDAYS.map((day) => [day, (week[day] ?? []).map((h) => ({ start: h.start, end: shownEnd(h.end) }))]));
}

export function shownEnd(end: string): string {
  return end === '24:00' ? '00:00' : end;
}

function sentEnd(end: string): string {
  return end === '00:00' ? '24:00' : end;
}

/** The rows as typed, in field order: `monday_start_0`, `monday_end_0`, … */
export function rowsFromForm(form: Record<string, string>, prefix = ''): HoursRows {
  const rows: HoursRows = {};
  for (const day of WEEKDAYS) {
    rows[day] = [];
    for (let i = 0; i <= MOST_STRETCHES; i++) {
      const start = (form[`${prefix}${day}_start_${i}`] ?? '').trim();
      const end = (form[`${prefix}${day}_end_${i}`] ?? '').trim();
      if (start !== '' || end !== '') rows[day].push({ start, end });
    }
  }
  return rows;
}

/** The operation's `weekly_hours`: every weekday, closed ones as []. */
export function weeklyHoursInput(rows: HoursRows): Record<Weekday, Interval[]> {
  return Object.fromEntries(
    WEEKDAYS.map((day) => [day, (rows[day] ?? []).map((r) => ({ start: r.start, end: sentEnd(r.end) }))]),
  ) as Record<Weekday, Interval[]>;
}

/** `weekly_hours.friday[0]` is shown on Friday's row. */
export function hoursControl(field: string): string {
  const match = /^weekly_hours\.(\w+)/.exec(field);
  return match?.[1] ?? (field.startsWith('weekly_hours') ? 'weekly_hours' : field);
}

/** Start and end inputs for a list of stretches, named `<prefix>start_<i>`; one empty stretch more. */
export function stretchInputs(
  namePrefix: string,
  label: string,
  stretches: { start: string; end: string }[],
  invalid: boolean,
  describedBy: string,
): string {
  const shown = [...stretches, { start: '', end: '' }].slice(0, MOST_STRETCHES);
  const attrs = `${invalid ? ' aria-invalid="true"' : ''}${describedBy ? ` aria-describedby="${describedBy}"` : ''}`;
  return shown
    .map((stretch, i) => {
      const which = i === 0 ? '' : `, stretch ${i + 1}`;
      const id = `${namePrefix}${i}`;
      return (
        `<span class="sched-stretch${i === stretches.length ? ' sched-extra' : ''}">` +
        `<label for="${id}-start"><span class="visually-hidden">${escapeHtml(label)}${which}, </span>from</label>` +
        `<input id="${id}-start" type="time" name="${namePrefix}start_${i}" value="${escapeHtml(stretch.start)}"${attrs}>` +
        `<label for="${id}-end"><span class="visually-hidden">${escapeHtml(label)}${which}, </span>to</label>` +
        `<input id="${id}-end" type="time" name="${namePrefix}end_${i}" value="${escapeHtml(stretch.end)}"${attrs}>` +
        '</span>'
      );
    })
    .join('');
}

export function weeklyHoursForm(options: { action: string; csrf: string; rows: HoursRows; problems: Problems }): string {
  const rows = WEEKDAYS.map((day) => {
    const invalid = Boolean(options.problems[day]?.length);
    const stretches = options.rows[day] ?? [];
    return (
      `<div class="sched-day-row" role="group" aria-labelledby="wh-${day}">` +
      `<span class="sched-day-name" id="wh-${day}">${WEEKDAY_NAMES[day]}</span>` +
      `<span class="sched-stretches">${stretchInputs(`${day}_`, WEEKDAY_NAMES[day], stretches, invalid, invalid ? `f-${day}-error` : '')}</span>` +
      `<span class="sched-day-state meta">${stretches.length === 0 ? 'Closed' : ''}</span>` +
      fieldError(`f-${day}`, options.problems, day) +
      '</div>'
    );
  }).join('');
  return (
    `<form method="post" action="${escapeHtml(options.action)}" class="sched-hours" novalidate>${csrfField(options.csrf)}` +
    '<p class="hint">Leave a day empty to close it. Fill the extra pair to add a stretch (a lunch break is two stretches). An end of 00:00 is midnight at the end of the day.</p>' +
    rows +
    fieldError('f-weekly_hours', options.problems, 'weekly_hours') +
    '<div class="buttons"><button type="submit" class="primary">Save weekly hours</button></div></form>'
  );
}

/** For people who may only read: the week as a table. */
export function weeklyHoursTable(week: Record<Weekday, Interval[]>): string {
  return (
    '<div class="table-scroll sched-scroll"><table><thead><tr><th scope="col">Day</th><th scope="col">Open</th></tr></thead><tbody>' +
    WEEKDAYS.map((day) => `<tr><th scope="row">${WEEKDAY_NAMES[day]}</th><td>${escapeHtml(intervalsText(week[day] ?? []))}</td></tr>`).join(
      '',
    ) +
    '</tbody></table></div>'
  );
}
