/**
 * Posters and transcripts from ffmpeg: with ffmpeg, an upload gets a poster served as a JPEG and its
 * embedded subtitle track becomes the transcript; without ffmpeg, or when ffmpeg fails, the video
 * still becomes ready, just without them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestApp, type TestApp } from '../../test/helpers/app.ts';
import { testFfmpegPath } from '../../test/helpers/ffmpeg.ts';
import { urlOf } from '../../test/helpers/mcp-client.ts';
import { createUpload, put, waitForStatus, withProcessingWorker } from '../../test/helpers/uploads.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures');
/** clip.mp4 with a mov_text subtitle track, language eng, two cues. */
const subtitled = readFileSync(join(FIXTURES, 'clip-subtitled.mp4'));

async function uploadAndWait(harness: TestApp, key: string) {
  const upload = await createUpload(harness, key, { file_name: 'talk.mp4', file_size: subtitled.length });
  const sent = await put(harness, upload.upload_url, subtitled);
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const video = await waitForStatus(harness, key, upload.video_id, ['ready', 'failed']);
  assert.equal(video.status, 'ready', video.failure_reason);
  return video as { video_id: string; poster_url: string | null };
}

test('with ffmpeg: a poster JPEG is served and the embedded subtitles become the transcript', async (t) => {
  const harness = await startTestApp(t, { isolated: true });
  withProcessingWorker(t, harness, testFfmpegPath);
  const ws = await harness.workspace();
  const video = await uploadAndWait(harness, ws.key);
  assert.equal(video.poster_url, `http://localhost:3000/media/${video.video_id}/poster.jpg`);

  const base = await urlOf(harness.app);
  const poster = await fetch(`${base}/media/${video.video_id}/poster.jpg`);
  assert.equal(poster.status, 200);
  assert.equal(poster.headers.get('content-type'), 'image/jpeg');
  assert.equal(poster.headers.get('cache-control'), 'public, max-age=300');
  const jpeg = Buffer.from(await poster.arrayBuffer());
  assert.deepEqual([...jpeg.subarray(0, 3)], [0xff, 0xd8, 0xff], 'JPEG magic bytes');
  const range = await fetch(`${base}/media/${video.video_id}/poster.jpg`, { headers: { range: 'bytes=0-9' } });
  assert.equal(range.status, 206);
  assert.deepEqual(Buffer.from(await range.arrayBuffer()), jpeg.subarray(0, 10));

  const transcript = await harness.request('GET', `/v1/videos/${video.video_id}/transcript`, { token: ws.key });
  assert.equal(transcript.status, 200, transcript.raw);
  assert.equal(transcript.body.source, 'embedded');
  assert.equal(transcript.body.language, 'en');
  assert.equal(transcript.body.text, 'Welcome to Cuepoint. Every second of this clip is captioned.');
  assert.equal(transcript.body.next_offset, null);
  assert.deepEqual(transcript.body.segments, [
    { start_seconds: 0.2, end_seconds: 1.4, text: 'Welcome to Cuepoint.' },
    { start_seconds: 1.5, end_seconds: 2.8, text: 'Every second of this clip is captioned.' },
  ]);

  // Paging by characters: the second page holds only the second segment.
  const first = await harness.request('GET', `/v1/videos/${video.video_id}/transcript?max_chars=21`, { token: ws.key });
  assert.deepEqual([first.body.text, first.body.next_offset, first.body.segments.length], ['Welcome to Cuepoint. ', 21, 1]);
  const second = await harness.request('GET', `/v1/videos/${video.video_id}/transcript?offset=21`, { token: ws.key });
  assert.deepEqual([second.body.text, second.body.next_offset], ['Every second of this clip is captioned.', null]);
  assert.deepEqual(
    second.body.segments.map((segment: { text: string }) => segment.text),
    ['Every second of this clip is captioned.'],
  );
  const beyond = await harness.request('GET', `/v1/videos/${video.video_id}/transcript?offset=5000`, { token: ws.key });
  assert.deepEqual([beyond.status, beyond.body.text, beyond.body.segments], [200, '', []]);

  // Another workspace sees neither the transcript nor the video.
  const other = await harness.workspace();
  const foreign = await harness.request('GET', `/v1/videos/${video.video_id}/transcript`, { token: other.key });
  assert.deepEqual([foreign.status, foreign.body.error.code], [404, 'not_found']);

  // Archived: the poster is no longer served, and get_video stops offering it.
  await harness.request('PATCH', `/v1/videos/${video.video_id}`, { token: ws.key, body: { archived: true } });
  assert.equal((await fetch(`${base}/media/${video.video_id}/poster.jpg`)).status, 404);
  const archived = await harness.request('GET', `/v1/videos/${video.video_id}`, { token: ws.key });
  assert.equal(archived.body.poster_url, null);
});

test('without ffmpeg, or when ffmpeg fails, the video is still ready: no poster and no transcript', async (t) => {
  for (const ffmpegPath of [null, '/bin/false']) {
    await t.test(`ffmpeg: ${ffmpegPath ?? 'none'}`, async (t) => {
      const harness = await startTestApp(t, { isolated: true });
      withProcessingWorker(t, harness, ffmpegPath);
      const ws = await harness.workspace();
      const video = await uploadAndWait(harness, ws.key);
      assert.equal(video.poster_url, null);
      // No ladder either: without ffmpeg none is planned; when ffmpeg fails, its one rung is failed, and the original plays.
      const { renditions, hls_url, playback_url } = video as unknown as {
        renditions: { state: string }[];
        hls_url: string | null;
        playback_url: string;
      };
      assert.deepEqual(
        renditions.map((r) => r.state),
        ffmpegPath ? ['failed'] : [],
      );
      assert.equal(hls_url, null);
      const base = await urlOf(harness.app);
      assert.equal((await fetch(`${base}${new URL(playback_url).pathname}`)).status, 200);
      const poster = await fetch(`${base}/media/${video.video_id}/poster.jpg`);
      assert.equal(poster.status, 404);
      assert.equal(((await poster.json()) as { error: { code: string } }).error.code, 'not_found');
      const transcript = await harness.request('GET', `/v1/videos/${video.video_id}/transcript`, { token: ws.key });
      assert.equal(transcript.status, 404);
      assert.equal(transcript.body.error.message, 'This video has no transcript yet.');
      assert.equal(await harness.mediaStore.stat({ workspaceId: ws.id, videoId: video.video_id, file: 'poster.jpg' }), undefined);
    });
  }
});
