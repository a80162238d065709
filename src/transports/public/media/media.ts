/**
 * The public media surface: GET /media/{video_id} (the file) and GET /media/{video_id}/poster.jpg
 * (its poster) of a ready, non-archived video, with Range requests (seeking), ETag and Last-Modified
 * (media-file-reply.ts). Video ids are unguessable; anything not ready, archived, or without a
 * poster is a plain 404, the same as an id that does not exist.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataAccess } from '../../../core/context.ts';
import { findServableVideo } from '../../../domains/videos/index.ts';
import type { MediaDelivery, MediaStore } from '../../../storage/media-store.ts';
import { sendNotFound } from '../http/error-reply.ts';
import { replyWithMediaFile } from './media-file-reply.ts';

// Short-lived public caching: archiving a video must take effect within minutes.
const ORIGINAL_CACHING = 'public, max-age=300';

export function registerMediaRoutes(app: FastifyInstance, options: { db: DataAccess; store: MediaStore; delivery?: MediaDelivery }): void {
  async function serve(request: FastifyRequest, reply: FastifyReply, file: 'source' | 'poster.jpg') {
    const videoId = (request.params as { video_id: string }).video_id;
    const video = await findServableVideo(options.db, videoId, (query) => query.select(['workspace_id', 'media_type', 'has_poster']));
    const missing = file === 'poster.jpg' ? 'No such poster.' : 'No such video.';
    if (!video || (file === 'poster.jpg' && !video.has_poster)) {
      return sendNotFound(request, reply, missing);
    }
    return replyWithMediaFile(request, reply, {
      store: options.store,
      key: { workspaceId: video.workspace_id, videoId, file },
      contentType: file === 'poster.jpg' ? 'image/jpeg' : (video.media_type ?? 'application/octet-stream'),
      cacheControl: ORIGINAL_CACHING,
      missing,
      delivery: options.delivery,
    });
  }
  app.get('/media/:video_id', (request, reply) => serve(request, reply, 'source'));
  app.get('/media/:video_id/poster.jpg', (request, reply) => serve(request, reply, 'poster.jpg'));
}
