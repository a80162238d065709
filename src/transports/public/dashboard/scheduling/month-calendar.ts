/**
 * A month of an event type's open hours as a calendar: a server-rendered table, Monday first, each day
 * showing its hours (the weekly ones, or the date override's, marked) and, for people who may change
 * them, linking to that day's form. Past days are shown, not linked: an override there changes nothing.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { intervalsText, WEEKDAY_NAMES } from './hours-text.ts';
import { addMonths, dayLabel, monthLabel, monthWeeks, weekdayOf } from './local-days.ts';
import type { EventType } from './scheduling-types.ts';
import { WEEKDAYS } from './scheduling-types.ts';

export function monthCalendar(options: { type: EventType; month: string; today: string; editable: boolean }): string {
  const { type, month, today } = options;
  const overrides = new Map(type.date_overrides.map((o) => [o.date, o.hours]));
  const base = `/app/scheduling/event-types/${encodeURIComponent(type.event_type_id)}`;
  const head = WEEKDAYS.map(
    (day) => `<th scope="col"><abbr title="${WEEKDAY_NAMES[day]}">${WEEKDAY_NAMES[day].slice(0, 3)}</abbr></th>`,
  ).join('');
  const body = monthWeeks(month)
    .map(
      (week) =>
        `<tr>${week
          .map((date) => {
            if (!date) return '<td class="sched-out"></td>';
            const override = overrides.get(date);
            const hours = override ?? type.weekly_hours[weekdayOf(date)] ?? [];
            const text = intervalsText(hours);
            const classes = [
              hours.length === 0 ? 'sched-closed' : 'sched-open',
              override ? 'sched-override' : '',
              date === today ? 'sched-today' : '',
              date < today ? 'sched-past' : '',
            ].filter(Boolean);
            const said = `${dayLabel(date)}: ${text}${override ? ' (date override)' : ''}`;
            const inner =
              `<span class="sched-date" aria-hidden="true">${Number(date.slice(8))}</span>` +
              `<span class="sched-hours-text" aria-hidden="true">${escapeHtml(text)}</span>` +
              (override ? '<span class="sched-mark" aria-hidden="true">Override</span>' : '') +
              `<span class="visually-hidden">${escapeHtml(said)}</span>`;
            const cell =
              options.editable && date >= today
                ? `<a href="${base}/days/${date}">${inner}</a>`
                : `<span class="sched-cell">${inner}</span>`;
            return `<td class="${classes.join(' ')}"${date === today ? ' aria-current="date"' : ''}>${cell}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('');
  const previous = addMonths(month, -1);
  const next = addMonths(month, 1);
  return (
    '<div class="sched-month-nav">' +
    `<a class="button" href="${base}?month=${previous}#overrides" aria-label="Previous month, ${escapeHtml(monthLabel(previous))}">←</a>` +
    `<h3 id="month-heading">${escapeHtml(monthLabel(month))}</h3>` +
    `<a class="button" href="${base}?month=${next}#overrides" aria-label="Next month, ${escapeHtml(monthLabel(next))}">→</a>` +
    '</div>' +
    `<div class="table-scroll sched-scroll"><table class="sched-month" aria-labelledby="month-heading"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`
  );
}
