/**
 * PUT /uploads/{token}: where a direct upload's bytes go. Outside the API: the signed, expiring,
 * one-time URL is the credential. The body is streamed to the media store as it arrives (never held
 * in memory), must be exactly the declared size, and only one PUT per URL can succeed. CORS is open
 * so a browser can upload straight from a page. A store that is down answers 503 with Retry-After,
 * keeps nothing, and leaves the URL usable for the retry.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataAccess } from '../../../core/context.ts';
import { AppError } from '../../../core/errors.ts';
import { outageError } from '../../../core/pipeline/unavailable.ts';
import { claimUpload, finishUpload, reopenUpload } from '../../../domains/videos/index.ts';
import type { UploadTokenCheck } from '../../../media/media-links.ts';
import { type MediaStore, MediaStoreUnavailableError, UploadSizeError } from '../../../storage/media-store.ts';
import { sendError } from '../http/error-reply.ts';

export interface UploadTargetOptions {
  db: DataAccess;
  store: MediaStore;
  checkUploadToken(token: string, now: Date): UploadTokenCheck;
  clock: () => Date;
}

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'PUT, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '3600',
};

export async function registerUploadTarget(app: FastifyInstance, options: UploadTargetOptions): Promise<void> {
  await app.register(async (uploads) => {
    // Leave every body unread: the handler streams it to storage itself, whatever its type or size.
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_request, _payload, done) => done(null));
    uploads.options('/uploads/:token', async (_request, reply) => reply.code(204).headers(CORS).send());
    uploads.put('/uploads/:token', (request, reply) => receive(request, reply, options));
  });
}

async function receive(request: FastifyRequest, reply: FastifyReply, options: UploadTargetOptions) {
  reply.headers(CORS);
  const fail = (error: AppError) => sendError(request, reply, error);
  const token = (request.params as { token: string }).token;
  const check = options.checkUploadToken(token, options.clock());
  if (!check.ok) {
    return fail(
      check.reason === 'expired'
        ? new AppError('forbidden', `This upload URL expired at ${check.expiresAt?.toISOString()}. Create a new upload.`)
        : new AppError('forbidden', 'This upload URL is not valid: it was altered or was not issued by this service.'),
    );
  }
  const claim = await claimUpload(options.db, check.videoId, options.clock());
  if (!claim.claimed) {
    const messages = {
      receiving: 'A file is already being uploaded to this URL.',
      done: 'This upload URL has already been used.',
      expired: 'This upload URL has expired. Create a new upload.',
      missing: 'This upload no longer exists.',
    } as const;
    return fail(new AppError(claim.state === 'missing' ? 'not_found' : 'conflict', messages[claim.state]));
  }
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) !== claim.fileSize) {
    await reopenUpload(options.db, check.videoId);
    request.raw.resume();
    return fail(AppError.invalid([{ field: 'Content-Length', problem: `must be the declared file_size, ${claim.fileSize} bytes` }]));
  }
  try {
    await options.store.write({ workspaceId: claim.workspaceId, videoId: check.videoId, file: 'source' }, storeSide(request.raw), {
      exactly: claim.fileSize,
    });
  } catch (error) {
    dropRestOfBody(request, reply);
    await reopenUpload(options.db, check.videoId);
    if (error instanceof UploadSizeError) return fail(AppError.invalid([{ field: 'body', problem: error.message }]));
    const outage = error instanceof MediaStoreUnavailableError ? outageError(error) : undefined;
    if (outage) {
      request.log.warn({ err: error }, 'upload refused: media storage unavailable');
      return fail(outage);
    }
    request.log.warn({ err: error }, 'upload interrupted');
    return fail(AppError.invalid([{ field: 'body', problem: 'the transfer was interrupted; send the file again to the same URL' }]));
  }
  if (!(await finishUpload(options.db, { videoId: check.videoId, workspaceId: claim.workspaceId }, options.clock()))) {
    // Deleted while its file arrived: the file goes too, whether or not the deletion's own removal ran yet.
    await options.store.removeVideo({ workspaceId: claim.workspaceId, videoId: check.videoId }).catch((err: unknown) => {
      request.log.warn({ err, video: check.videoId }, 'the file of an upload whose video was deleted could not be removed');
    });
    return fail(new AppError('not_found', 'This upload no longer exists: its video was deleted.'));
  }
  return reply.code(200).send({ video_id: check.videoId, status: 'processing', bytes_received: claim.fileSize });
}

/**
 * The request body as the store gets it. A store destroys the body it was given when a write fails,
 * and destroying an unfinished request closes its connection; the request must outlive a store that
 * is down, to be read to its end and answered 503. A client that goes away mid-body still fails the
 * write.
 */
function storeSide(raw: IncomingMessage): Readable {
  const body = new PassThrough();
  raw.once('error', (error) => body.destroy(error));
  raw.once('close', () => {
    if (!raw.complete) body.destroy(new Error('The client closed the connection before the end of the body.'));
  });
  return raw.pipe(body);
}

/**
 * What is left of the body after a failed write: one of declared length (the file's size, checked
 * above) is read to its end and dropped, so the client gets the answer rather than a reset; a chunked
 * one, which could go on forever, is cut off with the connection once answered.
 */
function dropRestOfBody(request: FastifyRequest, reply: FastifyReply): void {
  request.raw.unpipe();
  if (request.headers['content-length'] !== undefined) request.raw.resume();
  else reply.header('Connection', 'close');
}
