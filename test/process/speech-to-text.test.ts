/**
 * Speech-to-text in a real `cuepoint start`: with CUEPOINT_SPEECH_TO_TEXT=http pointed at a fake
 * OpenAI-compatible server on loopback, the start-up log says which engine runs, and a video uploaded
 * through the API gets its transcript from the server (the job wired into the worker, through the
 * SSRF guard's allow-list). With CUEPOINT_SPEECH_TO_TEXT=local and no PocketSphinx, the service
 * refuses to start and says what to install. The jobs themselves are tested in
 * src/workers/video-speech-to-text.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeTranscriptionServer } from '../helpers/fake-transcription-server.ts';
import { http, runCli, startServer, tempDir } from '../helpers/server-process.ts';

const clip = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'clip.mp4'));

test('CUEPOINT_SPEECH_TO_TEXT=http: announced at start, and an uploaded video gets its transcript from the server', {
  timeout: 300_000,
}, async (t) => {
  const fake = await startFakeTranscriptionServer(t);
  const server = await startServer(t, {
    dataDir: tempDir(t),
    env: {
      LOG_LEVEL: 'info',
      CUEPOINT_SPEECH_TO_TEXT: 'http',
      CUEPOINT_SPEECH_TO_TEXT_URL: fake.url,
      CUEPOINT_SPEECH_TO_TEXT_KEY: 'sk-process-test',
      CUEPOINT_ALLOW_PRIVATE_NETWORKS: '127.0.0.1/32',
    },
  });
  const token = await server.firstKey();
  // The log line is written at start-up, but may reach the pipe after /ready answers.
  const announcedLine = await server.printed(/^(\{.*"msg":"speech-to-text is on[^\n]*\})\n/m);
  const announced = JSON.parse(announcedLine[1] as string) as { engine?: string; max_seconds?: number };
  assert.deepEqual([announced?.engine, announced?.max_seconds], [`http (${fake.url}, whisper-1)`, 14_400], server.stdout());

  const created = await http(`${server.url}/v1/videos/uploads`, {
    method: 'POST',
    token,
    body: { file_name: 'talk.mp4', file_size: clip.length },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const put = await fetch(`${server.url}${new URL(created.body.upload_url).pathname}`, {
    method: 'PUT',
    body: clip,
    headers: { 'content-type': 'application/octet-stream' },
  });
  assert.equal(put.status, 200, await put.text());

  const videoId = created.body.video_id as string;
  for (;;) {
    const transcript = await http(`${server.url}/v1/videos/${videoId}/transcript`, { token });
    if (transcript.status === 200) {
      assert.deepEqual(
        [transcript.body.source, transcript.body.language, transcript.body.text],
        ['speech_to_text', 'en', 'Request 1 heard this.'],
      );
      break;
    }
    assert.equal(transcript.status, 404, JSON.stringify(transcript.body));
    await sleep(100);
  }
  assert.equal(fake.received.length, 1);
  assert.equal(fake.received[0]?.authorization, 'Bearer sk-process-test');
  assert.ok(!server.stdout().includes('sk-process-test'), 'the key is never logged');
});

test('CUEPOINT_SPEECH_TO_TEXT=local without PocketSphinx: the service refuses to start and says what to install', {
  timeout: 120_000,
}, async (t) => {
  const empty = tempDir(t);
  const result = await runCli(t, ['start'], { dataDir: tempDir(t), env: { CUEPOINT_SPEECH_TO_TEXT: 'local', PATH: empty } });
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(
    result.stderr,
    /CUEPOINT_SPEECH_TO_TEXT=local needs PocketSphinx: pocketsphinx_batch is not on PATH \(Debian: apt-get install pocketsphinx pocketsphinx-en-us\)/,
  );
});
