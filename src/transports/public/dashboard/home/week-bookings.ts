/** The calls booked for the next seven days (list_bookings, upcoming), each at its time in the workspace's zone. */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatDateTime } from '../kit/formats.ts';

export interface UpcomingBooking {
  booking_id: string;
  start: string;
  event_type: { name: string } | null;
  invitee_name: string | null;
  invitee_email: string | null;
  lead_id: string | null;
}

const WEEK_MS = 7 * 24 * 3600 * 1000;

export function weekBookingsSection(bookings: UpcomingBooking[] | undefined, now: Date, timeZone: string): string {
  if (bookings === undefined) return '';
  const week = bookings.filter((booking) => new Date(booking.start).getTime() < now.getTime() + WEEK_MS);
  const body =
    week.length === 0
      ? '<p class="empty">No calls booked for the next seven days. Booking pages are under <a href="/app/scheduling">Scheduling</a>.</p>'
      : `<ul class="rows">${week
          .map((booking) => {
            const who = booking.invitee_name ?? booking.invitee_email ?? 'An erased invitee';
            const person = booking.lead_id ? `<a href="/app/leads/${escapeHtml(booking.lead_id)}">${escapeHtml(who)}</a>` : escapeHtml(who);
            return `<li><div>${person}<br><span class="meta">${escapeHtml(booking.event_type?.name ?? 'Call')}</span></div><span class="meta"><time datetime="${escapeHtml(booking.start)}">${escapeHtml(formatDateTime(booking.start, timeZone))}</time></span></li>`;
          })
          .join('')}</ul>`;
  return `<section aria-labelledby="bookings-heading"><h2 id="bookings-heading">This week’s calls</h2>${body}</section>`;
}
