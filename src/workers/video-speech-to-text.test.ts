/**
 * Speech-to-text as background work, end to end: a video uploaded through the API becomes ready,
 * then gets a transcript with source `speech_to_text` and timed segments, from the local engine
 * (real speech by espeak-ng, recognised by PocketSphinx) and from an OpenAI-compatible server (the
 * fake one). A transcript from another source is never replaced, whether it came first or arrived
 * while the speech was being recognised; failures are retried and then given up on without failing
 * the video; videos without sound, or too long, get no job or no transcript.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../../test/helpers/app.ts';
import { testMediaLinks } from '../../test/helpers/events.ts';
import { type FakeAnswer, LOOPBACK, startFakeTranscriptionServer, verboseJson } from '../../test/helpers/fake-transcription-server.ts';
import { testFfmpegPath } from '../../test/helpers/ffmpeg.ts';
import { requirePocketsphinx, speakSentences, wordErrors } from '../../test/helpers/spoken-audio.ts';
import { createUpload, put, waitForStatus } from '../../test/helpers/uploads.ts';
import { SPEECH_TO_TEXT_JOB, saveTranscript } from '../domains/transcripts/index.ts';
import { startJobWorker } from '../job-queue/worker.ts';
import { openAiTranscriptions } from '../media/speech/openai-transcriptions.ts';
import { pocketsphinxEngine } from '../media/speech/pocketsphinx.ts';
import type { SpeechToText } from '../media/speech/speech-to-text.ts';
import { videoProcessingHandler } from './video-processing.ts';
import { videoSpeechToTextHandler } from './video-speech-to-text.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures');
/** Three seconds of a steady tone: "speech" as far as the fake server is concerned. */
const clip = readFileSync(join(FIXTURES, 'clip.mp4'));
/** clip.mp4 with a subtitle track. */
const subtitled = readFileSync(join(FIXTURES, 'clip-subtitled.mp4'));
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

function scratch(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'cuepoint-speech-job-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Processing with speech-to-text on, as `cuepoint start` runs it (the app must be isolated: workers claim every job). */
function startProcessing(t: TestContext, harness: TestApp): void {
  const worker = startJobWorker({
    db: harness.database.db,
    handlers: [
      videoProcessingHandler({
        store: harness.mediaStore,
        ffmpegPath: testFfmpegPath,
        log: quiet,
        links: testMediaLinks,
        speechToText: true,
      }),
    ],
    log: quiet,
    pollMs: 20,
  });
  t.after(() => worker.stop());
}

/** The HTTP engine as a deployment would configure it, pointed at the test's fake server on loopback. */
function whisperAt(url: string): SpeechToText {
  return openAiTranscriptions({ url, key: 'k', model: 'whisper-1', timeoutMs: 30_000, allowPrivateNetworks: LOOPBACK });
}

function startSpeechToText(t: TestContext, harness: TestApp, engine: SpeechToText, maxSeconds = 3600): void {
  const worker = startJobWorker({
    db: harness.database.db,
    handlers: [
      videoSpeechToTextHandler({
        store: harness.mediaStore,
        ffmpegPath: testFfmpegPath,
        engine,
        maxSeconds,
        log: quiet,
        retryDelayMs: () => 10,
      }),
    ],
    log: quiet,
    pollMs: 20,
  });
  t.after(() => worker.stop());
}

async function upload(harness: TestApp, key: string, file: Buffer): Promise<string> {
  const created = await createUpload(harness, key, { file_name: 'talk.mp4', file_size: file.length });
  const sent = await put(harness, created.upload_url, file);
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const video = await waitForStatus(harness, key, created.video_id, ['ready', 'failed']);
  assert.equal(video.status, 'ready', video.failure_reason);
  return created.video_id;
}

/** The video's speech-to-text jobs, oldest first. */
async function speechJobs(harness: TestApp, videoId: string) {
  return harness.database.db
    .selectFrom('jobs')
    .select(['status', 'attempts', 'last_error'])
    .where('kind', '=', SPEECH_TO_TEXT_JOB)
    .where(sql`payload->>'video_id'`, '=', videoId)
    .orderBy('created_at')
    .execute();
}

/** Waits (generously: recognising speech on a busy machine is slow) until the video's job has ended. */
async function jobEnded(harness: TestApp, videoId: string, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [job] = await speechJobs(harness, videoId);
    if (job && (job.status === 'succeeded' || job.status === 'failed')) return job;
    await sleep(50);
  }
  throw new Error(`the speech-to-text job of ${videoId} never ended`);
}

