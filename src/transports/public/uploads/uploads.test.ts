/**
 * Direct uploads end to end: create_video_upload → PUT the real file → processing → ready → the
 * file streams back with Range. Plus the safety rules of the one-time URL (single use under 20
 * concurrent PUTs, tampering, expiry, wrong sizes), a file that is not a video, and the plan quota.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { urlOf } from '../../../../test/helpers/mcp-client.ts';
import { createUpload, put, waitForStatus, withProcessingWorker as withWorker } from '../../../../test/helpers/uploads.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures');
const clip = readFileSync(join(FIXTURES, 'clip.mp4'));
const notVideo = readFileSync(join(FIXTURES, 'not-a-video.mp4'));

test('upload a real file: waiting_upload → processing → ready, then Range requests return the right bytes', async (t) => {
  const harness = await startTestApp(t, { isolated: true });
  withWorker(t, harness);
  const ws = await harness.workspace();
  const upload = await createUpload(harness, ws.key, { file_name: 'clip.mp4', file_size: clip.length, tags: ['demo'] });
  assert.match(upload.upload_url, /^http:\/\/localhost:3000\/uploads\//);
  assert.equal(upload.upload_headers['Content-Length'], String(clip.length));
  const waiting = await harness.request('GET', `/v1/videos/${upload.video_id}`, { token: ws.key });
  assert.deepEqual(
    [waiting.body.status, waiting.body.title, waiting.body.playback_url, waiting.body.watch_url],
    ['waiting_upload', 'clip', null, null],
  );

  const sent = await put(harness, upload.upload_url, clip);
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  assert.equal(sent.headers.get('access-control-allow-origin'), '*');
  const ready = await waitForStatus(harness, ws.key, upload.video_id, ['ready', 'failed']);
  assert.equal(ready.status, 'ready', ready.failure_reason);
  assert.equal(ready.duration_seconds, 3);
  assert.deepEqual([ready.width, ready.height, ready.file_size], [320, 240, clip.length]);
  assert.equal(ready.playback_url, `http://localhost:3000/media/${upload.video_id}`);
  assert.equal(ready.watch_url, `http://localhost:3000/watch/${upload.video_id}`);
  assert.equal(ready.embed_url, `http://localhost:3000/embed/${upload.video_id}`);

  const base = await urlOf(harness.app);
  const whole = await fetch(`${base}/media/${upload.video_id}`);
  assert.equal(whole.status, 200);
  assert.equal(whole.headers.get('content-type'), 'video/mp4');
  assert.equal(whole.headers.get('accept-ranges'), 'bytes');
  assert.ok(Buffer.from(await whole.arrayBuffer()).equals(clip));
  const part = await fetch(`${base}/media/${upload.video_id}`, { headers: { range: 'bytes=100-199' } });
  assert.equal(part.status, 206);
  assert.equal(part.headers.get('content-range'), `bytes 100-199/${clip.length}`);
  assert.ok(Buffer.from(await part.arrayBuffer()).equals(clip.subarray(100, 200)));
  const tail = await fetch(`${base}/media/${upload.video_id}`, { headers: { range: 'bytes=-10' } });
  assert.ok(Buffer.from(await tail.arrayBuffer()).equals(clip.subarray(clip.length - 10)));
  assert.equal((await fetch(`${base}/media/${upload.video_id}`, { headers: { range: `bytes=${clip.length + 5}-` } })).status, 416);

  assert.deepEqual(await harness.eventTypes(ws.id), ['video.created', 'video.ready']);

  await harness.request('PATCH', `/v1/videos/${upload.video_id}`, { token: ws.key, body: { archived: true } });
  assert.equal((await fetch(`${base}/media/${upload.video_id}`)).status, 404, 'archived videos are not served');
});

test('an upload URL works once: of 20 concurrent PUTs exactly one succeeds; reuse is refused', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const upload = await createUpload(harness, ws.key, { file_name: 'clip.mp4', file_size: clip.length });
  const results = await Promise.all(Array.from({ length: 20 }, () => put(harness, upload.upload_url, clip)));
  assert.deepEqual(results.map((r) => r.status).sort(), [200, ...Array(19).fill(409)]);
  const again = await put(harness, upload.upload_url, clip);
  assert.equal(again.status, 409);
  assert.match(again.body.error?.message ?? '', /already been used/);
});

test('tampered and expired URLs, and bodies of the wrong size, are refused; a failed transfer can be retried', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const upload = await createUpload(harness, ws.key, { file_name: 'clip.mp4', file_size: clip.length });
  const url = new URL(upload.upload_url);
  const [videoId, expiry, signature] = url.pathname.slice('/uploads/'.length).split('.') as [string, string, string];
  // The altered signature must differ from the real one whatever its last character is.
  const altered = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
  for (const forged of [`${videoId}.${Number(expiry) + 3600}.${signature}`, `${videoId}.${expiry}.${altered}`, 'garbage']) {
    const res = await put(harness, `http://localhost/uploads/${forged}`, clip);
    assert.equal(res.status, 403, forged);
    assert.equal(res.body.error?.code, 'forbidden');
  }
  const tooBig = await put(harness, upload.upload_url, Buffer.concat([clip, Buffer.from('extra')]));
  assert.equal(tooBig.status, 400);
  assert.match(tooBig.body.error?.message ?? '', /Content-Length/);
  const ok = await put(harness, upload.upload_url, clip);
  assert.equal(ok.status, 200, 'the URL stays usable after a refused attempt');

  // The same URL presented two hours later (an app with the same secret and a later clock).
  const late = await startTestApp(t, { clock: () => new Date(Date.now() + 2 * 3600_000) });
  const stale = await createUpload(harness, ws.key, { file_name: 'b.mp4', file_size: clip.length });
  const expired = await put(late, stale.upload_url, clip);
  assert.equal(expired.status, 403);
  assert.match(expired.body.error?.message ?? '', /expired/);
});

test('a file that is not a video ends failed with a reason readable through get_video', async (t) => {
  const harness = await startTestApp(t, { isolated: true });
  withWorker(t, harness);
  const ws = await harness.workspace();
  const upload = await createUpload(harness, ws.key, { file_name: 'notes.mp4', file_size: notVideo.length, title: 'Not really' });
  assert.equal((await put(harness, upload.upload_url, notVideo)).status, 200);
  const failed = await waitForStatus(harness, ws.key, upload.video_id, ['ready', 'failed']);
  assert.equal(failed.status, 'failed');
  assert.match(failed.failure_reason, /not a video/);
  assert.deepEqual(await harness.eventTypes(ws.id), ['video.created', 'video.failed']);
});

test('create_video_upload validates its input and enforces the plan’s video quota', async (t) => {
  const harness = await startTestApp(t, { maxUploadBytes: 1000 });
  const ws = await harness.workspace('free');
  const bad = await harness.request('POST', '/v1/videos/uploads', { token: ws.key, body: { file_name: '../etc/passwd', file_size: 0 } });
  assert.deepEqual(bad.body.error.details.errors.map((e: { field: string }) => e.field).sort(), ['file_name', 'file_size']);
  const large = await harness.request('POST', '/v1/videos/uploads', { token: ws.key, body: { file_name: 'big.mp4', file_size: 1001 } });
  assert.match(large.body.error.message, /at most 1000 bytes/);
  for (let i = 0; i < 25; i++) await ws.addVideo();
  const over = await harness.request('POST', '/v1/videos/uploads', { token: ws.key, body: { file_name: 'one-more.mp4', file_size: 10 } });
  assert.equal(over.status, 403);
  assert.equal(over.body.error.code, 'plan_limit');
  assert.equal(over.body.error.details.entitlement, 'videos.max');
});
