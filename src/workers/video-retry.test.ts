/**
 * retry_video with the real workers: a failed import is downloaded again once its link works and
 * becomes ready; a failed upload is processed again from its stored file; a video that is not
 * failed, or whose uploaded file is gone, is a conflict; two retries at once queue one job.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { startTestApp, type TestApp } from '../../test/helpers/app.ts';
import { testMediaLinks } from '../../test/helpers/events.ts';
import { createUpload, put, waitForStatus } from '../../test/helpers/uploads.ts';
import { startJobWorker } from '../job-queue/worker.ts';
import { parseCidr } from '../net/address-policy.ts';
import { videoImportHandler } from './video-import.ts';
import { videoProcessingHandler } from './video-processing.ts';

const clip = readFileSync(join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'clip.mp4'));
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const allowPrivateNetworks = [parseCidr('127.0.0.0/8')];

/** A link that answers 404 until `fixed` is set, then serves the clip. */
async function flakyLink(t: TestContext) {
  const state = { fixed: false, requests: 0 };
  const server = createServer((_request, response) => {
    state.requests++;
    if (!state.fixed) return response.writeHead(404).end('not yet');
    return response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length }).end(clip);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/launch.mp4`, state };
}

/** The job worker claims every workspace's jobs: an app with one has a database of its own (isolated). */
async function appWithWorkers(t: TestContext): Promise<TestApp> {
  const harness = await startTestApp(t, { isolated: true, outbound: { allowPrivateNetworks, webhookTimeoutMs: 15_000 } });
  const worker = startJobWorker({
    db: harness.database.db,
    handlers: [
      videoProcessingHandler({ store: harness.mediaStore, ffmpegPath: null, log: quiet, links: testMediaLinks }),
      videoImportHandler({
        store: harness.mediaStore,
        ffmpegPath: null,
        log: quiet,
        links: testMediaLinks,
        allowPrivateNetworks,
        maxBytes: 10 * 1024 * 1024,
      }),
    ],
    log: quiet,
    pollMs: 20,
  });
  harness.beforeClose(() => worker.stop());
  return harness;
}

test('a failed import is downloaded again by retry_video and becomes ready', async (t) => {
  const harness = await appWithWorkers(t);
  const ws = await harness.workspace();
  const link = await flakyLink(t);
  const created = await harness.request('POST', '/v1/videos', { token: ws.key, body: { source_url: link.url } });
  assert.equal(created.status, 201, created.raw);
  const failed = await waitForStatus(harness, ws.key, created.body.video_id, ['failed', 'ready']);
  assert.equal(failed.status, 'failed');
  assert.match(failed.failure_reason, /HTTP 404/);

  link.state.fixed = true;
  const retried = await harness.request('POST', `/v1/videos/${created.body.video_id}/retry`, { token: ws.key, body: {} });
  assert.equal(retried.status, 200, retried.raw);
  assert.equal(retried.body.status, 'processing');
  assert.equal(retried.body.failure_reason, null);
  const ready = await waitForStatus(harness, ws.key, created.body.video_id, ['failed', 'ready']);
  assert.equal(ready.status, 'ready', ready.failure_reason);
  assert.deepEqual([ready.file_size, ready.duration_seconds], [clip.length, 3]);
  assert.equal(link.state.requests, 2, 'downloaded once more');
  assert.deepEqual(await harness.eventTypes(ws.id), ['video.created', 'video.failed', 'video.ready']);

  const again = await harness.request('POST', `/v1/videos/${created.body.video_id}/retry`, { token: ws.key, body: {} });
  assert.equal(again.status, 409, again.raw);
  assert.equal(again.body.error.code, 'conflict');
  assert.deepEqual(again.body.error.details, { reason: 'video_not_failed', status: 'ready' });
});

test('a failed upload is processed again from its stored file', async (t) => {
  const harness = await appWithWorkers(t);
  const ws = await harness.workspace();
  const notes = Buffer.from('these are meeting notes, not a video');
  const upload = await createUpload(harness, ws.key, { file_name: 'notes.mp4', file_size: notes.length });
  assert.equal((await put(harness, upload.upload_url, notes)).status, 200);
  const failed = await waitForStatus(harness, ws.key, upload.video_id, ['failed', 'ready']);
  assert.match(failed.failure_reason, /not a video/);

  const retried = await harness.request('POST', `/v1/videos/${upload.video_id}/retry`, { token: ws.key, body: {} });
  assert.equal(retried.status, 200, retried.raw);
  assert.equal(retried.body.status, 'processing');
  const again = await waitForStatus(harness, ws.key, upload.video_id, ['failed', 'ready']);
  assert.match(again.failure_reason, /not a video/, 'the same file, processed again, fails the same way');
  assert.deepEqual(await harness.eventTypes(ws.id), ['video.created', 'video.failed', 'video.failed']);
  const jobs = await harness.database.db
    .selectFrom('jobs')
    .select(['kind', 'status'])
    .where('workspace_id', '=', ws.id)
    .orderBy('created_at')
    .execute();
  assert.deepEqual(
    jobs.map((j) => j.kind),
    ['video.process', 'video.process'],
  );
});

test('retry_video refuses what cannot be retried: not failed, file gone, a link now refused; concurrent retries queue one job', async (t) => {
  // No worker here: a job finishing between two requests would make the second retry legitimately succeed.
  const harness = await startTestApp(t, { outbound: { allowPrivateNetworks, webhookTimeoutMs: 15_000 } });
  const ws = await harness.workspace();
  const retry = (id: string) => harness.request('POST', `/v1/videos/${id}/retry`, { token: ws.key, body: {} });

  for (const status of ['ready', 'processing', 'waiting_upload'] as const) {
    const res = await retry(await ws.addVideo({ status }));
    assert.equal(res.status, 409, `${status}: ${res.raw}`);
    assert.deepEqual(res.body.error.details, { reason: 'video_not_failed', status });
  }
  const gone = await ws.addVideo({ status: 'failed', failure_reason: 'Processing failed: disk full', file_name: 'talk.mp4' });
  const missing = await retry(gone);
  assert.equal(missing.status, 409, missing.raw);
  assert.equal(missing.body.error.details.reason, 'source_file_missing');
  assert.match(missing.body.error.message, /create_video_upload/);
  assert.equal((await harness.request('GET', `/v1/videos/${gone}`, { token: ws.key })).body.status, 'failed', 'left as it was');

  const refusedLink = await ws.addVideo({ status: 'failed', source_url: 'http://10.1.2.3/video.mp4', failure_reason: 'x' });
  const refused = await retry(refusedLink);
  assert.equal(refused.status, 409, refused.raw);
  assert.equal(refused.body.error.details.reason, 'source_url_refused');
  assert.match(refused.body.error.message, /private network address/);

  // Two retries at the same moment queue one import between them: the second finds the video processing.
  const twice = await ws.addVideo({
    status: 'failed',
    source_url: 'https://media.example.com/launch.mp4',
    failure_reason: 'The link answered HTTP 404.',
  });
  const answers = await Promise.all([retry(twice), retry(twice)]);
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409], answers.map((a) => a.raw).join('\n'));
  const jobs = await harness.database.db.selectFrom('jobs').select(['kind', 'payload']).where('workspace_id', '=', ws.id).execute();
  assert.equal(jobs.length, 1);
  assert.equal(jobs[0]?.kind, 'video.import');

  const other = await harness.workspace();
  const foreign = await harness.request('POST', `/v1/videos/${twice}/retry`, { token: other.key, body: {} });
  assert.equal(foreign.status, 404);
});
