/**
 * The service with its media in an S3-compatible store (s3rver, test/helpers/s3-server.ts), end to
 * end: a direct upload lands in the bucket, is processed to ready from there, and /media serves it
 * with Range, ETag and 304 (stream mode) or answers 302 to a presigned URL that works (redirect
 * mode). With the store down: /media and the upload PUT answer 503 with Retry-After, nothing is kept,
 * the same upload URL works once the store is back, and processing waits the outage out.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { testMediaLinks } from '../../../../test/helpers/events.ts';
import { urlOf } from '../../../../test/helpers/mcp-client.ts';
import { signIn } from '../../../../test/helpers/people.ts';
import { startS3Server } from '../../../../test/helpers/s3-server.ts';
import { createUpload, put, waitForStatus } from '../../../../test/helpers/uploads.ts';
import { startJobWorker } from '../../../job-queue/worker.ts';
import { createS3MediaStore } from '../../../storage/s3-media-store.ts';
import { videoProcessingHandler } from '../../../workers/video-processing.ts';

const clip = readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'clip.mp4'));
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

test('stream mode: an upload lands in the bucket, becomes ready, and /media serves it with Range, ETag and 304', async (t) => {
  const s3 = await startS3Server(t);
  const store = createS3MediaStore(s3.settings);
  const harness = await startTestApp(t, { isolated: true, mediaStore: store });
  const worker = startJobWorker({
    db: harness.database.db,
    handlers: [videoProcessingHandler({ store, ffmpegPath: null, log: quiet, links: testMediaLinks })],
    log: quiet,
    pollMs: 20,
  });
  harness.beforeClose(() => worker.stop());
  const ws = await harness.workspace();
  const upload = await createUpload(harness, ws.key, { file_name: 'clip.mp4', file_size: clip.length });
  assert.equal((await put(harness, upload.upload_url, clip)).status, 200);
  const key = { workspaceId: ws.id, videoId: upload.video_id, file: 'source' as const };
  assert.ok(
    s3.requests.some((r) => r.method === 'PUT' && r.path === `/${s3.settings.bucket}/${ws.id}/${upload.video_id}/source`),
    'the file went to the bucket',
  );
  const ready = await waitForStatus(harness, ws.key, upload.video_id, ['ready', 'failed']);
  assert.equal(ready.status, 'ready', ready.failure_reason);
  assert.deepEqual([ready.width, ready.height, ready.file_size], [320, 240, clip.length], 'probed from the copy the store made');

  const media = `${await urlOf(harness.app)}/media/${upload.video_id}`;
  const whole = await fetch(media);
  assert.equal(whole.status, 200);
  assert.equal(whole.headers.get('content-type'), 'video/mp4');
  assert.equal(whole.headers.get('etag'), (await store.stat(key))?.etag);
  assert.ok(Buffer.from(await whole.arrayBuffer()).equals(clip));
  const part = await fetch(media, { headers: { range: 'bytes=0-0' } });
  assert.equal(part.status, 206);
  assert.equal(part.headers.get('content-range'), `bytes 0-0/${clip.length}`);
  assert.ok(Buffer.from(await part.arrayBuffer()).equals(clip.subarray(0, 1)));
  const tail = await fetch(media, { headers: { range: 'bytes=-100' } });
  assert.ok(Buffer.from(await tail.arrayBuffer()).equals(clip.subarray(clip.length - 100)));
  const unchanged = await fetch(media, { headers: { 'if-none-match': whole.headers.get('etag') as string } });
  assert.equal(unchanged.status, 304);
});

test('store down: /media and the upload PUT answer 503 with Retry-After and keep nothing; once it is back the same URL works', async (t) => {
  const s3 = await startS3Server(t);
  const store = createS3MediaStore(s3.settings);
  const harness = await startTestApp(t, { mediaStore: store });
  const ws = await harness.workspace();
  const playing = await ws.addVideo({ status: 'ready', media_type: 'video/mp4', file_size: clip.length });
  await store.write({ workspaceId: ws.id, videoId: playing, file: 'source' }, Readable.from([clip]), { exactly: clip.length });
  const upload = await createUpload(harness, ws.key, { file_name: 'clip.mp4', file_size: clip.length });
  // Larger than a part: the store fails once the first part is full, with most of the body still to come.
  const large = Buffer.alloc(12 * 1024 * 1024, 7);
  const largeUpload = await createUpload(harness, ws.key, { file_name: 'large.mp4', file_size: large.length });
  const base = await urlOf(harness.app);

  await s3.stop();
  for (const headers of [{}, { range: 'bytes=100-199' }]) {
    const res = await fetch(`${base}/media/${playing}`, { headers });
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), '5');
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.deepEqual(
      [body.error.code, body.error.message],
      ['service_unavailable', 'Media storage is unavailable right now. Retry in a few seconds.'],
    );
  }
  for (const [url, body] of [
    [upload.upload_url, clip],
    [largeUpload.upload_url, large],
  ] as const) {
    const refused = await put(harness, url, body);
    assert.equal(refused.status, 503, `${body.length} bytes`);
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.equal(refused.body.error?.code, 'service_unavailable');
  }

  await s3.start();
  const key = { workspaceId: ws.id, videoId: upload.video_id, file: 'source' as const };
  assert.equal(await store.stat(key), undefined, 'the refused upload left nothing');
  const waiting = await harness.request('GET', `/v1/videos/${upload.video_id}`, { token: ws.key });
  assert.equal(waiting.body.status, 'waiting_upload');
  const accepted = await put(harness, upload.upload_url, clip);
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  assert.equal((await store.stat(key))?.size, clip.length);
  assert.equal((await put(harness, largeUpload.upload_url, large)).status, 200);
  assert.equal((await store.stat({ ...key, videoId: largeUpload.video_id }))?.size, large.length);
  assert.equal((await fetch(`${base}/media/${playing}`)).status, 200);
});

test('processing meets the store down: the job waits it out without using an attempt, and the video becomes ready', async (t) => {
  const s3 = await startS3Server(t);
  const store = createS3MediaStore(s3.settings);
  const harness = await startTestApp(t, { isolated: true, mediaStore: store });
  const ws = await harness.workspace();
  const upload = await createUpload(harness, ws.key, { file_name: 'clip.mp4', file_size: clip.length });
  assert.equal((await put(harness, upload.upload_url, clip)).status, 200);

  await s3.stop();
  const worker = startJobWorker({
    db: harness.database.db,
    handlers: [videoProcessingHandler({ store, ffmpegPath: null, log: quiet, links: testMediaLinks })],
    log: quiet,
    pollMs: 20,
    outageDelayMs: 50,
  });
  harness.beforeClose(() => worker.stop());
  const job = () => harness.database.db.selectFrom('jobs').selectAll().where('workspace_id', '=', ws.id).executeTakeFirstOrThrow();
  // More outages than the job has attempts (3): each is deferred, none is counted.
  let deferrals = 0;
  while (deferrals < 4) {
    const row = await job();
    if (row.status === 'queued' && row.last_error?.startsWith('Media storage is unavailable')) {
      deferrals++;
      assert.equal(row.attempts, 0, 'the attempt was given back');
      await harness.database.db.updateTable('jobs').set({ last_error: null }).where('id', '=', row.id).execute();
    }
    await sleep(10);
  }
  assert.equal((await harness.request('GET', `/v1/videos/${upload.video_id}`, { token: ws.key })).body.status, 'processing');

  await s3.start();
  const ready = await waitForStatus(harness, ws.key, upload.video_id, ['ready', 'failed']);
  assert.equal(ready.status, 'ready', ready.failure_reason);
  assert.deepEqual([(await job()).status, (await job()).attempts], ['succeeded', 1]);
});

test('redirect mode: /media answers 302 to a presigned URL that serves the file; cached for half its life, no body', async (t) => {
  const s3 = await startS3Server(t);
  const store = createS3MediaStore(s3.settings);
  const harness = await startTestApp(t, { mediaStore: store, mediaDelivery: { mode: 'redirect', urlSeconds: 300 } });
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ status: 'ready', media_type: 'video/mp4', file_size: clip.length, has_poster: true });
  const poster = Buffer.from('a poster, as far as this test cares');
  await store.write({ workspaceId: ws.id, videoId, file: 'source' }, Readable.from([clip]), { exactly: clip.length });
  await store.write({ workspaceId: ws.id, videoId, file: 'poster.jpg' }, Readable.from([poster]), { exactly: poster.length });
  const base = await urlOf(harness.app);

  const requestsBefore = s3.requests.length;
  const redirect = await fetch(`${base}/media/${videoId}`, { redirect: 'manual' });
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.get('cache-control'), 'private, max-age=150');
  assert.equal(await redirect.text(), '');
  assert.equal(s3.requests.length, requestsBefore, 'a redirect costs the store no request');
  const location = redirect.headers.get('location') as string;
  assert.ok(location.startsWith(`${s3.settings.endpoint}/${s3.settings.bucket}/${ws.id}/${videoId}/source?`), location);
  assert.match(location, /X-Amz-Expires=300&/);

  const followed = await fetch(`${base}/media/${videoId}`, { headers: { range: 'bytes=100-199' } });
  assert.equal(followed.status, 206, 'the Range goes along the redirect to the store');
  assert.equal(followed.headers.get('content-type'), 'video/mp4');
  assert.ok(Buffer.from(await followed.arrayBuffer()).equals(clip.subarray(100, 200)));
  const image = await fetch(`${base}/media/${videoId}/poster.jpg`);
  assert.equal(image.headers.get('content-type'), 'image/jpeg');
  assert.ok(Buffer.from(await image.arrayBuffer()).equals(poster));

  // The pages' policy lets the redirected media, posters and hls.js's requests land on the store.
  const page = await fetch(`${base}/watch/${videoId}`);
  assert.equal(page.status, 200);
  const policy = page.headers.get('content-security-policy') ?? '';
  const storeOrigin = new URL(s3.settings.endpoint as string).origin;
  for (const directive of ['media-src', 'img-src', 'connect-src']) {
    assert.match(policy, new RegExp(`${directive} [^;]*${storeOrigin.replaceAll('.', '\\.')}`), directive);
  }
  assert.doesNotMatch(policy, new RegExp(`script-src [^;]*${storeOrigin.replaceAll('.', '\\.')}`));
  // The dashboard's own player (a video's page) plays the same redirected media under the same policy.
  const owner = await ws.addMember({ role: 'owner', password: 'correct horse battery staple' });
  const videoPage = await (await signIn(harness.app, owner.email, 'correct horse battery staple')).get(`/app/videos/${videoId}`);
  assert.equal(videoPage.statusCode, 200);
  assert.match(videoPage.body, new RegExp(`<video[^>]* src="/media/${videoId}`));
  assert.match(String(videoPage.headers['content-security-policy']), new RegExp(`media-src [^;]*${storeOrigin.replaceAll('.', '\\.')}`));

  // The servable-video checks come first: nothing is signed for an archived video.
  await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { archived: true } });
  assert.equal((await fetch(`${base}/media/${videoId}`, { redirect: 'manual' })).status, 404);
});
