/**
 * Imports from a link, against a real loopback "public" server: a video becomes ready; a 404, a file
 * that is not a video, a redirect to the metadata address and (without the allow-list) a name that
 * resolves to the loopback server all end failed with a reason the owner can read. A link written
 * with a refused IP address, in any spelling, is refused at once.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { requireIsolated, startTestApp, type TestApp } from '../../test/helpers/app.ts';
import { testMediaLinks } from '../../test/helpers/events.ts';
import { startJobWorker } from '../job-queue/worker.ts';
import { type Cidr, parseCidr } from '../net/address-policy.ts';
import { videoImportHandler } from './video-import.ts';
import { videoProcessingHandler } from './video-processing.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures');
const clip = readFileSync(join(FIXTURES, 'clip.mp4'));
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const LOOPBACK_ALLOWED: Cidr[] = [parseCidr('127.0.0.0/8')];

/**
 * An app whose import_video accepts what the worker will be allowed to fetch. The job worker claims
 * every workspace's jobs, so a test that runs one asks for a database of its own (isolated).
 */
function appAllowing(t: TestContext, allowPrivateNetworks: Cidr[], isolated = false) {
  return startTestApp(t, { isolated, outbound: { allowPrivateNetworks, webhookTimeoutMs: 15_000 } });
}

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
  requireIsolated(harness, 'The job worker');
  const allowPrivateNetworks = allow.map(parseCidr);
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
  t.after(() => worker.stop());
}

async function importAndWait(harness: TestApp, key: string, sourceUrl: string) {
  const created = await harness.request('POST', '/v1/videos', { token: key, body: { source_url: sourceUrl, tags: ['imported'] } });
  assert.equal(created.status, 201, created.raw);
  assert.equal(created.body.status, 'processing');
  // Polls for the outcome; the deadline is only a ceiling for a machine that has stalled.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const video = (await harness.request('GET', `/v1/videos/${created.body.video_id}`, { token: key })).body;
    if (video.status !== 'processing') return video;
    await sleep(20);
  }
  throw new Error('the import did not finish within 60 s');
}

test('importing from a public link: ready, with the file probed and playable', async (t) => {
  const harness = await appAllowing(t, LOOPBACK_ALLOWED, true);
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
  const harness = await appAllowing(t, LOOPBACK_ALLOWED, true);
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

test('without the allow-list, a name resolving to loopback fails in the worker; bad links are refused at once', async (t) => {
  const harness = await startTestApp(t, { isolated: true });
  withWorker(t, harness, []);
  const ws = await harness.workspace();
  const base = await linkServer(t);
  const port = new URL(base).port;
  // `localhost` is a name: only resolving it shows where it leads, and that is the worker's check.
  const refused = await importAndWait(harness, ws.key, `http://localhost:${port}/clip.mp4`);
  assert.equal(refused.status, 'failed');
  assert.match(refused.failure_reason, /could not be fetched: localhost resolves to a loopback address/);
  assert.doesNotMatch(refused.failure_reason, /127\.0\.0\.1/, 'the resolved address is not shown');
  const oddName = await harness.request('POST', '/v1/videos', {
    token: ws.key,
    body: { source_url: `http://media.example.com/100%25%E0%A4%A.mp4` },
  });
  assert.equal(oddName.status, 201, oddName.raw);
  assert.equal(oddName.body.file_name, '100%25%E0%A4%A.mp4', 'a name that does not decode is kept as written');
  for (const source_url of ['ftp://example.com/a.mp4', 'file:///etc/passwd', 'https://user:pass@example.com/a.mp4', 'not a url at all']) {
    const res = await harness.request('POST', '/v1/videos', { token: ws.key, body: { source_url } });
    assert.equal(res.status, 400, source_url);
    assert.equal(res.body.error.details.errors[0].field, 'source_url');
  }
});

test('a link written with a private, loopback or metadata address is refused at once, logged, and nothing is written', async (t) => {
  const logged: string[] = [];
  const harness = await startTestApp(t, { logger: { level: 'warn', stream: { write: (line: string) => logged.push(line) } } });
  const ws = await harness.workspace();
  const before = await harness.database.db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', ws.id)
    .executeTakeFirstOrThrow();
  const refusedHosts = [
    ['127.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['0x7f.0.0.1', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['[::1]', 'loopback'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['10.0.0.5', 'private network'],
    ['192.168.1.20', 'private network'],
    ['[fd12:3456::1]', 'private network'],
    ['0.0.0.0', 'unspecified'],
    ['169.254.10.1', 'link-local'],
  ];
  for (const [host, kind] of refusedHosts) {
    const res = await harness.request('POST', '/v1/videos', { token: ws.key, body: { source_url: `http://${host}:8080/clip.mp4` } });
    assert.equal(res.status, 400, `${host}: ${res.raw}`);
    assert.equal(res.body.error.details.errors[0].field, 'source_url');
    assert.match(res.body.error.message, new RegExp(`is an? ${kind} address`), host);
    assert.match(res.body.error.message, /CUEPOINT_ALLOW_PRIVATE_NETWORKS/, host);
  }
  // The metadata address cannot be allowed, so the message does not suggest it.
  const metadata = await harness.request('POST', '/v1/videos', { token: ws.key, body: { source_url: 'http://169.254.169.254/latest' } });
  assert.equal(metadata.status, 400);
  assert.match(metadata.body.error.message, /cloud metadata address/);
  assert.doesNotMatch(metadata.body.error.message, /CUEPOINT_ALLOW_PRIVATE_NETWORKS|\.\./);

  const videos = await harness.request('GET', '/v1/videos?archived=include', { token: ws.key });
  assert.equal(videos.body.pagination.total, 0, 'no video was created');
  assert.deepEqual(await harness.eventTypes(ws.id), [], 'no event was recorded');
  const after = await harness.database.db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', ws.id)
    .executeTakeFirstOrThrow();
  assert.equal(Number(after.n), Number(before.n), 'no job was queued');
  const refusals = logged
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.msg === 'import refused: the link names a non-public address');
  assert.equal(refusals.length, refusedHosts.length + 1);
  assert.equal(refusals[0].workspaceId, ws.id);
  assert.equal(refusals[0].address, '127.0.0.1');

  // Public addresses pass the up-front check (the worker still checks every hop).
  const publicLink = await harness.request('POST', '/v1/videos', { token: ws.key, body: { source_url: 'http://93.184.215.14/clip.mp4' } });
  assert.equal(publicLink.status, 201, publicLink.raw);
});

test('with the allow-list, an allowed private address is accepted up front; metadata never is', async (t) => {
  const harness = await appAllowing(t, [parseCidr('127.0.0.0/8'), parseCidr('0.0.0.0/0')]);
  const ws = await harness.workspace();
  const allowed = await harness.request('POST', '/v1/videos', { token: ws.key, body: { source_url: 'http://127.0.0.1:9/clip.mp4' } });
  assert.equal(allowed.status, 201, allowed.raw);
  const metadata = await harness.request('POST', '/v1/videos', { token: ws.key, body: { source_url: 'http://169.254.169.254/x.mp4' } });
  assert.equal(metadata.status, 400, metadata.raw);
});
