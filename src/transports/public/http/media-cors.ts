/**
 * Players on other origins (an embed on a customer's site, hls.js fetching segments with XHR) may
 * read every /media answer: it is public by design, its URLs are unguessable, and no cookie is
 * involved. Range and the conditional headers are allowed in a preflight, and the headers a player
 * needs to seek and cache are exposed.
 */
import type { FastifyInstance } from 'fastify';

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Content-Length, Content-Range, Accept-Ranges, ETag, Last-Modified',
};

const PREFLIGHT = {
  ...CORS,
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Range, If-Range, If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since',
  'Access-Control-Max-Age': '86400',
};

/** Call inside the plugin that registers the /media routes: its answers, errors included, carry CORS. */
export function allowMediaFromAnyOrigin(media: FastifyInstance): void {
  media.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(CORS);
    return payload;
  });
  media.options('/media/*', async (_request, reply) => reply.code(204).headers(PREFLIGHT).send());
}
