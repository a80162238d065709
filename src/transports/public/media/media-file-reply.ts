/**
 * Answers a GET (or HEAD) with a stored media file from any store: conditional requests (ETag,
 * Last-Modified, If-None-Match, If-Match, If-Range: conditional-request.ts), the Range header read
 * strictly (byte-range.ts), and the bytes streamed from the store; or, in the `redirect` delivery
 * mode, a 302 to the store's presigned URL for the file. Every failure is the documented JSON error
 * body; a store that is down is a 503 with Retry-After, like a database outage.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../core/errors.ts';
import { outageError } from '../../../core/pipeline/unavailable.ts';
import type { MediaDelivery, MediaKey, MediaStore } from '../../../storage/media-store.ts';
import { resolveByteRange } from '../http/byte-range.ts';
import { evaluatePreconditions, rangeIsCurrent } from '../http/conditional-request.ts';
import { sendError } from '../http/error-reply.ts';

export interface MediaFileReply {
  store: MediaStore;
  key: MediaKey;
  contentType: string;
  /** How long browsers and CDNs may keep it (each kind of file has its own: media.ts). */
  cacheControl: string;
  /** The 404 message when the file is not there, e.g. "No such poster." */
  missing: string;
  /** Stream (the default) or redirect to the store's presigned URL. */
  delivery?: MediaDelivery;
}

export async function replyWithMediaFile(request: FastifyRequest, reply: FastifyReply, file: MediaFileReply) {
  try {
    return await answer(request, reply, file);
  } catch (error) {
    const outage = outageError(error);
    if (!outage) throw error;
    request.log.warn({ err: error, file: file.key.file }, 'media store unavailable');
    return fail(request, reply, outage);
  }
}

async function answer(request: FastifyRequest, reply: FastifyReply, file: MediaFileReply) {
  const redirect = await redirectTarget(file);
  if (redirect) {
    // Cached for half the URL's life, so a browser that reuses the redirect still gets a URL with
    // time to run: a video's later Range requests follow the same redirect.
    const seconds = Math.floor(redirect.urlSeconds / 2);
    return reply.code(302).header('Location', redirect.url).header('Cache-Control', `private, max-age=${seconds}`).send();
  }
  const stored = await file.store.stat(file.key);
  if (!stored) return fail(request, reply, new AppError('not_found', file.missing));
  reply.header('ETag', stored.etag).header('Last-Modified', stored.lastModified.toUTCString()).header('Accept-Ranges', 'bytes');
  const precondition = evaluatePreconditions(request.headers, stored);
  if (precondition === 'failed') {
    return fail(
      request,
      reply,
      new AppError(
        'precondition_failed',
        'The file does not match If-Match or If-Unmodified-Since: it has changed since, or never had that ETag.',
      ),
    );
  }
  reply.header('Cache-Control', file.cacheControl);
  if (precondition === 'not_modified') return reply.code(304).send();

  // If-Range comes before Range (RFC 9110 §13.2.2): a stale one serves the whole file, whatever the Range.
  const range = rangeIsCurrent(request.headers['if-range'], stored)
    ? resolveByteRange(request.headers.range, stored.size)
    : { kind: 'whole' as const };
  if (range.kind === 'unsatisfiable') {
    return fail(
      request,
      reply,
      new AppError(
        'range_not_satisfiable',
        stored.size
          ? `The Range starts after the end of the file (${stored.size} bytes): ask for bytes from 0 to ${stored.size - 1}, or send no Range for the whole file.`
          : 'The file is empty, so no range of it exists: send no Range.',
        { size: stored.size },
        { 'Content-Range': `bytes */${stored.size}` },
      ),
    );
  }
  const span = range.kind === 'part' ? { start: range.start, end: range.end } : undefined;
  reply.header('Content-Type', file.contentType);
  if (span) reply.code(206).header('Content-Range', `bytes ${span.start}-${span.end}/${stored.size}`);
  reply.header('Content-Length', span ? span.end - span.start + 1 : stored.size);
  if (request.method === 'HEAD' || stored.size === 0) return reply.send();
  const body = await file.store.read(file.key, span);
  if (!body) return fail(request, reply, new AppError('not_found', file.missing)); // removed since the stat
  return reply.send(body);
}

/**
 * Where to redirect, in the redirect mode, when the store signs URLs. Playlists are always streamed:
 * their segment URIs are relative, and must resolve against the service, not the store. There is no
 * look at the store first: a redirect costs the store no request, and the servable-video checks
 * (the route's) already said the file should be there.
 */
async function redirectTarget(file: MediaFileReply): Promise<{ url: string; urlSeconds: number } | undefined> {
  if (file.delivery?.mode !== 'redirect' || file.key.file.endsWith('.m3u8')) return undefined;
  const url = await file.store.presignedUrl(file.key, file.delivery.urlSeconds, { contentType: file.contentType });
  return url === null ? undefined : { url, urlSeconds: file.delivery.urlSeconds };
}

function fail(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  reply.removeHeader('Cache-Control');
  return sendError(request, reply, error);
}
