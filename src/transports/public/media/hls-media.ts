/**
 * The adaptive stream of a ready, non-archived video: GET /media/{video_id}/hls/master.m3u8 (made
 * from its ready renditions, so it grows as they finish) and GET
 * /media/{video_id}/hls/{rendition_id}/{index.m3u8 | seg-NNNNN.ts} (a ready rendition's files, from
 * the media store with Range, ETag and conditional requests). Caching follows what can change:
 * the master playlist for seconds, rendition playlists for a minute, segments for a year (a
 * rendition's files never change, and a new rendition has a new id). Anything else is a plain 404.
 */
import type { FastifyInstance } from 'fastify';
import type { DataAccess } from '../../../core/context.ts';
import { isUuid } from '../../../core/values/real-instants.ts';
import { findServableVideo, havingPlayableRendition, playableRenditions } from '../../../domains/videos/index.ts';
import { masterPlaylist } from '../../../media/hls-master-playlist.ts';
import { RENDITION_PLAYLIST, SEGMENT_FILE } from '../../../media/hls-rendition.ts';
import type { MediaStore } from '../../../storage/media-store.ts';
import { sendNotFound } from '../http/error-reply.ts';
import { replyRevalidated } from '../http/revalidated-reply.ts';
import { replyWithMediaFile } from './media-file-reply.ts';

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
const SEGMENT_TYPE = 'video/mp2t';
/** New renditions join the master playlist as they finish; archiving stops it within seconds. */
export const MASTER_PLAYLIST_CACHING = 'public, max-age=10';
export const RENDITION_PLAYLIST_CACHING = 'public, max-age=60';
export const SEGMENT_CACHING = 'public, max-age=31536000, immutable';

export function registerHlsRoutes(app: FastifyInstance, options: { db: DataAccess; store: MediaStore }): void {
  app.get('/media/:video_id/hls/master.m3u8', async (request, reply) => {
    const videoId = (request.params as { video_id: string }).video_id;
    const video = await findServableVideo(options.db, videoId, (query) => query.select('workspace_id'));
    const renditions = video ? await playableRenditions(options.db, videoId) : [];
    if (renditions.length === 0) return sendNotFound(request, reply, 'No adaptive stream for this video: play its original file.');
    return replyRevalidated(request, reply, { 'Content-Type': PLAYLIST_TYPE }, masterPlaylist(renditions), MASTER_PLAYLIST_CACHING);
  });

  app.get('/media/:video_id/hls/:rendition_id/:file', async (request, reply) => {
    const params = request.params as { video_id: string; rendition_id: string; file: string };
    const isPlaylist = params.file === RENDITION_PLAYLIST;
    if (!isUuid(params.rendition_id) || !(isPlaylist || SEGMENT_FILE.test(params.file))) {
      return sendNotFound(request, reply, 'No such file of this video.');
    }
    const renditionId = params.rendition_id.toLowerCase(); // store keys are written in lower case
    const video = await findServableVideo(options.db, params.video_id, (query) =>
      havingPlayableRendition(query, renditionId).select('workspace_id'),
    );
    if (!video) {
      return sendNotFound(request, reply, 'No such rendition.');
    }
    return replyWithMediaFile(request, reply, {
      store: options.store,
      key: { workspaceId: video.workspace_id, videoId: params.video_id, file: `hls/${renditionId}/${params.file}` },
      contentType: isPlaylist ? PLAYLIST_TYPE : SEGMENT_TYPE,
      cacheControl: isPlaylist ? RENDITION_PLAYLIST_CACHING : SEGMENT_CACHING,
      missing: 'No such file of this video.',
    });
  });
}
