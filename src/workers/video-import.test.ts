/**
 * Imports from a link, against a real loopback "public" server: a video becomes ready; a 404, a file
 * that is not a video, a redirect to the metadata address and (without the allow-list) the loopback
 * server itself all end failed with a reason the owner can read.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp, type TestApp } from '../../test/helpers/app.ts';
import { startJobWorker } from '../jobs/worker.ts';
import { parseCidr } from '../net/address-policy.ts';
import { videoImportHandler } from './video-import.ts';
import { videoProcessingHandler } from './video-processing.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures');
const clip = readFileSync(join(FIXTURES, 'clip.mp4'));
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

async function linkServer(t: TestContext): Promise<string> {
  const server = createServer((request, response) => {
    if (request.url === '/clip.mp4')
      return response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length }).end(clip);
    if (request.url === '/notes.mp4') return response.writeHead(200, { 'content-type': 'video/mp4' }).end('just some text');
    if (request.url === '/to-metadata') return response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    return response.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    // Keep-alive connections would hold close() open; nothing more is coming once the test is over.
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function withWorker(t: TestContext, harness: TestApp, allow: string[]) {
  const allowPrivateNetworks = allow.map(parseCidr);
  const worker = startJobWorker({
    db: harness.database.db,
    handlers: [
      videoProcessingHandler({ store: harness.mediaStore, ffmpegPath: null, log: quiet }),
      videoImportHandler({ store: harness.mediaStore, ffmpegPath: null, log: quiet, allowPrivateNetworks, maxBytes: 10 * 1024 * 1024 }),
    ],
    log: quiet,
    pollMs: 20,
  });
  t.after(() => worker.stop());
}

async function importAndWait(harness: TestApp, key: string, sourceUrl: string) {
  const created = await harness.request('POST', '/v1/videos', { token: key, body: { source_url: sourceUrl, tags: ['imported'] } });
  assert.equal(created.status, 201, created.raw);
  assert.equal(created.body.status, 'processing');
  for (let i = 0; i < 250; i++) {
    const video = (await harness.request('GET', `/v1/videos/${created.body.video_id}`, { token: key })).body;
    if (video.status !== 'processing') return video;
    await sleep(20);
  }
  throw new Error('the import never finished');
}

test('importing from a public link: ready, with the file probed and playable', async (t) => {
  const harness = await startTestApp(t);
  withWorker(t, harness, ['127.0.0.0/8']);
  const ws = await harness.workspace();
  const base = await linkServer(t);
  const video = await importAndWait(harness, ws.key, `${base}/clip.mp4`);
  assert.equal(video.status, 'ready', video.failure_reason);
  assert.deepEqual(
    [video.title, video.file_name, video.file_size, video.width, video.duration_seconds],
    ['clip', 'clip.mp4', clip.length, 320, 3],
  );
  assert.equal(video.source_url, `${base}/clip.mp4`);
  assert.deepEqual(await harness.eventTypes(ws.id), ['video.created', 'video.ready']);
});

test('imports that cannot succeed end failed with the reason', async (t) => {
  const harness = await startTestApp(t);
  withWorker(t, harness, ['127.0.0.0/8']);
  const ws = await harness.workspace();
  const base = await linkServer(t);
  const missing = await importAndWait(harness, ws.key, `${base}/missing.mp4`);
  assert.match(missing.failure_reason, /HTTP 404/);
  const text = await importAndWait(harness, ws.key, `${base}/notes.mp4`);
  assert.match(text.failure_reason, /not a video/);
  const metadata = await importAndWait(harness, ws.key, `${base}/to-metadata`);
  assert.equal(metadata.status, 'failed');
  assert.match(metadata.failure_reason, /could not be fetched/);
});

test('without the allow-list, a loopback link is refused by the SSRF guard; bad links are refused at once', async (t) => {
  const harness = await startTestApp(t);
  withWorker(t, harness, []);
  const ws = await harness.workspace();
  const base = await linkServer(t);
  const refused = await importAndWait(harness, ws.key, `${base}/clip.mp4`);
  assert.equal(refused.status, 'failed');
  assert.match(refused.failure_reason, /could not be fetched/);
  const oddName = await harness.request('POST', '/v1/videos', { token: ws.key, body: { source_url: `${base}/100%25%E0%A4%A.mp4` } });
  assert.equal(oddName.status, 201, oddName.raw);
  assert.equal(oddName.body.file_name, '100%25%E0%A4%A.mp4', 'a name that does not decode is kept as written');
  for (const source_url of ['ftp://example.com/a.mp4', 'file:///etc/passwd', 'https://user:pass@example.com/a.mp4', 'not a url at all']) {
    const res = await harness.request('POST', '/v1/videos', { token: ws.key, body: { source_url } });
    assert.equal(res.status, 400, source_url);
    assert.equal(res.body.error.details.errors[0].field, 'source_url');
  }
});
