/**
 * The public booking page (docs/scheduling.md, "Booking page"), outside /v1 and without a credential:
 * - GET /book/{event_type_id}: the page of an active event type of a workspace whose plan includes
 *   scheduling; anything else a friendly 404 page; an outage a 503 page.
 * - GET /book/{event_type_id}/slots?from&to: the offered slots of a window of at most 31 days, and
 *   nothing else (no reasons, nothing of other bookings: this is public).
 * - POST /book/{event_type_id}: books a slot through bookSlot, the one booking path create_booking
 *   takes too, so the same rules and the same 409 with the next offered slots (here without the
 *   reasons' sentences, which name bookings and calendars). Limited per client address, per browser
 *   and per email address.
 * - GET /booking-page.js: the page's script.
 * The JSON endpoints answer errors with the API's error body, as /collect and /leads/capture do.
 */

import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataAccess } from '../../../core/context.ts';
import { AppError } from '../../../core/errors.ts';
import type { RateLimiter } from '../../../core/pipeline/rate-limit.ts';
import { validateInput } from '../../../core/pipeline/validation.ts';
import { isUuid } from '../../../core/values/real-instants.ts';
import { recordAuditEvent } from '../../../domains/audit/index.ts';
import {
  type BookableEventType,
  bookSlot,
  findBookableEventType,
  offeredSlots,
  ownBookingSources,
  requireSchedulable,
  zonedIso,
} from '../../../domains/scheduling/index.ts';
import type { MediaLinks } from '../../../media/media-links.ts';
import type { AddressLimits } from '../http/address-limits.ts';
import { answerNoSoonerThan } from '../http/answer-floor.ts';
import { bodyTooLargeHandler } from '../http/error-reply.ts';
import { answerOutageWithPage, servePageScript } from '../http/page-serving.ts';
import { limitedWrite, type WriteLimit } from '../http/write-limits.ts';
import { BookingBody, SlotsQuery } from './booking-bodies.ts';
import { BOOKING_HEADERS, bookingPage, MISSING_BOOKING_PAGE, UNAVAILABLE_BOOKING_PAGE } from './booking-page-html.ts';

const BODY_LIMIT = 8 * 1024;
const DAY_MS = 86_400_000;
const DEFAULT_WINDOW_DAYS = 7;
/**
 * Bookings a minute. A person whose chosen time was just taken tries the next one or two; a script
 * booking a calendar full, or filling someone's inbox with calls, does not get far. The client
 * address's `bookings` limit comes first (http/address-limits.ts).
 */
export const BOOKING_LIMITS = { perViewer: 10, perEmail: 5 } as const;

/** Who the audit log says booked and canceled on the public pages: the service, for a visitor it does not name. */
export const BOOKING_PAGE_ACTOR = { kind: 'system', id: null, name: 'Booking page' } as const;

export interface BookingPageOptions {
  db: DataAccess;
  links: MediaLinks;
  rateLimiter: RateLimiter;
  addressLimits: AddressLimits;
  clock: () => Date;
  /** Milliseconds an accepted form is answered no sooner than (http/answer-floor.ts). */
  answerFloorMs: number;
}

export async function registerBookingPage(app: FastifyInstance, options: BookingPageOptions): Promise<void> {
  servePageScript(app, '/booking-page.js', 'booking-page.js');
  await app.register(async (pages) => {
    pages.setErrorHandler(answerOutageWithPage(() => ({ headers: BOOKING_HEADERS.notice, body: UNAVAILABLE_BOOKING_PAGE })));
    // A wildcard rather than :event_type_id, so that any malformed id, an over-long one too, gets the page.
    pages.get('/book/*', (request, reply) => renderPage(options, request, reply));
  });
  app.get('/book/:event_type_id/slots', (request, reply) => getSlots(options, request, reply));
  await app.register(async (booking) => {
    booking.setErrorHandler(bodyTooLargeHandler('A booking', BODY_LIMIT));
    booking.post('/book/:event_type_id', { bodyLimit: BODY_LIMIT }, (request, reply) => postBooking(options, request, reply));
  });
}

async function renderPage(options: BookingPageOptions, request: FastifyRequest, reply: FastifyReply) {
  const eventTypeId = (request.params as { '*': string })['*'];
  const eventType = await findBookableEventType(options.db, eventTypeId);
  if (!eventType) return reply.code(404).headers(BOOKING_HEADERS.notice).send(MISSING_BOOKING_PAGE);
  const query = request.query as Record<string, unknown>;
  // Where the viewer came from, when the link says so: the workspace's own video and route, or nothing,
  // so an edited link still books (a booking that sends anything else is refused).
  const idOrNull = (value: unknown) => (typeof value === 'string' && isUuid(value) ? value : null);
  const sources = await ownBookingSources(options.db, eventType.workspace_id, {
    videoId: idOrNull(query.video),
    routeId: idOrNull(query.route),
  });
  return reply
    .code(200)
    .headers(BOOKING_HEADERS.found)
    .send(
      bookingPage({
        event_type_id: eventType.id,
        name: eventType.name,
        duration_minutes: eventType.duration_minutes,
        location: eventType.location,
        video_id: sources.videoId,
        route_id: sources.routeId,
      }),
    );
}

