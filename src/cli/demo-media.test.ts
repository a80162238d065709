/**
 * The demo library's clips, made with the bundled ffmpeg: every ready video (archived ones too) gets
 * a stored MP4 its row describes, a poster and a transcript, and /media/{id} serves a real H.264/AAC
 * clip of the row's duration; the same clip comes out byte for byte on every run; a clip that cannot
 * be made fails with its video named and leaves no files behind.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestApp } from '../../test/helpers/app.ts';
import { testMediaLinks } from '../../test/helpers/events.ts';
import { testFfmpegPath } from '../../test/helpers/ffmpeg.ts';
import { urlOf } from '../../test/helpers/mcp-client.ts';
import { probeMedia } from '../media/probe.ts';
import { createLocalMediaStore } from '../storage/local-media-store.ts';
import { CommandRefusedError } from './command-refused.ts';
import { demoVideos } from './demo-library.ts';
import { makeDemoMedia } from './demo-media.ts';
import { insertDemoLibrary } from './insert-demo-library.ts';

function temporaryDir(t: import('node:test').TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'cuepoint-demo-media-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('seeded with media: every ready video has its clip, poster and transcript, and /media serves the clip', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const media = { store: harness.mediaStore, ffmpegPath: testFfmpegPath };
  const { watchable } = await insertDemoLibrary(harness.database.db, { workspaceId: ws.id, now: new Date(), links: testMediaLinks, media });

  const library = new Map(demoVideos().map((video) => [video.title, video]));
  const rows = await harness.database.db
    .selectFrom('videos')
    .selectAll()
    .where('workspace_id', '=', ws.id)
    .where('status', '=', 'ready')
    .execute();
  assert.equal(rows.length, [...library.values()].filter((video) => video.status === 'ready').length);
  const transcripts = await harness.database.db
    .selectFrom('video_transcripts')
    .select('video_id')
    .where('workspace_id', '=', ws.id)
    .execute();
  assert.deepEqual(new Set(transcripts.map((row) => row.video_id)), new Set(rows.map((row) => row.id)), 'a transcript for each');
  for (const row of rows) {
    const key = { workspaceId: ws.id, videoId: row.id };
    assert.equal(
      (await harness.mediaStore.stat({ ...key, file: 'source' }))?.size,
      row.file_size,
      `${row.title}: the row's size is the file's`,
    );
    assert.ok(((await harness.mediaStore.stat({ ...key, file: 'poster.jpg' }))?.size ?? 0) > 0, `${row.title} has a poster`);
    assert.equal(row.has_poster, true);
    // The clip is as long as the library says, give or take the last audio frame.
    const planned = library.get(row.title)?.durationSeconds as number;
    assert.ok(planned >= 15 && planned <= 60, `${row.title}: ${planned} s planned`);
    assert.ok(
      Math.abs((row.duration_seconds as number) - planned) < 0.25,
      `${row.title}: ${row.duration_seconds} s for ${planned} s planned`,
    );
    assert.deepEqual([row.width, row.height, row.media_type], [640, 360, 'video/mp4']);
  }
  // Viewing is played against the clips' own durations.
  const durations = new Map(rows.map((row) => [row.id, row.duration_seconds]));
  for (const video of watchable) assert.equal(video.durationSeconds, durations.get(video.id));

  const video = rows.find((row) => !library.get(row.title)?.archived) as (typeof rows)[number];
  const base = await urlOf(harness.app);
  const served = await fetch(`${base}/media/${video.id}`);
  assert.equal(served.status, 200);
  assert.equal(served.headers.get('content-type'), 'video/mp4');
  const bytes = Buffer.from(await served.arrayBuffer());
  assert.equal(bytes.length, video.file_size);
  const downloaded = join(temporaryDir(t), 'served.mp4');
  writeFileSync(downloaded, bytes);
  const facts = await probeMedia(downloaded);
  assert.deepEqual(
    [facts.format, facts.videoCodec, facts.audioCodec, facts.width, facts.height, facts.durationSeconds],
    ['MPEG-4', 'AVC', 'AAC', 640, 360, video.duration_seconds],
  );
  assert.deepEqual(facts.textSubtitles?.language, 'en', 'the captions travel in the file too');
  const range = await fetch(`${base}/media/${video.id}`, { headers: { range: 'bytes=100-199' } });
  assert.equal(range.status, 206);
  assert.deepEqual(Buffer.from(await range.arrayBuffer()), bytes.subarray(100, 200));

  const poster = await fetch(`${base}/media/${video.id}/poster.jpg`);
  assert.equal(poster.status, 200);
  assert.deepEqual([...Buffer.from(await poster.arrayBuffer()).subarray(0, 3)], [0xff, 0xd8, 0xff], 'JPEG magic bytes');
  const detail = await harness.request('GET', `/v1/videos/${video.id}`, { token: ws.key });
  assert.equal(detail.body.poster_url, `http://localhost:3000/media/${video.id}/poster.jpg`);

  const transcript = await harness.request('GET', `/v1/videos/${video.id}/transcript`, { token: ws.key });
  assert.equal(transcript.status, 200, transcript.raw);
  assert.deepEqual([transcript.body.source, transcript.body.language, transcript.body.segments.length], ['embedded', 'en', 3]);
  assert.equal(transcript.body.segments[0].text, library.get(video.title)?.description);
});

test('the same clips come out byte for byte on every run (what a row says about its clip depends on nothing else)', async (t) => {
  const store = createLocalMediaStore(temporaryDir(t));
  const two = demoVideos()
    .filter((video) => video.status === 'ready')
    .slice(0, 2);
  const sources = async () => {
    const workspaceId = randomUUID();
    const clips = await makeDemoMedia(two, workspaceId, { store, ffmpegPath: testFfmpegPath });
    return Promise.all(
      two.map((video) => {
        const clip = clips.get(video.title);
        assert.ok(clip, `${video.title} has a clip`);
        return store.withLocalFile({ workspaceId, videoId: clip.videoId, file: 'source' }, (path) => readFile(path));
      }),
    );
  };
  assert.deepEqual(await sources(), await sources());
});

test('a clip that cannot be made fails the seed with its video named, and leaves no files behind', async (t) => {
  const root = temporaryDir(t);
  const store = createLocalMediaStore(root);
  const [good, other] = demoVideos().filter((video) => video.status === 'ready');
  // Three seconds is shorter than the title card: that clip cannot be made, while the good one is.
  const broken = { ...(other as NonNullable<typeof other>), title: 'Too short to make', durationSeconds: 3 };
  await assert.rejects(
    makeDemoMedia([good as NonNullable<typeof good>, broken], randomUUID(), { store, ffmpegPath: testFfmpegPath }),
    (error: Error) => {
      assert.ok(error instanceof CommandRefusedError);
      assert.match(
        error.message,
        /^seed --demo could not make the demo clip for "Too short to make": A demo clip lasts a whole number of seconds over 6, not 3$/,
      );
      return true;
    },
  );
  const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  assert.deepEqual(files, [], 'the good clip was removed too');

  await assert.rejects(
    makeDemoMedia([good as NonNullable<typeof good>], randomUUID(), { store, ffmpegPath: join(root, 'no-ffmpeg-here') }),
    /^CommandRefusedError: seed --demo could not make the demo clip for the test pattern all clips share: ffmpeg could not be started/,
  );
});
