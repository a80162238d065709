/**
 * GET /media/{video_id}/captions.vtt: a public video's transcript as WebVTT, for the <track> of the
 * watch, embed and route players and of players on other sites. Served like the rest of the media
 * surface, for ready, non-archived videos only (anything else, and a video without a transcript, is
 * a plain 404), with an ETag and `no-cache`, so a replaced transcript or an archived video shows at
 * once while an unchanged file costs a 304. Browsers fetch a <track> from another site in CORS mode,
 * so the file is readable from any origin, as public as the video. Nothing is written.
 */
import type { FastifyInstance } from 'fastify';
import type { DataAccess } from '../../../core/context.ts';
import { captionSegments } from '../../../domains/transcripts/index.ts';
import { findServableVideo } from '../../../domains/videos/index.ts';
import { writeWebVtt } from '../../../media/webvtt-writer.ts';
import { sendNotFound } from '../http/error-reply.ts';
import { replyRevalidated } from '../http/revalidated-reply.ts';

const HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
};

export function registerCaptionsRoute(app: FastifyInstance, options: { db: DataAccess }): void {
  app.get('/media/:video_id/captions.vtt', async (request, reply) => {
    const videoId = (request.params as { video_id: string }).video_id;
    const video = await findServableVideo(options.db, videoId, (query) => query.select(['id', 'workspace_id']));
    const transcript = video ? await captionSegments(options.db, video.workspace_id, video.id) : undefined;
    if (!transcript) {
      return sendNotFound(request, reply.headers(HEADERS), 'No captions for this video.');
    }
    const headers = { ...HEADERS, 'Content-Type': 'text/vtt; charset=utf-8' };
    return replyRevalidated(request, reply, headers, writeWebVtt(transcript.segments));
  });
}