/** The event type the JSON endpoints are about, or a 404 in the API's words. */
async function requireEventType(options: BookingPageOptions, request: FastifyRequest): Promise<BookableEventType> {
  const eventTypeId = (request.params as { event_type_id: string }).event_type_id;
  const eventType = await findBookableEventType(options.db, eventTypeId);
  if (!eventType) throw new AppError('not_found', 'This booking page is not available.');
  return eventType;
}

async function getSlots(options: BookingPageOptions, request: FastifyRequest, reply: FastifyReply) {
  const query = validateInput<SlotsQuery>(SlotsQuery, { ...(request.query as object) }, 'query');
  const eventType = await requireEventType(options, request);
  const now = options.clock();
  const from = query.from ? new Date(query.from) : now;
  const to = query.to ? new Date(query.to) : new Date(from.getTime() + DEFAULT_WINDOW_DAYS * DAY_MS);
  requireSchedulable({ from, to });
  const slots = await offeredSlots(options.db, eventType, { from, to, now });
  return reply
    .code(200)
    .header('Cache-Control', 'no-store')
    .send({
      event_type_id: eventType.id,
      from: from.toISOString(),
      to: to.toISOString(),
      slots: slots.map((slot) => ({ start: slot.start.toISOString(), end: slot.end.toISOString() })),
    });
}

async function postBooking(options: BookingPageOptions, request: FastifyRequest, reply: FastifyReply) {
  const arrived = performance.now();
  const body = validateInput<BookingBody>(BookingBody, request.body, 'json');
  const eventType = await requireEventType(options, request);
  const email = body.email.trim();
  const limits: WriteLimit[] = [
    options.addressLimits.of(request, 'bookings'),
    // The email hashed: rate-limit keys (in Redis) are no place for personal data.
    {
      bucket: `booking:email:${createHash('sha256').update(email.toLowerCase()).digest('hex')}`,
      limit: BOOKING_LIMITS.perEmail,
      tooMany: 'submissions',
    },
    ...(body.viewer_id ? [{ bucket: `booking:viewer:${body.viewer_id}`, limit: BOOKING_LIMITS.perViewer, tooMany: 'submissions' }] : []),
  ];
  const now = options.clock();
  let booked: Awaited<ReturnType<typeof bookSlot>>;
  try {
    booked = await limitedWrite(options.rateLimiter, limits, () =>
      options.db.transaction().execute(async (trx) => {
        const made = await bookSlot(trx, {
          workspaceId: eventType.workspace_id,
          eventTypeId: eventType.id,
          start: new Date(body.start),
          invitee: { email, name: body.name, phone: body.phone ?? null, timezone: body.timezone },
          from: { videoId: body.video_id ?? null, routeId: body.route_id ?? null, viewerId: body.viewer_id ?? null },
          now,
          author: 'booking page',
        });
        // The invitee is a lead: their address and browser are not recorded, only ids (docs/people.md).
        await recordAuditEvent(trx, {
          workspaceId: eventType.workspace_id,
          at: now,
          actor: BOOKING_PAGE_ACTOR,
          action: 'create_booking',
          object: { kind: 'booking', id: made.booking.id },
          origin: { transport: 'public' },
          details: { event_type_id: eventType.id, lead_id: made.leadId, outcome_id: made.outcomeId },
        });
        return made;
      }),
    );
  } catch (error) {
    throw publicError(error);
  }
  // As the lead forms answer: no sooner whether the address was a lead already or not.
  await answerNoSoonerThan(arrived, options.answerFloorMs);
  const { booking, secret } = booked;
  const zone = booking.invitee_timezone ?? eventType.time_zone;
  return reply
    .code(201)
    .header('Cache-Control', 'no-store')
    .send({
      booking_id: booking.id,
      status: booking.status,
      event_type: { event_type_id: eventType.id, name: eventType.name, duration_minutes: eventType.duration_minutes },
      location: eventType.location,
      start: booking.starts_at.toISOString(),
      end: booking.ends_at.toISOString(),
      timezone: zone,
      invitee_start: zonedIso(booking.starts_at, zone),
      invitee_end: zonedIso(booking.ends_at, zone),
      calendar_file_url: options.links.bookingCalendarFileUrl(booking.id, secret),
      cancel_url: options.links.bookingCancelUrl(booking.id, secret),
    });
}

/**
 * bookSlot's refusal, as the public may see it: a slot not offered keeps its reason codes and the
 * next offered slots, but not the sentences or the ids of the bookings in the way, which speak of
 * the workspace's other calls and calendars. An event type gone inactive meanwhile is not found.
 */
function publicError(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  if (error.code === 'not_found') return new AppError('not_found', 'This booking page is not available.');
  const details = error.details as
    | { reason?: string; reasons?: { code: string }[]; next_slots?: { start: string; end: string }[] }
    | undefined;
  if (error.code !== 'conflict') return error;
  if (details?.reason !== 'slot_not_offered') return new AppError('not_found', 'This booking page is not available.');
  const next = (details.next_slots ?? []).map((slot) => ({ start: slot.start, end: slot.end }));
  return new AppError('conflict', 'That time was just taken or is no longer open; here are the next ones.', {
    reason: 'slot_not_offered',
    reasons: [...new Set((details.reasons ?? []).map((reason) => reason.code))],
    next_slots: next,
  });
}
