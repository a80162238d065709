/**
 * delete_video, called as a signed-in owner through the pipeline: afterwards nothing of the video is
 * found by the API (get_video, list_videos, search, analytics, changes, routes, channel), its media
 * URLs answer 404 at once, its rows are gone, and the queued job removes its files from the store.
 * Routes that played it repair themselves (docs/routes.md): steps go, the choices that led to them are
 * retired, a live route that lost its entry step is paused, a route of that video alone is deleted.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { startTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { signIn } from '../../../../test/helpers/dashboard.ts';
import { wireStep } from '../../../../test/helpers/routes.ts';
import { startS3Server } from '../../../../test/helpers/s3-server.ts';
import { viewer, watch } from '../../../../test/helpers/viewing.ts';
import type { Database } from '../../../db/tables/index.ts';
import { enqueueJob } from '../../../job-queue/queue.ts';
import type { MediaKey, MediaStore } from '../../../storage/media-store.ts';
import { createS3MediaStore } from '../../../storage/s3-media-store.ts';
import { videoFileRemovalHandler } from '../../../workers/video-file-removal.ts';
import { finishUpload } from '../uploads/uploads.queries.ts';
import { VIDEO_FILE_REMOVAL_JOB } from '../video-deletion.queries.ts';

const quiet = { info() {}, warn() {}, error() {} };

async function store(mediaStore: MediaStore, key: MediaKey, text: string): Promise<void> {
  await mediaStore.write(key, Readable.from([Buffer.from(text)]), { atMost: 1_000_000 });
}

/** Runs the workspace's file removal job once, as the worker would; throws what the attempt threw. */
async function runFileRemoval(harness: TestApp, workspaceId: string): Promise<void> {
  const row = await harness.database.db
    .selectFrom('jobs')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', VIDEO_FILE_REMOVAL_JOB)
    .executeTakeFirstOrThrow();
  const job = {
    id: row.id,
    kind: row.kind,
    workspaceId,
    payload: row.payload as Record<string, unknown>,
    attempt: 1,
    maxAttempts: row.max_attempts,
    lastError: null,
  };
  await videoFileRemovalHandler({ store: harness.mediaStore, log: quiet }).run(job, {
    db: harness.database.db,
    signal: new AbortController().signal,
  });
}

