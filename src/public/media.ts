/**
 * The public media surface: GET /media/{video_id} (the file) and GET /media/{video_id}/poster.jpg
 * (its poster) of a ready, non-archived video, with Range requests (seeking), ETag and Last-Modified
 * handled by @fastify/send. Video ids are unguessable; anything not ready, archived, or without a
 * poster is a plain 404, the same as an id that does not exist.
 */
import send from '@fastify/send';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError, errorBody } from '../core/errors.ts';
import type { Database } from '../db/tables.ts';
import type { MediaFile, MediaStore } from '../storage/media-store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Short-lived public caching: archiving a video must take effect within minutes.
const CACHE_CONTROL = 'public, max-age=300';

export function registerMediaRoutes(app: FastifyInstance, options: { db: Kysely<Database>; store: MediaStore }): void {
  async function serve(request: FastifyRequest, reply: FastifyReply, file: MediaFile) {
    const videoId = (request.params as { video_id: string }).video_id;
    const video = UUID.test(videoId)
      ? await options.db
          .selectFrom('videos')
          .select(['workspace_id', 'media_type', 'has_poster'])
          .where('id', '=', videoId)
          .where('status', '=', 'ready')
          .where('archived', '=', false)
          .executeTakeFirst()
      : undefined;
    if (!video || (file === 'poster.jpg' && !video.has_poster)) {
      const what = file === 'poster.jpg' ? 'No such poster.' : 'No such video.';
      return reply.code(404).send(errorBody(new AppError('not_found', what), request.id));
    }
    const path = options.store.pathOf({ workspaceId: video.workspace_id, videoId, file });
    const { statusCode, headers, stream } = await send(request.raw, path, { dotfiles: 'allow', cacheControl: false });
    const contentType = file === 'poster.jpg' ? 'image/jpeg' : (video.media_type ?? 'application/octet-stream');
    return reply.code(statusCode).headers(headers).header('Content-Type', contentType).header('Cache-Control', CACHE_CONTROL).send(stream);
  }
  app.get('/media/:video_id', (request, reply) => serve(request, reply, 'source'));
  app.get('/media/:video_id/poster.jpg', (request, reply) => serve(request, reply, 'poster.jpg'));
}
