/**
 * The redirect delivery mode's one exception: HLS playlists are always streamed by the service (their
 * segment URIs are relative and must resolve against it), while the files they list are redirected
 * to the store's presigned URLs. Served from a real S3-protocol server (s3rver).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import Fastify from 'fastify';
import { startS3Server } from '../../../../test/helpers/s3-server.ts';
import type { MediaKey } from '../../../storage/media-store.ts';
import { createS3MediaStore } from '../../../storage/s3-media-store.ts';
import { replyWithMediaFile } from './media-file-reply.ts';

test('redirect mode: a playlist is streamed, a segment it lists is redirected to the store', async (t) => {
  const s3 = await startS3Server(t);
  const store = createS3MediaStore(s3.settings);
  const ids = { workspaceId: randomUUID(), videoId: randomUUID() };
  const rendition = randomUUID();
  const playlist = '#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg-00000.ts\n#EXT-X-ENDLIST\n';
  const files: Record<string, Buffer> = {
    'index.m3u8': Buffer.from(playlist),
    'seg-00000.ts': Buffer.from('a segment'),
  };
  for (const [name, bytes] of Object.entries(files)) {
    await store.write({ ...ids, file: `hls/${rendition}/${name}` }, Readable.from([bytes]), { exactly: bytes.length });
  }
  const app = Fastify();
  t.after(() => app.close());
  app.get('/hls/:name', (request, reply) => {
    const name = (request.params as { name: string }).name;
    const key: MediaKey = { ...ids, file: `hls/${rendition}/${name}` };
    return replyWithMediaFile(request, reply, {
      store,
      key,
      contentType: name.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t',
      cacheControl: 'public, max-age=60',
      missing: 'No such file.',
      delivery: { mode: 'redirect', urlSeconds: 60 },
    });
  });

  const list = await app.inject({ method: 'GET', url: '/hls/index.m3u8' });
  assert.equal(list.statusCode, 200);
  assert.equal(list.body, playlist);
  assert.equal(list.headers['content-type'], 'application/vnd.apple.mpegurl');

  const segment = await app.inject({ method: 'GET', url: '/hls/seg-00000.ts' });
  assert.equal(segment.statusCode, 302);
  assert.equal(segment.headers['cache-control'], 'private, max-age=30');
  const fetched = await fetch(String(segment.headers.location));
  assert.equal(fetched.headers.get('content-type'), 'video/mp2t');
  assert.equal(await fetched.text(), 'a segment');
});
