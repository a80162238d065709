/**
 * The HTML of the invitee's cancel page (GET and POST /bookings/{booking_id}/cancel): the call, its
 * time in the invitee's zone, and a form that posts back to the page itself (the only form target its
 * CSP allows). Every text from the database is escaped. The page's address holds the booking's
 * secret, so it is never sent on as a referrer.
 */
import type { InviteeBooking } from '../../../domains/scheduling/index.ts';
import { escapeHtml, htmlPage, NOTICE_STYLE, securityHeaders } from '../http/page-parts.ts';

export const CANCEL_PAGE_STYLE =
  'html{color-scheme:light dark}body{margin:0;font:16px/1.5 system-ui,sans-serif}main{max-width:32rem;margin:0 auto;padding:32px 16px}' +
  'h1{font-size:1.4rem;margin:0 0 16px}dl{margin:0 0 24px}dt{font-weight:600}dd{margin:0 0 8px;overflow-wrap:anywhere}' +
  'label{display:flex;flex-direction:column;gap:4px;margin:0 0 16px}textarea{font:inherit;padding:8px;border-radius:4px;border:1px solid #999}' +
  'button{font:inherit;min-height:44px;padding:10px 18px;border-radius:6px;border:0;background:#b91c1c;color:#fff;cursor:pointer}' +
  ':focus-visible{outline:3px solid #93c5fd;outline-offset:2px}p{margin:0 0 16px}';

function headersFor(css: string): Record<string, string> {
  const headers = securityHeaders('self', css);
  return {
    ...headers,
    // The form posts back here; nothing else is allowed.
    'Content-Security-Policy': (headers['Content-Security-Policy'] as string).replace("form-action 'none'", "form-action 'self'"),
    'Referrer-Policy': 'no-referrer',
  };
}

export const CANCEL_HEADERS = { page: headersFor(CANCEL_PAGE_STYLE), notice: headersFor(NOTICE_STYLE) };

/** "Tuesday 1 December 2026, 11:00 – 11:30 (Europe/Berlin)" */
function whenText(booking: InviteeBooking): string {
  const zone = booking.invitee_timezone ?? booking.event_type_zone;
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${day.format(booking.starts_at)}, ${time.format(booking.starts_at)} – ${time.format(booking.ends_at)} (${zone})`;
}

function callDetails(booking: InviteeBooking): string {
  const location = booking.event_type_location ? `<dt>Where</dt><dd>${escapeHtml(booking.event_type_location)}</dd>` : '';
  return `<dl><dt>Call</dt><dd>${escapeHtml(booking.event_type_name)}</dd><dt>When</dt><dd>${escapeHtml(whenText(booking))}</dd>${location}</dl>`;
}

const page = (title: string, body: string) => htmlPage(CANCEL_PAGE_STYLE, title, `<main>${body}</main>`);

export type CancelPageState = 'open' | 'canceled_now' | 'already_canceled' | 'started';

export function cancelPage(booking: InviteeBooking, state: CancelPageState, secret: string): string {
  const details = callDetails(booking);
  if (state === 'canceled_now')
    return page('Call canceled', `<h1>Your call is canceled</h1>${details}<p role="status">We have let the host know.</p>`);
  if (state === 'already_canceled')
    return page('Call canceled', `<h1>This call was already canceled</h1>${details}<p>There is nothing more to do.</p>`);
  if (state === 'started') {
    return page(
      'Call already started',
      `<h1>This call has already started</h1>${details}<p>It can no longer be canceled from this link.</p>`,
    );
  }
  const form =
    `<form method="post" action="/bookings/${escapeHtml(booking.id)}/cancel">` +
    `<input type="hidden" name="token" value="${escapeHtml(secret)}">` +
    '<label for="reason">Reason (optional)<textarea id="reason" name="reason" rows="3" maxlength="500"></textarea></label>' +
    '<button type="submit">Cancel the call</button></form>';
  return page('Cancel your call', `<h1>Cancel your call?</h1>${details}${form}`);
}

const notice = (title: string, heading: string, text: string) =>
  htmlPage(NOTICE_STYLE, title, `<main><h1>${heading}</h1><p>${text}</p></main>`);

export const LINK_NOT_VALID_PAGE = notice(
  'Booking not found',
  'This link is not valid',
  'The link may be incomplete: open it again from the message it came in.',
);
/** Over the per-address limit of cancellations (429). */
export function tooManyCancelsPage(retryAfterSeconds: number): string {
  return notice(
    'Too many tries',
    'Too many tries',
    `Too many cancellations were sent from your network. Please try again in ${retryAfterSeconds} seconds.`,
  );
}
export const CANCEL_UNAVAILABLE_PAGE = notice(
  'Temporarily unavailable',
  'This page is temporarily unavailable',
  'Please try again in a few moments.',
);
