/**
 * Answers a GET (or HEAD) with a stored media file: @fastify/send does the conditional requests
 * (ETag, Last-Modified, If-None-Match, If-Range) and the streaming; the Range header is resolved by
 * our strict reading (byte-range.ts) and handed to send in a form its loose parser cannot misread.
 * Every failure is the documented JSON error body, never send's HTML page under the file's type.
 */
import send from '@fastify/send';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody } from '../core/errors.ts';
import { resolveByteRange } from './byte-range.ts';

// Short-lived public caching: archiving a video must take effect within minutes.
const CACHE_CONTROL = 'public, max-age=300';
// Starts after the end of any file, so send answers it 416 whatever the size.
const NOTHING_SATISFIABLE = `bytes=${Number.MAX_SAFE_INTEGER}-`;

export interface MediaFileReply {
  /** Where the file is on disk. */
  path: string;
  contentType: string;
  /** The 404 message when the file is not there, e.g. "No such poster." */
  missing: string;
}

export async function replyWithMediaFile(request: FastifyRequest, reply: FastifyReply, file: MediaFileReply) {
  // send reads only the method and the headers of the request it is given: we give it the Range we
  // resolved, once the size is known (onFile runs after its stat, before it looks at Range).
  const headers: Record<string, string | string[] | undefined> = { ...request.raw.headers, range: undefined };
  let size: number | undefined;
  const result = await send({ method: request.raw.method, headers } as unknown as Parameters<typeof send>[0], file.path, {
    dotfiles: 'allow',
    cacheControl: false,
    contentType: false,
    onFile: (_path, stat) => {
      size = stat.size;
      const range = resolveByteRange(request.headers.range, stat.size);
      if (range.kind === 'part') headers.range = `bytes=${range.start}-${range.end}`;
      else if (range.kind === 'unsatisfiable') headers.range = NOTHING_SATISFIABLE;
    },
  });
  if (result.type !== 'error') {
    reply.code(result.statusCode).headers(result.headers).header('Cache-Control', CACHE_CONTROL);
    // A 304 has no body, so no Content-Type (send removed it); everything else is the file's type.
    if (result.statusCode !== 304) reply.header('Content-Type', file.contentType);
    return reply.send(result.stream);
  }
  result.stream.destroy();
  const error = failureOf(result.statusCode, file.missing, size);
  if (error.status >= 500) request.log.error({ err: result.metadata.error, path: file.path }, 'serving a media file failed');
  return reply.code(error.status).headers(error.headers).send(errorBody(error, request.id));
}

function failureOf(status: number, missing: string, size: number | undefined): AppError {
  switch (status) {
    case 404:
      return new AppError('not_found', missing);
    case 412:
      return new AppError(
        'precondition_failed',
        'The file does not match If-Match or If-Unmodified-Since: it has changed since, or never had that ETag.',
      );
    case 416:
      return new AppError(
        'range_not_satisfiable',
        size
          ? `The Range starts after the end of the file (${size} bytes): ask for bytes from 0 to ${size - 1}, or send no Range for the whole file.`
          : 'The file is empty, so no range of it exists: send no Range.',
        { size },
        { 'Content-Range': `bytes */${size}`, 'Accept-Ranges': 'bytes' },
      );
    default:
      return new AppError('internal', 'Something went wrong on our side; it has been logged. Retrying once is safe.');
  }
}
