/**
 * The HTTP engine against a local server that speaks OpenAI's protocol (multipart in, verbose_json
 * out): what it sends, how long audio is split and put back together in time, the language it
 * reports, and a clear error for every way the server can fail (refusals, outages, a hang, an
 * answer without segments, an address the guard refuses) that never contains the key.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { LOOPBACK, startFakeTranscriptionServer, verboseJson } from '../../../test/helpers/fake-transcription-server.ts';
import { openAiTranscriptions, type TranscriptionServer } from './openai-transcriptions.ts';
import { SpeechToTextError } from './speech-to-text.ts';
import { SPEECH_SAMPLE_RATE, wavFileOf } from './wav-file.ts';

const KEY = 'sk-test-0123456789abcdef';

/** A WAV of `seconds`, with a 300 Hz tone (loud enough to count as speech) wherever `loud(t)` says. */
function toneWav(t: TestContext, seconds: number, loud: (time: number) => boolean): string {
  const samples = Buffer.alloc(Math.round(seconds * SPEECH_SAMPLE_RATE) * 2);
  for (let i = 0; i < samples.length / 2; i++) {
    const time = i / SPEECH_SAMPLE_RATE;
    if (loud(time)) samples.writeInt16LE(Math.round(10_000 * Math.sin(2 * Math.PI * 300 * time)), i * 2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'cuepoint-http-speech-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'speech.wav');
  writeFileSync(path, wavFileOf(samples));
  return path;
}

function engine(url: string, overrides: Partial<TranscriptionServer> = {}) {
  return openAiTranscriptions({ url, key: KEY, model: 'whisper-1', timeoutMs: 30_000, allowPrivateNetworks: LOOPBACK, ...overrides });
}

test('one request for a short clip: multipart with the file, model and verbose_json; segments and language back', async (t) => {
  const server = await startFakeTranscriptionServer(t);
  const wav = toneWav(t, 5, (time) => time >= 1 && time < 3);
  const heard = await engine(`${server.url}/`).transcribe(wav, {});

  assert.equal(server.received.length, 1);
  const [request] = server.received;
  assert.equal(request?.path, '/v1/audio/transcriptions');
  assert.equal(request?.authorization, `Bearer ${KEY}`);
  assert.deepEqual(request?.fields, { model: 'whisper-1', response_format: 'verbose_json', 'timestamp_granularities[]': 'segment' });
  assert.deepEqual([request?.fileName, request?.fileType], ['speech.wav', 'audio/wav']);
  assert.equal(request?.wav.subarray(0, 4).toString('latin1'), 'RIFF');
  // Only the speech and a little around it is sent, not the silence before and after.
  assert.equal(request?.audioSeconds, 2.6);
  // The answer's segment (0.2 s to 2.4 s into what was sent) is put back where the window starts, at 0.7 s.
  assert.deepEqual(heard, { language: 'en', segments: [{ start_seconds: 0.9, end_seconds: 3.1, text: 'Request 1 heard this.' }] });
});

test('eleven minutes are sent as two windows cut at a pause, and the segments come back in the video’s time', async (t) => {
  const server = await startFakeTranscriptionServer(t, (request, index) => ({ status: 200, body: verboseJson(request, index, 'en') }));
  // Two seconds of "speech" every three seconds: a pause of 1 s after each.
  const wav = toneWav(t, 660, (time) => time % 3 < 2);
  const heard = await engine(server.url, { key: undefined }).transcribe(wav, {});

  assert.equal(server.received.length, 2);
  assert.equal(server.received[0]?.authorization, undefined, 'no key, no Authorization header');
  // The first window holds the spans that end by 600 s (0.3 s after the tone that stops at 599 s);
  // the second starts 0.3 s before the next tone (600 s) and ends 0.3 s after the last (659 s).
  assert.deepEqual(
    server.received.map((r) => r.audioSeconds),
    [599.3, 59.6],
  );
  // Each answer says 0.2 s to 0.2 s before the end of what it was sent, shifted by where its window starts.
  assert.deepEqual(heard.segments, [
    { start_seconds: 0.2, end_seconds: 599.1, text: 'Request 1 heard this.' },
    { start_seconds: 599.9, end_seconds: 659.1, text: 'Request 2 heard this.' },
  ]);
  assert.equal(heard.language, 'en');
});

test('silence: nothing is sent and nothing is heard', async (t) => {
  const server = await startFakeTranscriptionServer(t);
  const heard = await engine(server.url).transcribe(
    toneWav(t, 3, () => false),
    {},
  );
  assert.deepEqual([server.received.length, heard], [0, { language: null, segments: [] }]);
});

test('every failure is a sentence for the operator, never with the key in it', async (t) => {
  const cases: Array<{ name: string; answer: { status: number; body: unknown } | 'hang'; message: RegExp; timeoutMs?: number }> = [
    {
      name: 'a wrong key (OpenAI’s 401, which quotes the key)',
      answer: {
        status: 401,
        body: { error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } },
      },
      message:
        /^The speech-to-text server answered HTTP 401 \(check CUEPOINT_SPEECH_TO_TEXT_KEY\): Incorrect API key provided: \[CUEPOINT_SPEECH_TO_TEXT_KEY\]\.$/,
    },
    {
      name: 'an unknown model (FastAPI’s detail)',
      answer: { status: 404, body: { detail: 'Model whisper-9 not found' } },
      message: /^The speech-to-text server answered HTTP 404 \(check CUEPOINT_SPEECH_TO_TEXT_URL, .*\): Model whisper-9 not found$/,
    },
    {
      name: 'an outage (plain text 503)',
      answer: { status: 503, body: 'upstream overloaded' },
      message: /^The speech-to-text server answered HTTP 503 \(it will be tried again\): upstream overloaded$/,
    },
    {
      name: 'an answer without segments (response_format json)',
      answer: { status: 200, body: { text: 'Hello there.' } },
      message: /answered without timed segments: it must support response_format=verbose_json/,
    },
    {
      name: 'no answer in time',
      answer: 'hang',
      timeoutMs: 300,
      message: /^The speech-to-text server could not be used: .* \(CUEPOINT_SPEECH_TO_TEXT_TIMEOUT_MS is 300\)$/,
    },
  ];
  const wav = toneWav(t, 2, (time) => time < 1);
  for (const { name, answer, message, timeoutMs } of cases) {
    await t.test(name, async (t) => {
      const server = await startFakeTranscriptionServer(t, () => answer);
      const failure = await engine(server.url, timeoutMs ? { timeoutMs } : {})
        .transcribe(wav, {})
        .then(
          () => assert.fail('must fail'),
          (error: unknown) => error,
        );
      assert.ok(failure instanceof SpeechToTextError, String(failure));
      assert.match(failure.message, message);
      assert.ok(!failure.message.includes(KEY));
    });
  }
});

test('the SSRF guard: a server on a private address is refused unless the operator allows it', async (t) => {
  const server = await startFakeTranscriptionServer(t);
  const failure = await engine(server.url, { allowPrivateNetworks: [] })
    .transcribe(
      toneWav(t, 2, (time) => time < 1),
      {},
    )
    .then(
      () => assert.fail('must fail'),
      (error: unknown) => error as Error,
    );
  assert.match(
    failure.message,
    /^The speech-to-text server could not be used: .*\(a server on your own network needs its address in CUEPOINT_ALLOW_PRIVATE_NETWORKS\)$/,
  );
  assert.equal(server.received.length, 0);
});
