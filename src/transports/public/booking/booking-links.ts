/**
 * The invitee's links to a booking (create_booking's calendar_file_url and cancel_url), outside /v1
 * and without a credential; each holds the booking's secret as `token`:
 * - GET /bookings/{booking_id}/invite.ics: the calendar file (booking-calendar-file.ts);
 * - GET /bookings/{booking_id}/cancel: a page showing the call and a Cancel button;
 * - POST /bookings/{booking_id}/cancel (a form: token, optional reason): cancels it like
 *   cancel_booking, canceled_by `invitee`, and shows the confirmation. Limited per client address,
 *   wrong secrets included; over the limit, a 429 page with Retry-After.
 * A wrong or missing token, or an unknown id, is a 404. The links keep working whatever the
 * workspace's plan: the call is the invitee's too.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataAccess } from '../../../core/context.ts';
import { AppError } from '../../../core/errors.ts';
import type { RateLimiter } from '../../../core/pipeline/rate-limit.ts';
import { recordAuditEvent } from '../../../domains/audit/index.ts';
import { bookingCalendarFile, cancelBooking, inviteeBooking } from '../../../domains/scheduling/index.ts';
import type { MediaLinks } from '../../../media/media-links.ts';
import type { AddressLimits } from '../http/address-limits.ts';
import { answerOutageWithPage } from '../http/page-serving.ts';
import { limitedWrite } from '../http/write-limits.ts';
import {
  CANCEL_HEADERS,
  CANCEL_UNAVAILABLE_PAGE,
  type CancelPageState,
  cancelPage,
  LINK_NOT_VALID_PAGE,
  tooManyCancelsPage,
} from './booking-cancel-page.ts';
import { BOOKING_PAGE_ACTOR } from './booking-page.ts';

const FORM_BODY_LIMIT = 4 * 1024;
const MAX_REASON = 500;

export interface BookingLinksOptions {
  db: DataAccess;
  links: MediaLinks;
  /** The service's public origin: its host is the calendar event's UID domain. */
  publicUrl: string;
  rateLimiter: RateLimiter;
  addressLimits: AddressLimits;
  clock: () => Date;
}

type Params = { booking_id: string };

const field = (source: unknown, name: string): string | undefined => {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

export async function registerBookingLinks(app: FastifyInstance, options: BookingLinksOptions): Promise<void> {
  const host = new URL(options.publicUrl).host;
  await app.register(async (links) => {
    links.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    links.setErrorHandler(answerOutageWithPage(() => ({ headers: CANCEL_HEADERS.notice, body: CANCEL_UNAVAILABLE_PAGE })));

    links.get('/bookings/:booking_id/invite.ics', async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
      const secret = field(request.query, 'token');
      const booking = await inviteeBooking(options.db, request.params.booking_id, secret);
      if (!booking || !secret) return reply.code(404).headers(CANCEL_HEADERS.notice).send(LINK_NOT_VALID_PAGE);
      const file = bookingCalendarFile(booking, { host, cancelUrl: options.links.bookingCancelUrl(booking.id, secret) });
      return reply
        .code(200)
        .header('Content-Type', 'text/calendar; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="invite.ics"')
        .header('Cache-Control', 'no-store')
        .header('Referrer-Policy', 'no-referrer')
        .header('X-Content-Type-Options', 'nosniff')
        .send(file);
    });

    links.get('/bookings/:booking_id/cancel', async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
      const secret = field(request.query, 'token');
      const booking = await inviteeBooking(options.db, request.params.booking_id, secret);
      if (!booking || !secret) return reply.code(404).headers(CANCEL_HEADERS.notice).send(LINK_NOT_VALID_PAGE);
      const state: CancelPageState =
        booking.status === 'canceled' ? 'already_canceled' : booking.starts_at.getTime() <= options.clock().getTime() ? 'started' : 'open';
      return reply
        .code(200)
        .headers(CANCEL_HEADERS.page)
        .send(cancelPage(booking, state, secret));
    });

    links.post(
      '/bookings/:booking_id/cancel',
      { bodyLimit: FORM_BODY_LIMIT },
      async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
        try {
          // Drawn before the secret is checked: guessing secrets is what this limit slows down.
          return await limitedWrite(options.rateLimiter, [options.addressLimits.of(request, 'booking_cancels')], () =>
            cancelAsInvitee(options, request, reply),
          );
        } catch (error) {
          // A person pressed a button on a page: the answer is a page too, saying when to try again.
          if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
          const seconds = (error.details as { retry_after_seconds: number }).retry_after_seconds;
          return reply.code(error.status).headers(CANCEL_HEADERS.notice).headers(error.headers).send(tooManyCancelsPage(seconds));
        }
      },
    );
  });
}

async function cancelAsInvitee(options: BookingLinksOptions, request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
  const secret = field(request.body, 'token') ?? field(request.query, 'token');
  const found = await inviteeBooking(options.db, request.params.booking_id, secret);
  if (!found || !secret) return reply.code(404).headers(CANCEL_HEADERS.notice).send(LINK_NOT_VALID_PAGE);
  const reason = field(request.body, 'reason')?.trim().slice(0, MAX_REASON) || null;
  const now = options.clock();
  let state: CancelPageState = 'canceled_now';
  try {
    await options.db.transaction().execute(async (trx) => {
      await cancelBooking(trx, { workspaceId: found.workspace_id, bookingId: found.id, by: 'invitee', reason, now });
      // Nothing of the invitee: not their reason (their words), not their address.
      await recordAuditEvent(trx, {
        workspaceId: found.workspace_id,
        at: now,
        actor: BOOKING_PAGE_ACTOR,
        action: 'cancel_booking',
        object: { kind: 'booking', id: found.id },
        origin: { transport: 'public' },
        details: { canceled_by: 'invitee' },
      });
    });
  } catch (error) {
    const why = error instanceof AppError ? (error.details as { reason?: string } | undefined)?.reason : undefined;
    if (why === 'already_canceled') state = 'already_canceled';
    else if (why === 'already_started') state = 'started';
    else throw error;
  }
  const booking = (await inviteeBooking(options.db, found.id, secret)) ?? found;
  return reply
    .code(200)
    .headers(CANCEL_HEADERS.page)
    .send(cancelPage(booking, state, secret));
}
