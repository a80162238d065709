/**
 * How the OAuth endpoints refuse (RFC 6749 §5.2, RFC 7591 §3.2.2): a JSON body of `error` and
 * `error_description` (every problem, in words), never cached. OAuth clients read these fields, not the
 * API's common error body. An outage is `503 temporarily_unavailable` with Retry-After; a limit spent is
 * `429` with Retry-After; anything else unexpected is thrown on to the app's handler (a logged 500).
 */
import type { FastifyReply } from 'fastify';
import { AppError } from '../../../core/errors.ts';
import { outageError } from '../../../core/pipeline/unavailable.ts';

export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

export function sendOAuthError(
  reply: FastifyReply,
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .code(status)
    .headers({ ...NO_STORE, ...headers })
    .type('application/json; charset=utf-8')
    .send({ error, error_description: description });
}

/** Answers a rate limit or an outage in OAuth's shape; rethrows anything else. */
export function sendOAuthFailure(reply: FastifyReply, thrown: unknown): FastifyReply {
  const appError = thrown instanceof AppError ? thrown : outageError(thrown);
  if (appError?.code === 'rate_limited') return sendOAuthError(reply, 429, 'rate_limited', appError.message, appError.headers);
  if (appError?.code === 'service_unavailable') {
    return sendOAuthError(reply, 503, 'temporarily_unavailable', appError.message, appError.headers);
  }
  throw thrown;
}
