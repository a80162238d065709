/**
 * The error handler of a public endpoint with its own, smaller body limit: a body over it is
 * `413 payload_too_large` naming that limit (the app's handler would name the API's 1 MiB);
 * everything else goes on to the app's handler.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody } from '../../../core/errors.ts';

export function bodyTooLargeHandler(what: string, limitBytes: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
    const tooLarge = new AppError('payload_too_large', `${what} must be at most ${limitBytes / 1024} KiB.`);
    return reply.code(tooLarge.status).send(errorBody(tooLarge, request.id));
  };
}
