/**
 * POST /leads/capture: where the watch and embed pages' lead form submits. No API credential: the
 * page's viewing token names the video and the session, as for /collect, so a form can only be sent
 * for a video a page showed, and only while that video asks for it. Limited per client address,
 * per page view (token) and per browser (viewer id). The answer is the same 202 for a new email and a known one, and no
 * sooner than the answer floor (http/answer-floor.ts), so neither its content nor its timing tells whether an address is
 * already a lead.
 */
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import type { DataAccess } from '../../../core/context.ts';
import type { RateLimiter } from '../../../core/pipeline/rate-limit.ts';
import { validateInput } from '../../../core/pipeline/validation.ts';
import { Email, PersonName, Phone } from '../../../core/schemas.ts';
import { captureLead } from '../../../domains/leads/index.ts';
import type { ViewingTokens } from '../../../domains/viewing/index.ts';
import { ViewerIdField, ViewingTokenField } from '../../../domains/viewing/index.ts';
import type { AddressLimits } from '../http/address-limits.ts';
import { answerNoSoonerThan } from '../http/answer-floor.ts';
import { bodyTooLargeHandler } from '../http/error-reply.ts';
import { requireViewingToken } from '../http/viewing-token-check.ts';
import { limitedWrite, type WriteLimit } from '../http/write-limits.ts';

const BODY_LIMIT = 8 * 1024;
/**
 * Submissions a minute: a person retrying a typo stays well inside; a script filling forms does not.
 * Both forms also draw from their client address's `lead_forms` limit (http/address-limits.ts).
 */
export const CAPTURE_LIMITS = { perToken: 5, perViewer: 10 } as const;

/** The browser's limit, which the watch page's form and the route player's share. */
export function viewerSubmissionLimit(viewerId: string): WriteLimit {
  return { bucket: `lead-capture:viewer:${viewerId}`, limit: CAPTURE_LIMITS.perViewer, tooMany: 'submissions' };
}

export const LeadCaptureBody = Type.Object(
  {
    token: ViewingTokenField,
    viewer_id: ViewerIdField,
    email: Email('The viewer’s email address.'),
    first_name: Type.Optional(PersonName('First name, when the form asks it.')),
    last_name: Type.Optional(PersonName('Last name, when the form asks it.')),
    phone: Type.Optional(Phone('Phone number, when the form asks it.')),
  },
  { additionalProperties: false },
);
type LeadCaptureBody = Static<typeof LeadCaptureBody>;

export interface LeadCaptureOptions {
  db: DataAccess;
  viewingTokens: ViewingTokens;
  rateLimiter: RateLimiter;
  addressLimits: AddressLimits;
  clock: () => Date;
  /** Milliseconds an accepted submission is answered no sooner than (http/answer-floor.ts). */
  answerFloorMs: number;
}

export async function registerLeadCapture(app: FastifyInstance, options: LeadCaptureOptions): Promise<void> {
  await app.register(async (capture) => {
    capture.setErrorHandler(bodyTooLargeHandler('A form submission', BODY_LIMIT));
    capture.post('/leads/capture', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
      const arrived = performance.now();
      const body = validateInput<LeadCaptureBody>(LeadCaptureBody, request.body, 'json');
      const now = options.clock();
      const token = requireViewingToken(options.viewingTokens, body.token, now);
      const limits: WriteLimit[] = [
        options.addressLimits.of(request, 'lead_forms'),
        { bucket: `lead-capture:token:${token.sessionId}`, limit: CAPTURE_LIMITS.perToken, tooMany: 'submissions' },
        viewerSubmissionLimit(body.viewer_id),
      ];
      const { token: _token, viewer_id, ...fields } = body;
      await limitedWrite(options.rateLimiter, limits, () =>
        captureLead(options.db, { videoId: token.videoId, sessionId: token.sessionId, viewerId: viewer_id, fields, at: now }),
      );
      await answerNoSoonerThan(arrived, options.answerFloorMs);
      return reply.code(202).header('Cache-Control', 'no-store').send({ ok: true });
    });
  });
}
