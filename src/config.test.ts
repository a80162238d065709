import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

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
