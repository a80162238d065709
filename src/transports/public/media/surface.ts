/**
 * The media surface: originals, posters, HLS playlists and segments, captions. Files may be fetched
 * from any origin (an embed, hls.js); with redirect delivery, every page's Content-Security-Policy
 * also names the object store's origin, where the redirects land.
 */
import type { FastifyInstance } from 'fastify';
import type { MediaStore } from '../../../storage/media-store.ts';
import { allowMediaFromAnyOrigin } from '../http/media-cors.ts';
import { allowMediaOrigin } from '../http/page-parts.ts';
import type { PublicSurface } from '../surface.ts';
import { registerCaptionsRoute } from './captions.ts';
import { registerHlsRoutes } from './hls-media.ts';
import { registerMediaRoutes } from './media.ts';

export const mediaSurface: PublicSurface = {
  name: 'media',
  async register(app, deps) {
    if (deps.mediaDelivery.mode === 'redirect') await allowRedirectedMediaInPages(app, deps.mediaStore);
    await app.register(async (media) => {
      allowMediaFromAnyOrigin(media);
      registerMediaRoutes(media, { db: deps.db, store: deps.mediaStore, delivery: deps.mediaDelivery });
      registerHlsRoutes(media, { db: deps.db, store: deps.mediaStore });
    });
    registerCaptionsRoute(app, deps);
  },
};

/** An id no row has: the sample URL only shows where presigned URLs point. */
const NIL_ID = '00000000-0000-4000-8000-000000000000';

/** The store's origin comes from one presigned URL, made here once (signing is local). */
async function allowRedirectedMediaInPages(app: FastifyInstance, store: MediaStore): Promise<void> {
  const sample = await store.presignedUrl({ workspaceId: NIL_ID, videoId: NIL_ID, file: 'source' }, 60);
  if (!sample) return;
  const origin = new URL(sample).origin;
  app.addHook('onSend', async (_request, reply, payload) => {
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string') reply.header('Content-Security-Policy', allowMediaOrigin(policy, origin));
    return payload;
  });
}
