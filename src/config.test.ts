/**
 * Settings read from the environment: the webhook schedule (DESIGN §4's by default, a compressed one
 * for tests, every bad value named at once), the database timeout, the trusted proxies, where ffmpeg
 * is found, speech-to-text, and where media files are kept and how they are served.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { testFfmpegPath } from '../test/helpers/ffmpeg.ts';
import { requirePocketsphinx } from '../test/helpers/spoken-audio.ts';
import { ConfigError, loadConfig, parseDurationList } from './config.ts';
import { findBundledFfmpeg } from './media/bundled-ffmpeg.ts';

test('webhook settings: defaults, a compressed schedule, and bad values named', () => {
  const defaults = loadConfig({}).webhooks;
  assert.deepEqual(defaults.retrySchedule, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  assert.deepEqual({ ...defaults, retrySchedule: undefined }, { timeoutMs: 15_000, pollMs: 250, concurrency: 8, retrySchedule: undefined });

  const fast = loadConfig({
    CUEPOINT_WEBHOOK_RETRY_SCHEDULE: '100ms, 1.5s,2m',
    CUEPOINT_WEBHOOK_TIMEOUT_MS: '1000',
    CUEPOINT_WEBHOOK_POLL_MS: '20',
    CUEPOINT_WEBHOOK_CONCURRENCY: '32',
  }).webhooks;
  assert.deepEqual(fast, { timeoutMs: 1000, retrySchedule: [100, 1500, 120_000], pollMs: 20, concurrency: 32 });
  assert.deepEqual(parseDurationList('1h'), [3_600_000]);

  assert.throws(
    () => loadConfig({ CUEPOINT_WEBHOOK_RETRY_SCHEDULE: '5s,soon', CUEPOINT_WEBHOOK_TIMEOUT_MS: '5', CUEPOINT_WEBHOOK_CONCURRENCY: '0' }),
    (error: unknown) =>
      error instanceof ConfigError &&
      /CUEPOINT_WEBHOOK_RETRY_SCHEDULE: "soon" is not a duration/.test(error.message) &&
      /CUEPOINT_WEBHOOK_TIMEOUT_MS must be an integer from 100/.test(error.message) &&
      /CUEPOINT_WEBHOOK_CONCURRENCY must be an integer from 1/.test(error.message),
  );
  assert.throws(() => parseDurationList('25h'), /not a duration from 1ms to 24h/);
  assert.throws(() => parseDurationList(Array(21).fill('1s').join(',')), /more than 20 steps/);
});

test('CUEPOINT_DB_TIMEOUT_MS: 2 s by default, settable, refused outside 100 ms to 10 minutes', () => {
  assert.equal(loadConfig({}).dbTimeoutMs, 2000);
  assert.equal(loadConfig({ CUEPOINT_DB_TIMEOUT_MS: '750' }).dbTimeoutMs, 750);
  for (const bad of ['0', '99', '600001', '1.5', 'soon']) {
    assert.throws(() => loadConfig({ CUEPOINT_DB_TIMEOUT_MS: bad }), /CUEPOINT_DB_TIMEOUT_MS must be an integer from 100 to 600000/, bad);
  }
});

test('CUEPOINT_REDIS_TIMEOUT_MS: 50 ms by default, settable from 10 ms to 10 s', () => {
  assert.equal(loadConfig({}).redisTimeoutMs, 50);
  assert.equal(loadConfig({ CUEPOINT_REDIS_TIMEOUT_MS: '200' }).redisTimeoutMs, 200);
  for (const bad of ['9', '10001', 'fast']) {
    assert.throws(
      () => loadConfig({ CUEPOINT_REDIS_TIMEOUT_MS: bad }),
      /CUEPOINT_REDIS_TIMEOUT_MS must be an integer from 10 to 10000/,
      bad,
    );
  }
});

test('CUEPOINT_TRUSTED_PROXIES: none by default; addresses and ranges; anything else, or a range trusting everyone, named', () => {
  assert.deepEqual(loadConfig({}).trustedProxies, []);
  const config = loadConfig({ CUEPOINT_TRUSTED_PROXIES: ' 10.0.0.0/8, 127.0.0.1 ,2001:db8::/32,,' });
  assert.deepEqual(
    config.trustedProxies.map((cidr) => cidr.text),
    ['10.0.0.0/8', '127.0.0.1/32', '2001:db8::/32'],
  );
  assert.throws(
    () => loadConfig({ CUEPOINT_TRUSTED_PROXIES: 'lb.internal,10.0.0.1/8,0.0.0.0/0,::/0,2' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /CUEPOINT_TRUSTED_PROXIES: "lb\.internal" is not an IP address or CIDR range/);
      assert.match(error.message, /CUEPOINT_TRUSTED_PROXIES: "10\.0\.0\.1\/8" has bits set after the prefix; did you mean 10\.0\.0\.0\/8/);
      assert.match(error.message, /CUEPOINT_TRUSTED_PROXIES: "0\.0\.0\.0\/0" would trust X-Forwarded-For from every address/);
      assert.match(error.message, /CUEPOINT_TRUSTED_PROXIES: "::\/0" would trust X-Forwarded-For from every address/);
      assert.match(error.message, /CUEPOINT_TRUSTED_PROXIES: "2" is not an IP address or CIDR range/);
      return true;
    },
  );
});

test('ffmpeg: CUEPOINT_FFMPEG, else the bundled build, else PATH; off; a bad path is a start-up error', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cuepoint-ffmpeg-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const ffmpeg = join(dir, 'ffmpeg');
  writeFileSync(ffmpeg, '#!/bin/sh\n');
  const notExecutable = join(dir, 'plain-file');
  writeFileSync(notExecutable, '');
  const bundledBinary = join(dir, 'bundled-ffmpeg');
  writeFileSync(bundledBinary, '#!/bin/sh\n');
  chmodSync(bundledBinary, 0o755);
  const noneBundled = () => ({ path: null, reason: 'none bundled in this test' });
  const bundled = () => ({ path: bundledBinary });

  assert.equal(loadConfig({ PATH: dir }, noneBundled).ffmpegPath, null, 'a file without the execute bit does not count');
  chmodSync(ffmpeg, 0o755);
  const onPath = loadConfig({ PATH: ['/nonexistent', dir].join(':') }, noneBundled);
  assert.deepEqual([onPath.ffmpegPath, onPath.ffmpegSource, onPath.ffmpegBundledProblem], [ffmpeg, 'PATH', 'none bundled in this test']);
  assert.equal(loadConfig({ PATH: '/nonexistent' }, noneBundled).ffmpegPath, null);

  const first = loadConfig({ PATH: dir }, bundled);
  assert.deepEqual([first.ffmpegPath, first.ffmpegSource, first.ffmpegBundledProblem], [bundledBinary, 'bundled', undefined]);
  const chosen = loadConfig({ PATH: dir, CUEPOINT_FFMPEG: ffmpeg }, bundled);
  assert.deepEqual([chosen.ffmpegPath, chosen.ffmpegSource], [ffmpeg, 'CUEPOINT_FFMPEG']);
  const off = loadConfig({ PATH: dir, CUEPOINT_FFMPEG: 'off' }, bundled);
  assert.deepEqual([off.ffmpegPath, off.ffmpegSource, off.ffmpegBundledProblem], [null, null, undefined]);
  for (const bad of [notExecutable, dir, join(dir, 'missing')]) {
    assert.throws(
      () => loadConfig({ CUEPOINT_FFMPEG: bad }, bundled),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.includes(`CUEPOINT_FFMPEG must be the path of an executable ffmpeg, or 'off' (not found: ${bad})`),
    );
  }

  // The bundled build: one that lost its execute bit is passed over, saying how to fix it.
  const unusable = findBundledFfmpeg(() => notExecutable);
  assert.equal(unusable.path, null);
  assert.match('reason' in unusable ? unusable.reason : '', /is not executable: run `chmod u\+x .*plain-file`/);
  const unsupported = findBundledFfmpeg(() => {
    throw 'Unsupported platform/architecture: plan9-mips';
  });
  assert.match('reason' in unsupported ? unsupported.reason : '', /no ffmpeg is bundled for this machine \(Unsupported platform/);
});

test('by default the bundled ffmpeg is found, with nothing configured and nothing on PATH', () => {
  const config = loadConfig({ PATH: '/nonexistent' });
  assert.deepEqual([config.ffmpegPath, config.ffmpegSource], [testFfmpegPath, 'bundled']);
});

test('CUEPOINT_SHUTDOWN_TIMEOUT_MS: 10 s by default, 100 ms to 10 min', () => {
  assert.equal(loadConfig({}).shutdownTimeoutMs, 10_000);
  assert.equal(loadConfig({ CUEPOINT_SHUTDOWN_TIMEOUT_MS: '2500' }).shutdownTimeoutMs, 2500);
  for (const bad of ['0', '99', '600001', 'soon']) {
    assert.throws(
      () => loadConfig({ CUEPOINT_SHUTDOWN_TIMEOUT_MS: bad }),
      /CUEPOINT_SHUTDOWN_TIMEOUT_MS must be an integer from 100 to 600000/,
    );
  }
});

test('email: no SMTP server by default; CUEPOINT_SMTP_URL and CUEPOINT_MAIL_FROM parsed; a setting that cannot work stops the start with the fix', () => {
  assert.deepEqual(loadConfig({}).email, { smtp: null, from: null });
  assert.deepEqual(loadConfig({ CUEPOINT_MAIL_FROM: 'videos@example.com' }).email, {
    smtp: null,
    from: { address: 'videos@example.com', name: null },
  });
  const email = loadConfig({
    CUEPOINT_SMTP_URL: 'smtps://apikey:s%40cret@smtp.example.com',
    CUEPOINT_MAIL_FROM: 'Cuepoint <videos@example.com>',
  }).email;
  assert.deepEqual(email.from, { address: 'videos@example.com', name: 'Cuepoint' });
  assert.equal(email.smtp?.host, 'smtp.example.com');
  assert.equal(email.smtp?.port, 465);
  assert.deepEqual(email.smtp?.auth, { user: 'apikey', pass: 's@cret' });
  assert.equal(
    loadConfig({ CUEPOINT_SMTP_URL: 'smtp://127.0.0.1:2525', CUEPOINT_MAIL_FROM: 'a@example.com' }).email.smtp?.requireTls,
    false,
  );

  const refused: [Record<string, string>, RegExp][] = [
    [
      { CUEPOINT_SMTP_URL: 'smtp.example.com:587', CUEPOINT_MAIL_FROM: 'a@example.com' },
      /CUEPOINT_SMTP_URL must start with smtp:\/\/ or smtps:\/\/: write it as smtp:\/\/user:password@smtp\.example\.com:587/,
    ],
    [
      { CUEPOINT_SMTP_URL: 'https://smtp.example.com', CUEPOINT_MAIL_FROM: 'a@example.com' },
      /CUEPOINT_SMTP_URL must start with smtp:\/\/ or smtps:\/\//,
    ],
    [
      { CUEPOINT_SMTP_URL: 'smtp://user@smtp.example.com', CUEPOINT_MAIL_FROM: 'a@example.com' },
      /CUEPOINT_SMTP_URL must hold both a user name and a password/,
    ],
    [{ CUEPOINT_SMTP_URL: 'smtp://127.0.0.1:2525' }, /CUEPOINT_MAIL_FROM must be set with CUEPOINT_SMTP_URL/],
    [{ CUEPOINT_MAIL_FROM: 'videos at example.com' }, /CUEPOINT_MAIL_FROM must be an address such as videos@example\.com/],
    [
      { CUEPOINT_MAIL_FROM: 'Evil\r\nBcc: x@y.example <videos@example.com>' },
      /CUEPOINT_MAIL_FROM has a display name with quotes, backslashes or control characters/,
    ],
  ];
  for (const [env, problem] of refused) {
    assert.throws(
      () => loadConfig(env),
      (error: unknown) => error instanceof ConfigError && problem.test(error.message),
      JSON.stringify(env),
    );
  }
});

test('CUEPOINT_DEMO_NOW: unset means now; a real UTC instant pins the demo; anything else is named', () => {
  assert.equal(loadConfig({}).demoNow, undefined);
  assert.equal(loadConfig({ CUEPOINT_DEMO_NOW: '2026-11-18T12:00:00Z' }).demoNow?.toISOString(), '2026-11-18T12:00:00.000Z');
  assert.equal(loadConfig({ CUEPOINT_DEMO_NOW: '2026-11-18T12:00:00.5Z' }).demoNow?.getTime(), Date.parse('2026-11-18T12:00:00.500Z'));
  for (const bad of ['yesterday', '2026-11-18', '2026-11-18T12:00:00+01:00', '2026-02-30T12:00:00Z', '2030-12-31T23:59:60Z']) {
    assert.throws(
      () => loadConfig({ CUEPOINT_DEMO_NOW: bad }),
      (error: unknown) => error instanceof ConfigError && /CUEPOINT_DEMO_NOW must be a UTC instant/.test(error.message),
      bad,
    );
  }
});

test('speech-to-text: off by default; local needs PocketSphinx; http needs a base URL; bounds and problems named', (t) => {
  assert.deepEqual(loadConfig({}).speechToText, { engine: 'off' });
  assert.deepEqual(loadConfig({ CUEPOINT_SPEECH_TO_TEXT: 'off', CUEPOINT_SPEECH_TO_TEXT_URL: 'not checked when off' }).speechToText, {
    engine: 'off',
  });

  const install = requirePocketsphinx();
  assert.deepEqual(loadConfig({ CUEPOINT_SPEECH_TO_TEXT: 'local', PATH: process.env.PATH }).speechToText, {
    engine: 'local',
    maxSeconds: 14_400,
    pocketsphinx: install,
  });
  const empty = mkdtempSync(join(tmpdir(), 'cuepoint-no-pocketsphinx-'));
  t.after(() => rmSync(empty, { recursive: true, force: true }));
  assert.throws(
    () => loadConfig({ CUEPOINT_SPEECH_TO_TEXT: 'local', PATH: empty }),
    (error: unknown) =>
      error instanceof ConfigError &&
      error.message.includes(
        'CUEPOINT_SPEECH_TO_TEXT=local needs PocketSphinx: pocketsphinx_batch is not on PATH (Debian: apt-get install pocketsphinx pocketsphinx-en-us)',
      ),
  );

  assert.deepEqual(
    loadConfig({
      CUEPOINT_SPEECH_TO_TEXT: 'http',
      CUEPOINT_SPEECH_TO_TEXT_URL: 'https://api.openai.com/v1/',
      CUEPOINT_SPEECH_TO_TEXT_KEY: 'sk-abc',
      CUEPOINT_SPEECH_TO_TEXT_MAX_SECONDS: '600',
    }).speechToText,
    {
      engine: 'http',
      maxSeconds: 600,
      server: { url: 'https://api.openai.com/v1', key: 'sk-abc', model: 'whisper-1', timeoutMs: 600_000 },
    },
  );
  const local = loadConfig({
    CUEPOINT_SPEECH_TO_TEXT: 'http',
    CUEPOINT_SPEECH_TO_TEXT_URL: 'http://127.0.0.1:8080/v1',
    CUEPOINT_SPEECH_TO_TEXT_MODEL: 'Systran/faster-whisper-small',
    CUEPOINT_SPEECH_TO_TEXT_TIMEOUT_MS: '120000',
  }).speechToText;
  assert.deepEqual(local, {
    engine: 'http',
    maxSeconds: 14_400,
    server: { url: 'http://127.0.0.1:8080/v1', key: undefined, model: 'Systran/faster-whisper-small', timeoutMs: 120_000 },
  });

  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
    }
    return assert.fail(`no problem found in ${JSON.stringify(env)}`);
  };
  assert.match(problems({ CUEPOINT_SPEECH_TO_TEXT: 'whisper' }), /CUEPOINT_SPEECH_TO_TEXT must be one of off, local, http/);
  const http = problems({
    CUEPOINT_SPEECH_TO_TEXT: 'http',
    CUEPOINT_SPEECH_TO_TEXT_MODEL: 'whisper 1',
    CUEPOINT_SPEECH_TO_TEXT_TIMEOUT_MS: '999',
    CUEPOINT_SPEECH_TO_TEXT_MAX_SECONDS: '0',
  });
  assert.match(http, /CUEPOINT_SPEECH_TO_TEXT_URL must be the http\(s\) base URL of an OpenAI-compatible API/);
  assert.match(http, /CUEPOINT_SPEECH_TO_TEXT_MODEL must be a model name of at most 200 characters, without spaces/);
  assert.match(http, /CUEPOINT_SPEECH_TO_TEXT_TIMEOUT_MS must be an integer from 1000 to 3600000/);
  assert.match(http, /CUEPOINT_SPEECH_TO_TEXT_MAX_SECONDS must be an integer from 1 to 86400/);
  for (const url of ['ftp://host/v1', 'https://user:pass@api.example.com/v1', 'https://api.example.com/v1?key=1', 'api.openai.com/v1']) {
    assert.match(
      problems({ CUEPOINT_SPEECH_TO_TEXT: 'http', CUEPOINT_SPEECH_TO_TEXT_URL: url }),
      /CUEPOINT_SPEECH_TO_TEXT_URL must be/,
      url,
    );
  }
  assert.match(
    problems({ CUEPOINT_SPEECH_TO_TEXT: 'http', CUEPOINT_SPEECH_TO_TEXT_URL: 'https://api.openai.com/v1', CUEPOINT_FFMPEG: 'off' }),
    /CUEPOINT_SPEECH_TO_TEXT=http needs ffmpeg to take the sound out of videos, and CUEPOINT_FFMPEG is off/,
  );
});

test('media storage: the local folder by default; CUEPOINT_S3_BUCKET selects S3, with its settings checked and named', () => {
  const local = loadConfig({});
  assert.deepEqual([local.mediaStorage, local.mediaDelivery], [{ kind: 'local' }, { mode: 'stream', urlSeconds: 300 }]);

  assert.deepEqual(loadConfig({ CUEPOINT_S3_BUCKET: 'cuepoint-media' }).mediaStorage, {
    kind: 's3',
    bucket: 'cuepoint-media',
    endpoint: undefined,
    region: 'us-east-1',
    credentials: undefined,
    forcePathStyle: false,
    prefix: '',
  });
  const minio = loadConfig({
    CUEPOINT_S3_BUCKET: 'videos.example.com',
    CUEPOINT_S3_ENDPOINT: 'http://127.0.0.1:9000/',
    CUEPOINT_S3_REGION: 'eu-central-1',
    CUEPOINT_S3_ACCESS_KEY_ID: 'minioadmin',
    CUEPOINT_S3_SECRET_ACCESS_KEY: 'minio/secret+key',
    CUEPOINT_S3_FORCE_PATH_STYLE: 'true',
    CUEPOINT_S3_PREFIX: 'cuepoint/media/',
    CUEPOINT_MEDIA_DELIVERY: 'redirect',
    CUEPOINT_MEDIA_URL_SECONDS: '900',
  });
  assert.deepEqual(minio.mediaStorage, {
    kind: 's3',
    bucket: 'videos.example.com',
    endpoint: 'http://127.0.0.1:9000',
    region: 'eu-central-1',
    credentials: { accessKeyId: 'minioadmin', secretAccessKey: 'minio/secret+key' },
    forcePathStyle: true,
    prefix: 'cuepoint/media/',
  });
  assert.deepEqual(minio.mediaDelivery, { mode: 'redirect', urlSeconds: 900 });

  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
    }
    return assert.fail(`no problem found in ${JSON.stringify(env)}`);
  };
  assert.match(
    problems({ CUEPOINT_S3_BUCKETT: 'typo', CUEPOINT_S3_ENDPOINT: 'http://127.0.0.1:9000', CUEPOINT_S3_REGION: 'eu-west-1' }),
    /CUEPOINT_S3_ENDPOINT, CUEPOINT_S3_REGION set without CUEPOINT_S3_BUCKET: set the bucket to keep media in S3, or remove them/,
  );
  const bad = problems({
    CUEPOINT_S3_BUCKET: 'Media_Bucket',
    CUEPOINT_S3_ENDPOINT: 'https://user:pass@s3.example.com',
    CUEPOINT_S3_REGION: 'EU West',
    CUEPOINT_S3_ACCESS_KEY_ID: 'only-the-id',
    CUEPOINT_S3_FORCE_PATH_STYLE: 'yes',
    CUEPOINT_S3_PREFIX: '/media/../other/',
    CUEPOINT_MEDIA_DELIVERY: 'cdn',
    CUEPOINT_MEDIA_URL_SECONDS: '5',
  });
  for (const expected of [
    /CUEPOINT_S3_BUCKET must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens/,
    /CUEPOINT_S3_ENDPOINT must be the origin of an S3-compatible service/,
    /CUEPOINT_S3_REGION must be a region name/,
    /CUEPOINT_S3_ACCESS_KEY_ID and CUEPOINT_S3_SECRET_ACCESS_KEY go together: set both, or neither/,
    /CUEPOINT_S3_FORCE_PATH_STYLE must be true or false/,
    /CUEPOINT_S3_PREFIX must be at most 200 characters/,
    /CUEPOINT_MEDIA_DELIVERY must be one of stream, redirect/,
    /CUEPOINT_MEDIA_URL_SECONDS must be an integer from 10 to 3600/,
  ]) {
    assert.match(bad, expected);
  }
  for (const endpoint of ['ftp://s3.example.com', 's3.example.com', 'https://s3.example.com/bucket', 'https://s3.example.com?x=1']) {
    assert.match(problems({ CUEPOINT_S3_BUCKET: 'media', CUEPOINT_S3_ENDPOINT: endpoint }), /CUEPOINT_S3_ENDPOINT must be/, endpoint);
  }
  for (const prefix of ['a//b/', 'media/./x/', 'with space/', `${'p'.repeat(201)}/`]) {
    assert.match(problems({ CUEPOINT_S3_BUCKET: 'media', CUEPOINT_S3_PREFIX: prefix }), /CUEPOINT_S3_PREFIX must be/, prefix);
  }
  assert.match(
    problems({ CUEPOINT_MEDIA_DELIVERY: 'redirect' }),
    /CUEPOINT_MEDIA_DELIVERY=redirect needs an object store to redirect to \(CUEPOINT_S3_BUCKET\)/,
  );
});
