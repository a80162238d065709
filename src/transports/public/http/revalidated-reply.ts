/**
 * A public text page that anyone may cache but must revalidate on each use (`no-cache`, unless the
 * caller allows a few seconds, as the HLS master playlist does), answered
 * 304 while the copy the client holds is still current. The ETag is a hash of the bytes, so any
 * change to what the page shows, and nothing else, makes a new one.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagListMatches } from './conditional-request.ts';

export function replyRevalidated(
  request: FastifyRequest,
  reply: FastifyReply,
  headers: Record<string, string>,
  body: string,
  cacheControl = 'public, no-cache',
) {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  reply.headers(headers).header('ETag', etag).header('Cache-Control', cacheControl);
  if (etagListMatches(request.headers['if-none-match'], etag, 'weak')) return reply.code(304).send();
  return reply.code(200).send(body);
}
