/**
 * How every public surface answers an error, so a viewer's player, a form, Stripe and an uploader
 * all get the API's error body and status: an AppError as it is (with its headers, Retry-After
 * among them), a database or media store outage as `503 service_unavailable` with Retry-After, a
 * body over a surface's own limit as `413` naming that limit. Anything else is thrown on to the
 * app's handler (src/transports/rest/error-handling.ts), which logs it and answers `500`.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody } from '../../../core/errors.ts';
import { outageError } from '../../../core/pipeline/unavailable.ts';

/** Answers `error` with the common error body as JSON. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  return reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8').send(errorBody(error, request.id));
}

/** `404 not_found` with the surface's own message ("No such poster."). */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply, message: string): FastifyReply {
  return sendError(request, reply, new AppError('not_found', message));
}

/**
 * Answers what a public write threw: an AppError as it is; an outage as 503, logged with what was
 * not recorded (`lost`: the client sends it again after Retry-After). Rethrows anything else.
 */
export function sendFailure(request: FastifyRequest, reply: FastifyReply, error: unknown, lost: string): FastifyReply {
  if (error instanceof AppError) return sendError(request, reply, error);
  const outage = outageError(error);
  if (!outage) throw error;
  request.log.warn({ err: error }, `database unavailable; ${lost}`);
  return sendError(request, reply, outage);
}

/**
 * The error handler of a public endpoint with its own, smaller body limit: a body over it is
 * `413 payload_too_large` naming that limit (the app's handler would name the API's 1 MiB);
 * everything else goes on to the app's handler.
 */
export function bodyTooLargeHandler(what: string, limitBytes: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
    return sendError(request, reply, new AppError('payload_too_large', `${what} must be at most ${limitBytes / 1024} KiB.`));
  };
}