async function transcript(harness: TestApp, key: string, videoId: string) {
  return harness.request('GET', `/v1/videos/${videoId}/transcript`, { token: key });
}

/** A video of the sentences spoken by espeak-ng over a black picture, made by the bundled ffmpeg. */
async function spokenVideo(t: TestContext, sentences: string[]) {
  const dir = scratch(t);
  const spoken = await speakSentences(dir, sentences, join(dir, 'speech.wav'));
  const video = join(dir, 'spoken.mp4');
  execFileSync(testFfmpegPath, [
    ...['-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=black:s=160x120:r=10'],
    ...['-i', join(dir, 'speech.wav'), '-shortest', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', video],
  ]);
  return { file: readFileSync(video), spoken };
}

test('local engine: a spoken video becomes ready, then gets its words as a transcript, each segment where it was said', async (t) => {
  const install = requirePocketsphinx();
  const sentences = ['Today we will show you how to set up your account.', 'Please call us if you have any questions about pricing.'];
  const { file, spoken } = await spokenVideo(t, sentences);
  const harness = await startTestApp(t, { isolated: true });
  startProcessing(t, harness);
  startSpeechToText(t, harness, pocketsphinxEngine(install));
  const ws = await harness.workspace();
  const videoId = await upload(harness, ws.key, file);

  assert.equal((await jobEnded(harness, videoId)).status, 'succeeded');
  const res = await transcript(harness, ws.key, videoId);
  assert.equal(res.status, 200, res.raw);
  assert.equal(res.body.source, 'speech_to_text');
  assert.equal(res.body.language, 'en');
  const segments = res.body.segments as Array<{ start_seconds: number; end_seconds: number; text: string }>;
  assert.ok(segments.length >= 2, res.raw);
  for (const segment of segments) {
    const sentence = spoken.find((s) => segment.start_seconds >= s.startSeconds - 0.3 && segment.end_seconds <= s.endSeconds + 0.3);
    assert.ok(sentence, `segment ${JSON.stringify(segment)} lies within a sentence (${JSON.stringify(spoken)})`);
  }
  const scored = wordErrors(sentences.join(' '), res.body.text);
  t.diagnostic(`heard "${res.body.text}": word error rate ${scored.errors}/${scored.words}`);
  assert.ok(scored.errors / scored.words <= 0.6, res.body.text);
  assert.equal((await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).body.status, 'ready');
});

test('HTTP engine: the server’s segments become the transcript, in the video’s time', async (t) => {
  const server = await startFakeTranscriptionServer(t, (request, index) => ({
    status: 200,
    body: { ...verboseJson(request, index), segments: [{ id: 0, start: 0.5, end: 1.5, text: ' Hello from the server.' }] },
  }));
  const harness = await startTestApp(t, { isolated: true });
  startProcessing(t, harness);
  startSpeechToText(t, harness, whisperAt(server.url));
  const ws = await harness.workspace();
  const videoId = await upload(harness, ws.key, clip);

  assert.equal((await jobEnded(harness, videoId)).status, 'succeeded');
  assert.equal(server.received.length, 1);
  const res = await transcript(harness, ws.key, videoId);
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual(
    [res.body.source, res.body.language, res.body.text, res.body.segments],
    ['speech_to_text', 'en', 'Hello from the server.', [{ start_seconds: 0.5, end_seconds: 1.5, text: 'Hello from the server.' }]],
  );
  // Another workspace finds nothing.
  const other = await harness.workspace();
  assert.equal((await transcript(harness, other.key, videoId)).status, 404);
});

test('a video with embedded subtitles keeps them: no speech-to-text job is queued', async (t) => {
  const server = await startFakeTranscriptionServer(t);
  const harness = await startTestApp(t, { isolated: true });
  startProcessing(t, harness);
  const ws = await harness.workspace();
  const videoId = await upload(harness, ws.key, subtitled);
  assert.deepEqual(await speechJobs(harness, videoId), []);
  assert.equal((await transcript(harness, ws.key, videoId)).body.source, 'embedded');
  assert.equal(server.received.length, 0);
});

test('a video without sound gets no job', async (t) => {
  const dir = scratch(t);
  const silentFilm = join(dir, 'silent.mp4');
  execFileSync(testFfmpegPath, ['-nostdin', '-loglevel', 'error', '-i', join(FIXTURES, 'clip.mp4'), '-an', '-c', 'copy', silentFilm]);
  const harness = await startTestApp(t, { isolated: true });
  startProcessing(t, harness);
  const ws = await harness.workspace();
  const videoId = await upload(harness, ws.key, readFileSync(silentFilm));
  assert.deepEqual(await speechJobs(harness, videoId), []);
});

test('captions saved before the job runs are kept: the server is not even asked', async (t) => {
  const server = await startFakeTranscriptionServer(t);
  const harness = await startTestApp(t, { isolated: true });
  startProcessing(t, harness);
  const ws = await harness.workspace();
  const videoId = await upload(harness, ws.key, clip);
  assert.deepEqual(
    (await speechJobs(harness, videoId)).map((job) => job.status),
    ['queued'],
  );
  const captions = { source: 'captions' as const, language: 'fr', segments: [{ start_seconds: 0, end_seconds: 2, text: 'Bonjour.' }] };
  await harness.database.db.transaction().execute((trx) => saveTranscript(trx, ws.id, videoId, captions, new Date()));

  startSpeechToText(t, harness, whisperAt(server.url));
  assert.equal((await jobEnded(harness, videoId)).status, 'succeeded');
  assert.equal(server.received.length, 0);
  const res = await transcript(harness, ws.key, videoId);
  assert.deepEqual([res.body.source, res.body.language, res.body.text], ['captions', 'fr', 'Bonjour.']);
});

test('captions that arrive while the speech is being recognised win', async (t) => {
  let harness: TestApp | undefined;
  let target: { workspaceId: string; videoId: string } | undefined;
  const server = await startFakeTranscriptionServer(t, async (request, index): Promise<FakeAnswer> => {
    // The owner uploads captions while the server is still listening.
    const captions = {
      source: 'captions' as const,
      language: 'en',
      segments: [{ start_seconds: 0, end_seconds: 2, text: 'Uploaded captions.' }],
    };
    const { workspaceId, videoId } = target as { workspaceId: string; videoId: string };
    await harness?.database.db.transaction().execute((trx) => saveTranscript(trx, workspaceId, videoId, captions, new Date()));
    return { status: 200, body: verboseJson(request, index) };
  });
  harness = await startTestApp(t, { isolated: true });
  startProcessing(t, harness);
  const ws = await harness.workspace();
  const videoId = await upload(harness, ws.key, clip);
  target = { workspaceId: ws.id, videoId };
  startSpeechToText(t, harness, whisperAt(server.url));

  assert.equal((await jobEnded(harness, videoId)).status, 'succeeded');
  assert.equal(server.received.length, 1);
  const res = await transcript(harness, ws.key, videoId);
  assert.deepEqual([res.body.source, res.body.text], ['captions', 'Uploaded captions.']);
});

test('a failing server: the job is retried, then fails for good, and the video stays ready without a transcript', async (t) => {
  const server = await startFakeTranscriptionServer(t, () => ({ status: 500, body: { error: { message: 'The server had an error.' } } }));
  const harness = await startTestApp(t, { isolated: true });
  startProcessing(t, harness);
  startSpeechToText(t, harness, whisperAt(server.url));
  const ws = await harness.workspace();
  const videoId = await upload(harness, ws.key, clip);

  const job = await jobEnded(harness, videoId);
  assert.deepEqual([job.status, job.attempts], ['failed', 3]);
  assert.match(job.last_error ?? '', /^The speech-to-text server answered HTTP 500 \(it will be tried again\): The server had an error\.$/);
  assert.equal(server.received.length, 3);
  assert.equal((await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).body.status, 'ready');
  assert.equal((await transcript(harness, ws.key, videoId)).status, 404);
});

test('a video longer than the limit is left without a transcript', async (t) => {
  const server = await startFakeTranscriptionServer(t);
  const harness = await startTestApp(t, { isolated: true });
  startProcessing(t, harness);
  startSpeechToText(t, harness, whisperAt(server.url), 2);
  const ws = await harness.workspace();
  const videoId = await upload(harness, ws.key, clip);
  assert.equal((await jobEnded(harness, videoId)).status, 'succeeded');
  assert.equal(server.received.length, 0);
  assert.equal((await transcript(harness, ws.key, videoId)).status, 404);
});
