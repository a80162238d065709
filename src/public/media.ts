/**
 * GET /media/{video_id}: the file of a ready, non-archived video, with Range requests (seeking),
 * ETag and Last-Modified handled by @fastify/send. Video ids are unguessable; anything not ready or
 * archived is a plain 404, the same as an id that does not exist.
 */
import send from '@fastify/send';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError, errorBody } from '../core/errors.ts';
import type { Database } from '../db/tables.ts';
import type { MediaStore } from '../storage/media-store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function registerMediaRoutes(app: FastifyInstance, options: { db: Kysely<Database>; store: MediaStore }): void {
  app.get('/media/:video_id', async (request, reply) => {
    const videoId = (request.params as { video_id: string }).video_id;
    const video = UUID.test(videoId)
      ? await options.db
          .selectFrom('videos')
          .select(['workspace_id', 'media_type'])
          .where('id', '=', videoId)
          .where('status', '=', 'ready')
          .where('archived', '=', false)
          .executeTakeFirst()
      : undefined;
    if (!video) return reply.code(404).send(errorBody(new AppError('not_found', 'No such video.'), request.id));
    const path = options.store.pathOf({ workspaceId: video.workspace_id, videoId, file: 'source' });
    const { statusCode, headers, stream } = await send(request.raw, path, { dotfiles: 'allow', cacheControl: false });
    return (
      reply
        .code(statusCode)
        .headers(headers)
        .header('Content-Type', video.media_type ?? 'application/octet-stream')
        // Short-lived public caching: archiving a video must take effect within minutes.
        .header('Cache-Control', 'public, max-age=300')
        .send(stream)
    );
  });
}
