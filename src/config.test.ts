/**
 * Settings read from the environment: the webhook schedule (DESIGN §4's by default, a compressed one
 * for tests, every bad value named at once) and where ffmpeg is found.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig, parseDurationList } from './config.ts';

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

test('CUEPOINT_FFMPEG: found on PATH when unset, an explicit executable, off, or a start-up error', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cuepoint-ffmpeg-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const ffmpeg = join(dir, 'ffmpeg');
  writeFileSync(ffmpeg, '#!/bin/sh\n');
  const notExecutable = join(dir, 'plain-file');
  writeFileSync(notExecutable, '');

  assert.equal(loadConfig({ PATH: dir }).ffmpegPath, null, 'a file without the execute bit does not count');
  chmodSync(ffmpeg, 0o755);
  assert.equal(loadConfig({ PATH: ['/nonexistent', dir].join(':') }).ffmpegPath, ffmpeg);
  assert.equal(loadConfig({ PATH: '/nonexistent' }).ffmpegPath, null);
  assert.equal(loadConfig({ PATH: dir, CUEPOINT_FFMPEG: 'off' }).ffmpegPath, null);
  assert.equal(loadConfig({ PATH: '', CUEPOINT_FFMPEG: ffmpeg }).ffmpegPath, ffmpeg);
  for (const bad of [notExecutable, dir, join(dir, 'missing')]) {
    assert.throws(
      () => loadConfig({ CUEPOINT_FFMPEG: bad }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.includes(`CUEPOINT_FFMPEG must be the path of an executable ffmpeg, or 'off' (not found: ${bad})`),
    );
  }
});
