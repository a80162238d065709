/**
 * The events catalog is the truth about events: every event the real emitters record (an upload that
 * becomes ready and one that fails, through the processing worker; an import that becomes ready and
 * one that fails; update_video; rename_tag; the demo seed; the test event) matches its type's schema,
 * and so does every delivery a real receiver gets. The examples in docs/webhooks.md match the schemas,
 * the docs' table lists every type with its fields, and each example has the shape of a real
 * delivery of its type. A wrong shape is refused when recorded.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { insertDemoLibrary } from '../src/cli/insert-demo-library.ts';
import { compileSchema } from '../src/core/compile-schema.ts';
import { recordEvent } from '../src/db/outbox.ts';
import { EVENT_CATALOG, EVENT_TYPES, type EventData, EventShapeError, type EventType, eventEnvelope } from '../src/event-catalog.ts';
import { startJobWorker } from '../src/job-queue/worker.ts';
import { videoImportHandler } from '../src/workers/video-import.ts';
import { videoProcessingHandler } from '../src/workers/video-processing.ts';
import { startTestApp } from './helpers/app.ts';
import { testMediaLinks } from './helpers/events.ts';
import { testFfmpegPath } from './helpers/ffmpeg.ts';
import { createUpload, put, waitForStatus } from './helpers/uploads.ts';
import { eventually, LOOPBACK, loopbackOutbound, startReceiver, startTestWebhookWorker, verify } from './helpers/webhooks.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const clip = readFileSync(join(FIXTURES, 'clip.mp4'));
const notVideo = readFileSync(join(FIXTURES, 'not-a-video.mp4'));
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

const envelopes = new Map(EVENT_TYPES.map((type) => [type, compileSchema(eventEnvelope(type))]));

/** Every way `payload` misses the envelope of its type (an empty list when it matches). */
function problemsOf(payload: { type: string }): string[] {
  const validator = envelopes.get(payload.type as EventType);
  if (!validator) return [`unknown event type ${payload.type}`];
  return validator.Check(payload) ? [] : validator.Errors(payload).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/** The key paths of a JSON value (array items under `[]`): two payloads of one shape have the same set. */
function shapeOf(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((item) => shapeOf(item, `${at}[]`)))].sort();
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value)
    .flatMap(([key, field]) => [`${at}.${key}`, ...shapeOf(field, `${at}.${key}`)])
    .sort();
}

const docs = readFileSync(join(import.meta.dirname, '..', 'docs', 'webhooks.md'), 'utf8');

