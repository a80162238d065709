/**
 * Captions in a real Chromium: the watch page's <video> has a captions text track, which loads its
 * cues from GET /media/{video_id}/captions.vtt under the page's CSP once turned on (as the player's
 * captions menu does), with the language and label the page gave it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { launchChromium, ordinaryContext } from './chromium.ts';

const clip = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'clip.mp4'));

const CAPTIONS = [
  'WEBVTT',
  '',
  '00:00.200 --> 00:01.400',
  'Welcome to <b>Cuepoint</b> &amp; friends.',
  '',
  '00:01.500 --> 00:02.800',
  'Every second is captioned.',
  '',
].join('\n');

/** What the page reports of its video's text tracks once the first is loaded; strings, as the project has no DOM types. */
const LOADED_TRACK = `new Promise((resolve, reject) => {
  const element = document.querySelector('video track');
  const track = document.querySelector('video').textTracks[0];
  const report = () => resolve({
    tracks: document.querySelector('video').textTracks.length,
    kind: track.kind,
    language: track.language,
    label: track.label,
    cues: Array.from(track.cues, (cue) => [cue.startTime, cue.endTime, cue.getCueAsHTML().textContent]),
  });
  element.addEventListener('load', report);
  element.addEventListener('error', () => reject(new Error('the captions track failed to load')));
  track.mode = 'hidden';
  if (element.readyState === 2) report();
})`;

test('the watch page’s video loads its captions track in Chromium', { timeout: 120_000 }, async (t) => {
  const browser = await launchChromium(t);
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Captioned tour', media_type: 'video/mp4', file_size: clip.length, duration_seconds: 3 });
  await harness.mediaStore.write({ workspaceId: ws.id, videoId, file: 'source' }, Readable.from([clip]), { exactly: clip.length });
  const set = await harness.request('PUT', `/v1/videos/${videoId}/transcript`, {
    token: ws.key,
    body: { format: 'webvtt', language: 'en', text: CAPTIONS },
  });
  assert.equal(set.status, 200, set.raw);

  const context = await ordinaryContext(browser);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  const base = await urlOf(harness.app);
  for (const kind of ['watch', 'embed']) {
    const response = await page.goto(`${base}/${kind}/${videoId}`);
    assert.equal(response?.status(), 200);
    assert.deepEqual(await page.evaluate(LOADED_TRACK), {
      tracks: 1,
      kind: 'captions',
      language: 'en',
      label: 'English',
      cues: [
        [0.2, 1.4, 'Welcome to Cuepoint & friends.'],
        [1.5, 2.8, 'Every second is captioned.'],
      ],
    });
  }
  assert.deepEqual(problems, []);
  await context.close();
});
