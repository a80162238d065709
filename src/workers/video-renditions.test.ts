/**
 * The HLS ladder end to end: a 1080p upload is ready as soon as its 240p rendition is made, the others
 * follow from their own jobs, and the master playlist, rendition playlists and segments are served
 * with the caching, Range and CORS a player and a CDN need; ffmpeg's own HLS reader plays them back.
 * A source below 1080p gets no rung above itself; a rendition that fails leaves the video playing.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from '../../test/helpers/app.ts';
import { makeTestClip, testFfmpegPath } from '../../test/helpers/ffmpeg.ts';
import { urlOf } from '../../test/helpers/mcp-client.ts';
import { createUpload, put, type RenditionState, waitForLadder, waitForStatus, withProcessingWorker } from '../../test/helpers/uploads.ts';
import { probeMedia } from '../media/probe.ts';

async function workDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cuepoint-ladder-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function upload(harness: TestApp, key: string, file: Buffer) {
  const created = await createUpload(harness, key, { file_name: 'tour.mp4', file_size: file.length });
  assert.equal((await put(harness, created.upload_url, file)).status, 200);
  return created.video_id;
}

test('a 1080p upload: ready with its 240p rendition, then the whole ladder, served for players and CDNs', {
  timeout: 300_000,
}, async (t) => {
  const dir = await workDir(t);
  await makeTestClip(join(dir, 'source.mp4'), { width: 1920, height: 1080, seconds: 6 });
  const harness = await startTestApp(t, { isolated: true });
  const ws = await harness.workspace();
  const videoId = await upload(harness, ws.key, await readFile(join(dir, 'source.mp4')));
  withProcessingWorker(t, harness, testFfmpegPath);

  const ready = await waitForStatus(harness, ws.key, videoId, ['ready', 'failed'], 120_000);
  assert.equal(ready.status, 'ready', ready.failure_reason);
  const names = (ready.renditions as RenditionState[]).map((r) => `${r.name} ${r.width}x${r.height}`);
  assert.deepEqual(names, ['240p 426x240', '360p 640x360', '540p 960x540', '720p 1280x720', '1080p 1920x1080']);
  assert.equal(ready.renditions[0].state, 'ready', 'the lowest rendition is made before the video is ready');
  assert.equal(ready.hls_url, `http://localhost:3000/media/${videoId}/hls/master.m3u8`);

  const done = await waitForLadder(harness, ws.key, videoId);
  assert.deepEqual(
    done.renditions.map((r) => [r.state, r.failure_reason]),
    done.renditions.map(() => ['ready', null]),
  );
  assert.ok(
    done.renditions.every((r, i) => i === 0 || (r.bandwidth ?? 0) > (done.renditions[i - 1]?.bandwidth ?? 0)),
    'bit rates rise',
  );

  const base = await urlOf(harness.app);
  const master = await fetch(`${base}/media/${videoId}/hls/master.m3u8`);
  assert.equal(master.status, 200);
  assert.equal(master.headers.get('content-type'), 'application/vnd.apple.mpegurl');
  assert.equal(master.headers.get('cache-control'), 'public, max-age=10');
  assert.equal(master.headers.get('access-control-allow-origin'), '*');
  const etag = master.headers.get('etag');
  assert.ok(etag);
  const text = await master.text();
  assert.equal((await fetch(`${base}/media/${videoId}/hls/master.m3u8`, { headers: { 'if-none-match': etag } })).status, 304);
  const variants = [...text.matchAll(/#EXT-X-STREAM-INF:(.*)\n(.*)/g)].map(([, attributes, uri]) => ({ attributes, uri }));
  assert.equal(variants.length, 5);
  for (const [i, variant] of variants.entries()) {
    const rendition = done.renditions[i] as RenditionState;
    assert.match(
      variant.attributes ?? '',
      new RegExp(
        `^BANDWIDTH=${rendition.bandwidth},AVERAGE-BANDWIDTH=\\d+,RESOLUTION=${rendition.width}x${rendition.height},CODECS="avc1\\.4d00(20|2a),mp4a\\.40\\.2"$`,
      ),
    );
    assert.match(variant.uri ?? '', /^[0-9a-f-]{36}\/index\.m3u8$/);
  }

  // The 1080p rendition: its playlist, a segment with Range and the caching of something that never changes.
  const top = `${base}/media/${videoId}/hls/${variants[4]?.uri}`;
  const playlist = await fetch(top);
  assert.equal(playlist.headers.get('cache-control'), 'public, max-age=60');
  const playlistText = await playlist.text();
  assert.match(playlistText, /#EXT-X-PLAYLIST-TYPE:VOD/);
  assert.match(playlistText, /#EXT-X-ENDLIST/);
  const durations = [...playlistText.matchAll(/#EXTINF:([\d.]+)/g)].map(([, seconds]) => Number(seconds));
  assert.ok(
    durations.slice(0, -1).every((seconds) => seconds >= 3.9 && seconds <= 6.1),
    `segments of 4–6 s: ${durations}`,
  );
  const segmentUrl = new URL(/^seg-\d{5}\.ts$/m.exec(playlistText)?.[0] ?? 'missing', top).href;
  const segment = await fetch(segmentUrl);
  assert.equal(segment.status, 200);
  assert.equal(segment.headers.get('content-type'), 'video/mp2t');
  assert.equal(segment.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal(segment.headers.get('access-control-allow-origin'), '*');
  assert.ok(segment.headers.get('etag'));
  const segmentBytes = Buffer.from(await segment.arrayBuffer());
  const part = await fetch(segmentUrl, { headers: { range: 'bytes=188-375' } });
  assert.equal(part.status, 206);
  assert.deepEqual(Buffer.from(await part.arrayBuffer()), segmentBytes.subarray(188, 376));
  const preflight = await fetch(segmentUrl, {
    method: 'OPTIONS',
    headers: { origin: 'https://customer.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' },
  });
  assert.equal(preflight.status, 204);
  assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Range/);

  // What the segments hold is what the master playlist says, read by a real HLS reader (ffmpeg's).
  await writeFile(join(dir, 'segment.ts'), segmentBytes);
  const facts = await probeMedia(join(dir, 'segment.ts'));
  assert.deepEqual([facts.width, facts.height, facts.videoCodec, facts.audioCodec], [1920, 1080, 'AVC', 'AAC']);
  const { stderr } = await promisify(execFile)(testFfmpegPath, ['-nostdin', '-v', 'error', '-i', top, '-f', 'null', '-']);
  assert.equal(stderr, '', 'the 1080p rendition decodes without an error');

  // Not ready, not this video's, not a file a rendition has: 404. Archived: the stream is gone at once.
  for (const path of [
    `hls/${variants[0]?.uri?.slice(0, 36)}/seg-1.ts`,
    'hls/00000000-0000-4000-8000-000000000000/index.m3u8',
    'hls/x/index.m3u8',
  ]) {
    assert.equal((await fetch(`${base}/media/${videoId}/${path}`)).status, 404, path);
  }
  await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { archived: true } });
  assert.equal((await fetch(`${base}/media/${videoId}/hls/master.m3u8`)).status, 404);
  assert.equal((await fetch(top)).status, 404);
});

test('never above the source: a 320x240 upload gets one 240p rendition', { timeout: 120_000 }, async (t) => {
  const harness = await startTestApp(t, { isolated: true });
  const ws = await harness.workspace();
  const clip = await readFile(join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'clip.mp4'));
  const videoId = await upload(harness, ws.key, clip);
  withProcessingWorker(t, harness, testFfmpegPath);
  await waitForStatus(harness, ws.key, videoId, ['ready']);
  const done = await waitForLadder(harness, ws.key, videoId);
  assert.deepEqual(
    done.renditions.map((r) => [r.name, r.width, r.height, r.state]),
    [['240p', 320, 240, 'ready']],
  );
});

test('a rendition that fails is left out and named; the video plays on', { timeout: 180_000 }, async (t) => {
  const dir = await workDir(t);
  await makeTestClip(join(dir, 'source.mp4'), { width: 640, height: 360, seconds: 3, audio: false });
  // ffmpeg that refuses to make the 360p rung (a scale to 640x360), and does everything else.
  const picky = join(dir, 'ffmpeg');
  await writeFile(
    picky,
    `#!/bin/sh\ncase "$*" in *scale=640:360*) echo "encoder crashed" >&2; exit 1;; esac\nexec "${testFfmpegPath}" "$@"\n`,
  );
  await chmod(picky, 0o755);
  const harness = await startTestApp(t, { isolated: true });
  const ws = await harness.workspace();
  const videoId = await upload(harness, ws.key, await readFile(join(dir, 'source.mp4')));
  withProcessingWorker(t, harness, picky, { renditionRetryMs: 10 });
  await waitForStatus(harness, ws.key, videoId, ['ready']);
  const done = await waitForLadder(harness, ws.key, videoId);
  assert.deepEqual(
    done.renditions.map((r) => [r.name, r.state]),
    [
      ['240p', 'ready'],
      ['360p', 'failed'],
    ],
  );
  assert.match(done.renditions[1]?.failure_reason ?? '', /encoder crashed/);
  const base = await urlOf(harness.app);
  const master = await (await fetch(`${base}/media/${videoId}/hls/master.m3u8`)).text();
  assert.equal(
    [...master.matchAll(/#EXT-X-STREAM-INF:.*RESOLUTION=(\d+x\d+),CODECS="avc1\.4d0020"/g)].map(([, size]) => size).join(),
    '426x240',
  );
  assert.equal((await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).body.status, 'ready');
});
