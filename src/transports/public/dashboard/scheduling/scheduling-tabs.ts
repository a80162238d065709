/**
 * The four parts of Scheduling, as tabs under the page title: every page of the area opens with them so
 * a person moves between event types, the explainer, bookings and calendars in one click.
 */
import { escapeHtml } from '../../http/page-parts.ts';

export type SchedulingTab = 'event-types' | 'availability' | 'bookings' | 'calendars';

const TABS: readonly { id: SchedulingTab; label: string; href: string }[] = [
  { id: 'event-types', label: 'Event types', href: '/app/scheduling' },
  { id: 'availability', label: 'Availability', href: '/app/scheduling/availability' },
  { id: 'bookings', label: 'Bookings', href: '/app/scheduling/bookings' },
  { id: 'calendars', label: 'Calendars', href: '/app/scheduling/calendars' },
];

export function schedulingTabs(current: SchedulingTab): string {
  return (
    '<nav class="tabs" aria-label="Scheduling">' +
    TABS.map((tab) => `<a href="${tab.href}"${tab.id === current ? ' aria-current="page"' : ''}>${escapeHtml(tab.label)}</a>`).join('') +
    '</nav>'
  );
}

/** The `?done=` notice after a write, in the words of the page that did it. */
export function doneNotice(done: string | undefined, notices: Record<string, string>): string {
  const text = done ? notices[done] : undefined;
  return text ? `<p class="notice" role="status">${escapeHtml(text)}</p>` : '';
}