/** The event payloads shown in docs/webhooks.md: JSON blocks with an event `type` and `data`. */
function documentedExamples(): { type: string; data: unknown }[] {
  return [...docs.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((match) => JSON.parse(match[1] as string) as Record<string, unknown>)
    .filter((block) => typeof block.type === 'string' && EVENT_TYPES.includes(block.type as EventType) && 'data' in block)
    .map((block) => block as { type: string; data: unknown });
}

/** A loopback "public" server for imports: the clip, and 404 for anything else. */
async function linkServer(t: TestContext): Promise<string> {
  const server = createServer((request, response) => {
    if (request.url === '/clip.mp4')
      return response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length }).end(clip);
    return response.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('docs/webhooks.md: the table lists every event type with its data fields, and every example matches its schema', () => {
  for (const type of EVENT_TYPES) {
    const row = docs.split('\n').find((line) => line.startsWith(`| \`${type}\``));
    assert.ok(row, `the table has a row for ${type}`);
    const listed = [...(row.split('|').at(-2) ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    assert.deepEqual(listed.sort(), Object.keys(EVENT_CATALOG[type].data.properties).sort(), `${type}: the data fields the table lists`);
  }
  const examples = documentedExamples();
  assert.deepEqual([...new Set(examples.map((e) => e.type))].sort(), [...EVENT_TYPES].sort(), 'an example of every event type');
  for (const example of examples) assert.deepEqual(problemsOf(example), [], `the docs' ${example.type} example`);
});

test('every event the real emitters record, and every delivery sent, matches its type’s schema and the docs’ examples', async (t) => {
  // The job and webhook workers below work on every workspace's rows: a database of its own.
  const harness = await startTestApp(t, { isolated: true, outbound: loopbackOutbound() });
  const worker = startJobWorker({
    db: harness.database.db,
    handlers: [
      // With ffmpeg, as a plain start has it: video.ready then carries the poster and the first rendition.
      videoProcessingHandler({ store: harness.mediaStore, ffmpegPath: testFfmpegPath, log: quiet, links: testMediaLinks }),
      videoImportHandler({
        store: harness.mediaStore,
        ffmpegPath: testFfmpegPath,
        log: quiet,
        links: testMediaLinks,
        allowPrivateNetworks: LOOPBACK,
        maxBytes: 10 * 1024 * 1024,
      }),
    ],
    log: quiet,
    pollMs: 20,
  });
  harness.beforeClose(() => worker.stop());
  startTestWebhookWorker(harness);
  const ws = await harness.workspace('business');
  const receiver = await startReceiver(t);
  const endpoint = await harness.request('POST', '/v1/webhook-endpoints', {
    token: ws.key,
    body: { name: 'Everything', url: receiver.url },
  });
  assert.equal(endpoint.status, 201, endpoint.raw);

  // Uploads, processed by the worker: one becomes ready, one fails.
  const good = await createUpload(harness, ws.key, { file_name: 'tour.mp4', file_size: clip.length, tags: ['demo'] });
  assert.equal((await put(harness, good.upload_url, clip)).status, 200);
  const bad = await createUpload(harness, ws.key, { file_name: 'notes.mp4', file_size: notVideo.length });
  assert.equal((await put(harness, bad.upload_url, notVideo)).status, 200);
  assert.equal((await waitForStatus(harness, ws.key, good.video_id, ['ready', 'failed'])).status, 'ready');
  assert.equal((await waitForStatus(harness, ws.key, bad.video_id, ['ready', 'failed'])).status, 'failed');
  // Imports: one becomes ready, one fails (the link answers 404).
  const base = await linkServer(t);
  for (const [file, wanted] of [
    ['clip.mp4', 'ready'],
    ['missing.mp4', 'failed'],
  ]) {
    const created = await harness.request('POST', '/v1/videos', { token: ws.key, body: { source_url: `${base}/${file}` } });
    assert.equal(created.status, 201, created.raw);
    assert.equal((await waitForStatus(harness, ws.key, created.body.video_id, ['ready', 'failed'])).status, wanted);
  }
  // Changes: update_video, rename_tag and set_video_transcript.
  const retitled = await harness.request('PATCH', `/v1/videos/${good.video_id}`, {
    token: ws.key,
    body: { title: 'Product tour', archived: true },
  });
  assert.equal(retitled.status, 200, retitled.raw);
  const renamed = await harness.request('POST', '/v1/tags/rename', { token: ws.key, body: { tag: 'demo', new_tag: 'product-demo' } });
  assert.equal(renamed.status, 200, renamed.raw);
  const captioned = await harness.request('PUT', `/v1/videos/${good.video_id}/transcript`, {
    token: ws.key,
    body: { format: 'srt', language: 'en', text: '1\n00:00:00,500 --> 00:00:02,000\nWelcome to the tour.\n' },
  });
  assert.equal(captioned.status, 200, captioned.raw);
  // The demo seed's library (the part of `seed --demo` that records events).
  await insertDemoLibrary(harness.database.db, { workspaceId: ws.id, now: new Date(), links: testMediaLinks });
  // The test event, sent directly to the endpoint.
  const tested = await harness.request('POST', `/v1/webhook-endpoints/${endpoint.body.endpoint_id}/test`, { token: ws.key, body: {} });
  assert.equal(tested.body.succeeded, true, tested.raw);

  const rows = await harness.database.db
    .selectFrom('events')
    .select(['id', 'type', 'data', 'created_at'])
    .where('workspace_id', '=', ws.id)
    .orderBy('sequence')
    .execute();
  const recorded = rows.map((row) => ({
    id: row.id,
    type: row.type,
    created_at: row.created_at.toISOString(),
    workspace_id: ws.id,
    data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
  }));
  for (const event of recorded) assert.deepEqual(problemsOf(event), [], `recorded ${event.type} ${JSON.stringify(event.data)}`);
  const count = (type: string, where: (data: { video?: { title?: string } }) => boolean = () => true) =>
    recorded.filter((e) => e.type === type && where(e.data)).length;
  assert.equal(count('video.created'), 4 + 60, 'two uploads, two imports, sixty seeded videos');
  assert.equal(count('video.ready'), 2);
  assert.equal(count('video.failed'), 2);
  assert.equal(count('video.updated'), 3, 'update_video, rename_tag on the one tagged video, then set_video_transcript');
  const failures = recorded.filter((e) => e.type === 'video.failed').map((e) => e.data.failure_reason as string);
  assert.ok(failures.some((r) => r.startsWith('The file is not a video')) && failures.some((r) => r.includes('404')), failures.join(' / '));
  const seeded = recorded.filter((e) => e.type === 'video.created').at(-1)?.data;
  assert.equal(typeof seeded.video.title, 'string', 'the seed sends the video, like every other video.created');

  // Real deliveries: every event that happened since the endpoint exists (the seeded videos are dated in
  // the past, before it), plus the test event, reached the receiver, and matches its schema.
  const since = Date.parse(endpoint.body.created_at);
  const expected = [...recorded.filter((e) => Date.parse(e.created_at) >= since).map((e) => e.id), tested.body.event_id];
  await eventually(() => receiver.received.length >= expected.length, `${expected.length} deliveries`, 120_000);
  const delivered = receiver.received.map((request) => verify(request, endpoint.body.secret));
  for (const payload of delivered) assert.deepEqual(problemsOf(payload), [], `delivered ${payload.type}`);
  assert.deepEqual(new Set(delivered.map((p) => p.id)), new Set(expected));

  // The docs' examples have the shape of real deliveries of their type.
  for (const example of documentedExamples()) {
    const real = delivered.filter((p) => p.type === example.type);
    if (real.length === 0) continue; // a type this test does not provoke: checked against its schema above
    assert.ok(
      real.some((p) => shapeOf(p).join() === shapeOf(example).join()),
      `the docs' ${example.type} example has the fields of a real delivery: ${shapeOf(example).join(' ')}`,
    );
  }
});

test('an event whose data does not match its schema is refused when recorded, and nothing is written', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo();
  // The shape the demo seed used to send for video.created.
  const old = { video_id: videoId, title: 'Untitled video' } as unknown as EventData<'video.created'>;
  await assert.rejects(
    recordEvent(harness.database.db, { workspaceId: ws.id, type: 'video.created', data: old, at: new Date() }),
    (error: unknown) =>
      error instanceof EventShapeError &&
      error.type === 'video.created' &&
      /\/ must have required properties video/.test(error.message) &&
      /\/ has undeclared properties title/.test(error.message),
  );
  assert.deepEqual(await harness.eventTypes(ws.id), []);
});
