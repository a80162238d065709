/**
 * The HTML of the booking page (GET /book/{event_type_id}): the event type's name, length and kind
 * of place, then three parts /booking-page.js fills and shows in turn: the day and time picker (in
 * the viewer's time zone, changeable), the details form, the confirmation. What the script needs is
 * a JSON data block, which no browser runs, so the CSP allows no inline script. And the short pages:
 * not available, temporarily unavailable.
 */
import { escapeHtml, htmlPage, NOTICE_STYLE, scriptJson, securityHeaders } from '../http/page-parts.ts';

// One column, phone first; every control at least 44 px tall (WCAG 2.5.5), focus always visible.
export const BOOKING_PAGE_STYLE =
  'html{color-scheme:light dark}body{margin:0;font:16px/1.5 system-ui,sans-serif}main{max-width:40rem;margin:0 auto;padding:24px 16px}' +
  'h1{font-size:1.5rem;margin:0 0 4px;overflow-wrap:anywhere}h2{font-size:1.15rem;margin:24px 0 8px}h3{font-size:1rem;margin:16px 0 8px}' +
  '.cp-facts{margin:0;opacity:.8}[hidden]{display:none!important}' +
  'label,.cp-field{display:flex;flex-direction:column;gap:2px;margin:0 0 12px;font-size:.95rem}.cp-field label{margin:0}' +
  'input,select{font:inherit;min-height:44px;padding:8px;border-radius:6px;border:1px solid #888;box-sizing:border-box;max-width:100%}' +
  'input[aria-invalid=true]{border-color:#d93025;outline:2px solid #d93025}' +
  'button{font:inherit;min-height:44px;padding:8px 14px;border-radius:6px;border:1px solid #888;background:transparent;color:inherit;cursor:pointer}' +
  '.cp-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(7.5rem,1fr));gap:8px}' +
  'button[aria-pressed=true]{background:#2563eb;border-color:#2563eb;color:#fff}' +
  'button[type=submit]{background:#2563eb;border-color:#2563eb;color:#fff;font-weight:600}' +
  '.cp-actions{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-top:8px}' +
  '.cp-status{min-height:1.5em;margin:8px 0}.cp-links{display:flex;flex-wrap:wrap;gap:12px}' +
  'a{color:#2563eb}@media (prefers-color-scheme:dark){a{color:#93c5fd}}' +
  ':focus-visible{outline:3px solid #93c5fd;outline-offset:2px}';

export const BOOKING_HEADERS = {
  found: securityHeaders('self', BOOKING_PAGE_STYLE),
  notice: securityHeaders('self', NOTICE_STYLE),
};

/** What the page says about where the call happens; the place itself comes with the confirmation. */
export type LocationKind = 'online' | 'phone' | 'in_person';

export function locationKind(location: string | null): LocationKind | null {
  const text = location?.trim();
  if (!text) return null;
  if (/^https?:\/\//i.test(text)) return 'online';
  if (/^\+?(?:[ ().-]*[0-9]){6,20}[ ().-]*$/.test(text)) return 'phone';
  return 'in_person';
}

const LOCATION_TEXT: Record<LocationKind, string> = {
  online: 'Online meeting (the link comes with your confirmation)',
  phone: 'Phone call',
  in_person: 'In person (the address comes with your confirmation)',
};

export function durationText(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const parts = [hours > 0 ? `${hours} hour${hours === 1 ? '' : 's'}` : '', rest > 0 ? `${rest} minute${rest === 1 ? '' : 's'}` : ''];
  return parts.filter(Boolean).join(' ');
}

export interface BookingPageData {
  event_type_id: string;
  name: string;
  duration_minutes: number;
  location: string | null;
  /** The video or route that led here (the page's ?video= and ?route=, kept when they are ids). */
  video_id: string | null;
  route_id: string | null;
}

export function bookingPage(data: BookingPageData): string {
  const kind = locationKind(data.location);
  const facts = [durationText(data.duration_minutes), kind ? LOCATION_TEXT[kind] : ''].filter(Boolean).map(escapeHtml).join(' · ');
  const { location: _location, ...shown } = data;
  const picker =
    `<section id="cp-pick" aria-labelledby="cp-pick-title"><h2 id="cp-pick-title">Pick a day and a time</h2>` +
    `<div class="cp-field"><label for="cp-zone">Times shown in</label><select id="cp-zone"></select></div>` +
    `<h3 id="cp-days-title">Days with open times</h3><div id="cp-days" class="cp-grid" role="group" aria-labelledby="cp-days-title"></div>` +
    `<div class="cp-actions"><button type="button" id="cp-more">Later dates</button></div>` +
    `<h3 id="cp-times-title" tabindex="-1" hidden></h3><div id="cp-times" class="cp-grid" role="group" aria-labelledby="cp-times-title"></div>` +
    `<p id="cp-pick-status" class="cp-status" role="status" aria-live="polite">Loading open times…</p></section>`;
  const input = (name: string, label: string, type: string, autocomplete: string, maxlength: number, required: boolean) =>
    `<label>${label}<input name="${name}" type="${type}" autocomplete="${autocomplete}" maxlength="${maxlength}"` +
    `${required ? ' required aria-required="true"' : ''} aria-describedby="cp-status"></label>`;
  const form =
    `<form id="cp-details" novalidate hidden aria-labelledby="cp-details-title"><h2 id="cp-details-title" tabindex="-1">Your details</h2>` +
    `<p id="cp-chosen"></p>` +
    input('name', 'Name', 'text', 'name', 200, true) +
    input('email', 'Email', 'email', 'email', 254, true) +
    input('phone', 'Phone (optional)', 'tel', 'tel', 32, false) +
    `<div id="cp-next" hidden><p>Here are the next open times:</p><div class="cp-grid"></div></div>` +
    `<p id="cp-status" class="cp-status" role="status" aria-live="polite"></p>` +
    `<div class="cp-actions"><button type="submit">Confirm booking</button><button type="button" id="cp-back">Pick another time</button></div></form>`;
  const done =
    `<section id="cp-done" hidden aria-labelledby="cp-done-title"><h2 id="cp-done-title" tabindex="-1">You are booked</h2>` +
    `<p id="cp-done-when"></p><p id="cp-done-where" hidden></p>` +
    `<p class="cp-links"><a id="cp-ics" href="#">Add to your calendar</a><a id="cp-cancel" href="#">Cancel this call</a></p></section>`;
  const body =
    `<main><h1>${escapeHtml(data.name)}</h1><p class="cp-facts">${facts}</p>${picker}${form}${done}` +
    `<noscript><p>This page needs JavaScript to show the open times.</p></noscript></main>` +
    `<script type="application/json" id="cp-booking">${scriptJson(shown)}</script><script src="/booking-page.js" defer></script>`;
  return htmlPage(BOOKING_PAGE_STYLE, `Book: ${data.name}`, body);
}

const notice = (title: string, heading: string, text: string) =>
  htmlPage(NOTICE_STYLE, title, `<main><h1>${heading}</h1><p>${text}</p></main>`);

export const MISSING_BOOKING_PAGE = notice(
  'Booking page not available',
  'This booking page is not available',
  'The link may be mistyped, or the call may no longer be offered.',
);
// A viewer's browser gets a page, not the API's JSON error, while the database is away.
export const UNAVAILABLE_BOOKING_PAGE = notice(
  'Booking page temporarily unavailable',
  'This booking page is temporarily unavailable',
  'Please try again in a few moments.',
);