/** The workspace's rows of `table` whose text holds `needle`, every column cast to text. */
async function rowsMentioning(db: Kysely<Database>, table: string, workspaceId: string, needle: string): Promise<number> {
  const { sql } = await import('kysely');
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from ${sql.table(table)} t
    where t.workspace_id = ${workspaceId} and strpos(t::text, ${needle}) > 0`.execute(db);
  return rows[0]?.n ?? 0;
}

test('delete_video takes the video and everything of it, and routes and the channel repair themselves', async (t) => {
  const harness = await startTestApp(t);
  const { request, database, mediaStore } = harness;
  const db = database.db;
  const ws = await harness.workspace('business');
  const owner = await signIn(harness, ws.id, 'owner');
  const word = `zanzibar${randomUUID().slice(0, 6)}`;
  const title = `Doomed ${word}`;
  const doomed = await ws.addVideo({ title, has_poster: true, media_type: 'video/mp4', file_name: 'doomed.mp4', file_size: 10 });
  const keeper = await ws.addVideo({ title: 'Keeper' });

  // Its files: the original, the poster and one rendition, with its row.
  const files = { workspaceId: ws.id, videoId: doomed };
  const renditionId = randomUUID();
  await store(mediaStore, { ...files, file: 'source' }, 'source bytes');
  await store(mediaStore, { ...files, file: 'poster.jpg' }, 'poster bytes');
  await store(mediaStore, { ...files, file: `hls/${renditionId}/seg-00000.ts` }, 'segment');
  await store(
    mediaStore,
    { ...files, file: `hls/${renditionId}/index.m3u8` },
    '#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg-00000.ts\n#EXT-X-ENDLIST\n',
  );
  const at = new Date();
  await db
    .insertInto('video_renditions')
    .values({
      id: renditionId,
      workspace_id: ws.id,
      video_id: doomed,
      name: '360p',
      width: 640,
      height: 360,
      video_kbps: 800,
      audio_kbps: 96,
      state: 'ready',
      codecs: 'avc1.4d401e,mp4a.40.2',
      bandwidth: 1_000_000,
      average_bandwidth: 900_000,
      segments: 1,
      bytes: 7,
      created_at: at,
      updated_at: at,
    })
    .execute();

  // Its transcript (search finds its words), its viewing, a lead it captured and a purchase it is credited with.
  const captioned = await request('PUT', `/v1/videos/${doomed}/transcript`, {
    token: ws.key,
    body: { format: 'srt', language: 'en', text: `1\n00:00:01,000 --> 00:00:03,000\nThe ${word} moment.\n` },
  });
  assert.equal(captioned.status, 200, captioned.raw);
  await watch(harness, doomed, viewer(`del-${word}`), [
    [
      { type: 'play', position: 0 },
      { type: 'progress', ranges: [[0, 40]] },
    ],
  ]);
  const lead = await ws.addLead({ email: `watcher-${word}@example.com` });
  await db.updateTable('leads').set({ source_video_id: doomed }).where('id', '=', lead).execute();
  await ws.addOutcome({ amount: 4900, video_id: doomed, last_touch_video_id: doomed, first_touch_video_id: doomed, lead_id: lead });
  const revenueBefore = (await request('GET', '/v1/analytics/summary?range=28d', { token: ws.key })).body.revenue;

  // Routes: one keeps a step of another video, one live starts with it, one plays nothing else.
  const kept = await ws.addRoute({ name: 'Kept', videoIds: [keeper, doomed] });
  await wireStep(harness, ws.id, kept, kept.stepIds[0] as string, 'Where next?', [
    { label: 'See the doomed one', target: 'step', to: kept.stepIds[1] as string },
    { label: 'Done', target: 'end' },
  ]);
  const headless = await ws.addRoute({ name: 'Headless', status: 'live', videoIds: [doomed, keeper] });
  await wireStep(harness, ws.id, headless, headless.stepIds[0] as string, 'Go on?', [
    { label: 'Yes', target: 'step', to: headless.stepIds[1] as string },
  ]);
  const only = await ws.addRoute({ name: 'Only', videoIds: [doomed] });

  // The channel shows it, features it, and shows the route of it alone.
  for (const id of [doomed, keeper]) {
    const placed = await request('PUT', `/v1/channel/items/${id}`, { token: ws.key, body: { kind: 'video', visible: true } });
    assert.equal(placed.status, 200, placed.raw);
  }
  await db
    .insertInto('channel_items')
    .values({ workspace_id: ws.id, kind: 'route', item_id: only.id, visible: false, position: 2, created_at: at, updated_at: at })
    .execute();
  const featured = await request('PUT', '/v1/channel/featured', { token: ws.key, body: { video_id: doomed } });
  assert.equal(featured.status, 200, featured.raw);

  // A job still queued for it.
  await enqueueJob(
    db,
    { kind: 'video.rendition', workspaceId: ws.id, payload: { video_id: doomed, rendition_id: randomUUID() }, maxAttempts: 3 },
    at,
  );

  // Before: it is found everywhere the test looks afterwards.
  for (const url of [
    `/v1/search?q=${word}`,
    `/v1/transcripts/search?q=${word}`,
    '/v1/channel',
    `/v1/routes/${kept.id}`,
    `/v1/leads/${lead}`,
  ]) {
    const res = await request('GET', url, { token: ws.key });
    const { q: _query, ...found } = res.body;
    assert.ok(JSON.stringify(found).includes(doomed), `${url} shows the video before: ${res.raw.slice(0, 300)}`);
  }
  const media = [`/media/${doomed}`, `/media/${doomed}/poster.jpg`, `/media/${doomed}/captions.vtt`, `/media/${doomed}/hls/master.m3u8`];
  for (const url of media) assert.equal((await request('GET', url)).status, 200, url);

  const deleted = await owner.call('delete_video', { video_id: doomed });
  assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
  const answer = deleted.body as {
    title: string;
    deleted: boolean;
    routes: { route_id: string; outcome: string; steps_removed: number }[];
  };
  assert.equal(answer.title, title);
  assert.deepEqual(Object.fromEntries(answer.routes.map((route) => [route.route_id, [route.outcome, route.steps_removed]])), {
    [kept.id]: ['repaired', 1],
    [headless.id]: ['paused', 1],
    [only.id]: ['deleted', 1],
  });
  assert.equal((deleted.body as { channel_items_removed: number }).channel_items_removed, 2);

  // The API shows nothing of it.
  assert.equal((await request('GET', `/v1/videos/${doomed}`, { token: ws.key })).status, 404);
  assert.equal((await request('GET', `/v1/videos/${doomed}/analytics`, { token: ws.key })).status, 404);
  for (const url of [
    '/v1/videos',
    '/v1/videos?archived=include',
    `/v1/search?q=${word}`,
    `/v1/transcripts/search?q=${word}`,
    '/v1/analytics/summary?range=28d',
    '/v1/changes?days=7',
    '/v1/routes',
    `/v1/routes/${kept.id}`,
    `/v1/routes/${headless.id}`,
    '/v1/channel',
    `/v1/leads/${lead}`,
    '/v1/outcomes',
  ]) {
    const res = await request('GET', url, { token: ws.key });
    assert.equal(res.status, 200, `${url}: ${res.raw}`);
    // A search answers with its query: what it found is the rest.
    const { q: _query, ...found } = res.body;
    const shown = JSON.stringify(found);
    assert.ok(!shown.includes(doomed) && !shown.includes(word), `${url} still shows the video: ${shown.slice(0, 400)}`);
  }
  assert.equal((await request('GET', `/v1/routes/${only.id}`, { token: ws.key })).status, 404);

  // Routes repaired: the kept one ends where the choice led to the video; the live one starts anew, paused.
  const keptRoute = (await request('GET', `/v1/routes/${kept.id}`, { token: ws.key })).body;
  assert.equal(keptRoute.step_count, 1);
  assert.deepEqual(
    keptRoute.steps[0].choices.map((choice: { label: string }) => choice.label),
    ['Done'],
  );
  const headlessRoute = (await request('GET', `/v1/routes/${headless.id}`, { token: ws.key })).body;
  assert.equal(headlessRoute.status, 'paused');
  assert.equal(headlessRoute.entry_video.video_id, keeper);
  assert.equal(headlessRoute.steps[0].question, null, 'a step left without choices is a last step');

  // The channel: the keeper alone, closed up at position 0, nothing featured.
  const channel = (await request('GET', '/v1/channel', { token: ws.key })).body;
  assert.equal(channel.featured, null);
  const channelRows = await db.selectFrom('channel_items').select(['item_id', 'position']).where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(channelRows, [{ item_id: keeper, position: 0 }]);

  // Revenue stays, without the video.
  assert.deepEqual((await request('GET', '/v1/analytics/summary?range=28d', { token: ws.key })).body.revenue, revenueBefore);

  // Media URLs answer 404 at once, before the files are gone.
  for (const url of [...media, `/media/${doomed}/hls/${renditionId}/index.m3u8`]) {
    assert.equal((await request('GET', url)).status, 404, url);
  }
  assert.ok(await mediaStore.stat({ ...files, file: 'source' }), 'the files wait for the job');

  // No row of the workspace names it, but the outbox's history and the job that removes its files.
  for (const table of [
    'videos',
    'video_renditions',
    'video_uploads',
    'video_transcripts',
    'transcript_segments',
    'viewing_sessions',
    'viewing_batches',
    'video_daily_stats',
    'video_heatmaps',
    'video_stats',
    'channels',
    'channel_items',
    'channel_item_opens',
    'route_steps',
    'route_choices',
    'route_path_counts',
    'leads',
    'lead_activities',
    'outcomes',
  ]) {
    assert.equal(await rowsMentioning(db, table, ws.id, doomed), 0, `${table} still names the video`);
  }
  const jobs = await db.selectFrom('jobs').select(['kind', 'status']).where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(jobs, [{ kind: VIDEO_FILE_REMOVAL_JOB, status: 'queued' }], 'its queued rendition job went');
  assert.deepEqual(await harness.eventTypes(ws.id).then((types) => types.at(-1)), 'video.deleted');

  // The job removes every file.
  await runFileRemoval(harness, ws.id);
  for (const file of ['source', 'poster.jpg', `hls/${renditionId}/index.m3u8`, `hls/${renditionId}/seg-00000.ts`] as const) {
    assert.equal(await mediaStore.stat({ ...files, file }), undefined, file);
  }
});

test('on S3 too: the media URLs answer 404 at once, and the job removes every object of the video', async (t) => {
  const server = await startS3Server(t);
  const harness = await startTestApp(t, { mediaStore: createS3MediaStore(server.settings) });
  const ws = await harness.workspace('pro');
  const owner = await signIn(harness, ws.id);
  const videoId = await ws.addVideo({ has_poster: true, media_type: 'video/mp4' });
  const files = { workspaceId: ws.id, videoId };
  const renditionId = randomUUID();
  const stored = ['source', 'poster.jpg', `hls/${renditionId}/index.m3u8`, `hls/${renditionId}/seg-00000.ts`] as const;
  for (const file of stored) await store(harness.mediaStore, { ...files, file }, file);
  assert.equal((await harness.request('GET', `/media/${videoId}/poster.jpg`)).status, 200);
  assert.equal((await owner.call('delete_video', { video_id: videoId })).status, 200);
  assert.equal((await harness.request('GET', `/media/${videoId}/poster.jpg`)).status, 404);
  assert.equal((await harness.request('GET', `/media/${videoId}`)).status, 404);
  await runFileRemoval(harness, ws.id);
  for (const file of stored) assert.equal(await harness.mediaStore.stat({ ...files, file }), undefined, file);
});

test('the file removal waits for a job still writing the video, then removes what it wrote', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('pro');
  const owner = await signIn(harness, ws.id, 'admin');
  const videoId = await ws.addVideo();
  const files = { workspaceId: ws.id, videoId };
  await store(harness.mediaStore, { ...files, file: 'source' }, 'source');
  // A rendition job that started before the deletion.
  const running = await enqueueJob(
    harness.database.db,
    { kind: 'video.rendition', workspaceId: ws.id, payload: { video_id: videoId, rendition_id: randomUUID() }, maxAttempts: 3 },
    new Date(),
  );
  await harness.database.db.updateTable('jobs').set({ status: 'running', attempts: 1 }).where('id', '=', running).execute();

  assert.equal((await owner.call('delete_video', { video_id: videoId })).status, 200);
  await assert.rejects(runFileRemoval(harness, ws.id), /waiting for 1 running job/);
  // It writes one more file, then ends.
  await store(harness.mediaStore, { ...files, file: 'poster.jpg' }, 'late poster');
  await harness.database.db.updateTable('jobs').set({ status: 'succeeded' }).where('id', '=', running).execute();
  await runFileRemoval(harness, ws.id);
  assert.equal(await harness.mediaStore.stat({ ...files, file: 'source' }), undefined);
  assert.equal(await harness.mediaStore.stat({ ...files, file: 'poster.jpg' }), undefined);
});

test('an upload that finishes after its video was deleted queues nothing, so the upload target removes its file', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('pro');
  const owner = await signIn(harness, ws.id);
  const upload = await harness.request('POST', '/v1/videos/uploads', {
    token: ws.key,
    body: { file_name: 'late.mp4', file_size: 5 },
  });
  assert.equal(upload.status, 201, upload.raw);
  const videoId = upload.body.video_id as string;
  assert.equal((await owner.call('delete_video', { video_id: videoId })).status, 200);
  assert.equal(await finishUpload(harness.database.db, { videoId, workspaceId: ws.id }, new Date()), false);
  const queued = await harness.database.db
    .selectFrom('jobs')
    .select('kind')
    .where('workspace_id', '=', ws.id)
    .where('kind', '<>', VIDEO_FILE_REMOVAL_JOB)
    .execute();
  assert.deepEqual(queued, []);
  // The upload URL itself now answers 404: its upload went with the video.
  const put = await harness.app.inject({ method: 'PUT', url: new URL(upload.body.upload_url).pathname, payload: 'bytes' });
  assert.equal(put.statusCode, 404, put.body);
});

test('delete_video: only owners and admins; another workspace’s video is not found', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('pro');
  const other = await harness.workspace('pro');
  const videoId = await ws.addVideo();
  const member = await signIn(harness, ws.id, 'member');
  const refused = await member.call('delete_video', { video_id: videoId });
  assert.equal(refused.status, 403, JSON.stringify(refused.body));
  const stranger = await signIn(harness, other.id, 'owner');
  assert.equal((await stranger.call('delete_video', { video_id: videoId })).status, 404);
  assert.equal((await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).status, 200, 'still there');
});
