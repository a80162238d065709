/**
 * Adaptive playback in a real Chromium. A 1280x720 clip is uploaded and the processing worker makes
 * its HLS ladder (240p to 720p); its watch page plays it through hls.js, fetched from our own origin:
 * the player says which rendition it loaded, the server saw the playlists and segments asked for
 * and never the original file, the poster and the captions track are there as before, and the
 * viewing is recorded from the player's batches as it would be for the file. The same stream plays
 * in the embed page framed by another site, and from a linked second; when its segments fail mid-play, the player goes on with
 * the original file from where it was, and the session shows one unbroken stretch of playing. A
 * video without renditions plays its original file, with no playback script on the page.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { createViewingTokens } from '../../src/domains/viewing/viewing-token.ts';
import { startTestApp, TEST_SECRET, type TestApp } from '../helpers/app.ts';
import { makeTestClip, testFfmpegPath } from '../helpers/ffmpeg.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { createUpload, put, waitForLadder, waitForStatus, withProcessingWorker } from '../helpers/uploads.ts';
import { foldEverything, type StoredBatch, storedBatchesUntil } from '../helpers/viewing.ts';
import { launchChromium, ordinaryContext } from './chromium.ts';

const endedIn = (batches: StoredBatch[]) => batches.some((batch) => batch.events.some((event) => event.type === 'ended'));

/** A request the app answered: its path and status. */
interface Hit {
  path: string;
  status: number;
}

/** Records every request the app answers (hooks must be added before its first request). */
function recordHits(harness: TestApp): Hit[] {
  const hits: Hit[] = [];
  harness.app.addHook('onResponse', async (request, reply) => {
    hits.push({ path: request.url.split('?')[0] ?? '', status: reply.statusCode });
  });
  return hits;
}

async function upload(harness: TestApp, key: string, file: Buffer, title: string): Promise<string> {
  const created = await createUpload(harness, key, { file_name: 'clip.mp4', file_size: file.length, title });
  assert.equal((await put(harness, created.upload_url, file)).status, 200);
  const video = await waitForStatus(harness, key, created.video_id, ['ready', 'failed']);
  assert.equal(video.status, 'ready', video.failure_reason);
  return created.video_id;
}

/** The session as the service keeps it once its batches are folded. */
async function foldedSession(harness: TestApp, sessionId: string) {
  await foldEverything(harness.database.db);
  return harness.database.db.selectFrom('viewing_sessions').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow();
}

/** A page that collects its problems: script errors, console errors, and anything the CSP refused. */
async function watchedPage(context: BrowserContext): Promise<{ page: Page; problems: string[]; warnings: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  const warnings: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(`console: ${message.text()}`);
    if (message.type() === 'warning') warnings.push(message.text());
  });
  return { page, problems, warnings };
}

function sessionOf(token: string | null): string {
  const checked = createViewingTokens(TEST_SECRET).check(token ?? '', new Date());
  assert.ok(checked.ok, 'the page carries a valid viewing token');
  return checked.sessionId;
}

/** Page-side code is strings, or typed here by hand: the project's TypeScript has no DOM types. */
const VIDEO = "document.querySelector('video')";
const PLAY_TO_THE_END = `${VIDEO}.play()`;

/** What a wait reads of the page's video. */
interface VideoView {
  dataset: Record<string, string | undefined>;
  readyState: number;
  ended: boolean;
  currentTime: number;
}

type VideoCondition = 'streaming' | 'ended' | 'fell back and ended' | 'past 1 s' | 'at 5 s';

/** Waits for the page's video to reach a state. (A function, not a string: the pages' CSP forbids eval.) */
async function waitForVideo(target: Page | Frame, condition: VideoCondition): Promise<void> {
  await target.waitForFunction(
    (wanted) => {
      const video = (globalThis as unknown as { document: { querySelector(selector: string): VideoView } }).document.querySelector('video');
      if (wanted === 'streaming') return video.dataset.cuepointEngine === 'hls.js' && video.readyState >= 1;
      if (wanted === 'ended') return video.ended;
      if (wanted === 'fell back and ended') return video.ended && video.dataset.cuepointEngine === 'file';
      if (wanted === 'at 5 s') return video.currentTime === 5 && video.readyState >= 1;
      return video.currentTime > 1;
    },
    condition,
    { timeout: 90_000 },
  );
}
// Every level switch the player announced, collected from the start of each page.
const COLLECT_SWITCHES =
  "window.cuepointSwitches = []; addEventListener('cuepoint:levelswitch', (event) => window.cuepointSwitches.push(event.detail.level), true);";

const kindsOf = (batches: StoredBatch[]) =>
  batches.flatMap((batch) => batch.events.filter((event) => event.type !== 'progress').map((event) => event.type));

// Transcoding a ladder and playing it in real time: slow on a busy 2-core machine.
test('an uploaded clip plays its HLS ladder through hls.js, in the watch page and in an embed elsewhere, and falls back to the file', {
  timeout: 600_000,
}, async (t) => {
  const browser = await launchChromium(t);
  const harness = await startTestApp(t, { isolated: true });
  const hits = recordHits(harness);
  withProcessingWorker(t, harness, testFfmpegPath);
  const ws = await harness.workspace();
  const dir = mkdtempSync(join(tmpdir(), 'cuepoint-hls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await makeTestClip(join(dir, 'clip.mp4'), { width: 1280, height: 720, seconds: 8 });
  const videoId = await upload(harness, ws.key, readFileSync(join(dir, 'clip.mp4')), 'Ladder tour');
  const ladder = (await waitForLadder(harness, ws.key, videoId)).renditions;
  assert.deepEqual(
    ladder.map((rendition) => `${rendition.name} ${rendition.state}`),
    ['240p ready', '360p ready', '540p ready', '720p ready'],
  );
  const transcript = await harness.request('PUT', `/v1/videos/${videoId}/transcript`, {
    token: ws.key,
    body: { format: 'srt', language: 'en', text: '1\n00:00:00,500 --> 00:00:02,000\nA moving pattern\n' },
  });
  assert.equal(transcript.status, 200, transcript.raw);
  const { duration_seconds: duration } = (await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).body as {
    duration_seconds: number;
  };
  const base = await urlOf(harness.app);
  const context = await ordinaryContext(browser);
  await context.addInitScript(COLLECT_SWITCHES);
  const stream = `/media/${videoId}/hls/`;
  const original = `/media/${videoId}`;

  // ---- The watch page: hls.js, fetched from us, plays the ladder.
  const { page, problems } = await watchedPage(context);
  const hlsScripts: { url: string; headers: Record<string, string> }[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/vendor/')) hlsScripts.push({ url: response.url(), headers: response.headers() });
  });
  const response = await page.goto(`${base}/watch/${videoId}`);
  assert.equal(response?.status(), 200);
  assert.match(response?.headers()['content-security-policy'] ?? '', /media-src 'self' blob:;/);
  const video = page.locator('video');
  assert.equal(await video.getAttribute('data-cuepoint-hls'), `${stream}master.m3u8`);
  await waitForVideo(page, 'streaming');
  assert.equal(await video.getAttribute('data-cuepoint-levels'), '240p 360p 540p 720p', 'hls.js was offered the whole ladder');
  assert.equal(await video.getAttribute('preload'), 'metadata', 'once the stream is attached, it preloads as the file did');
  assert.deepEqual(
    hlsScripts.map((script) => [new URL(script.url).pathname, script.headers['cache-control'], script.headers['content-encoding']]),
    [
      [
        (await page.locator('script[data-hls-script]').getAttribute('data-hls-script')) ?? '',
        'public, max-age=31536000, immutable',
        'gzip',
      ],
    ],
    'hls.js came from our own origin, once, gzipped and immutable',
  );
  assert.match(new URL(hlsScripts[0]?.url ?? base).pathname, /^\/vendor\/hls-\d+\.\d+\.\d+\.light\.[0-9a-f]{16}\.min\.js$/);

  await page.evaluate(PLAY_TO_THE_END);
  await waitForVideo(page, 'ended');
  const level = await video.getAttribute('data-cuepoint-level');
  const switches = (await page.evaluate('window.cuepointSwitches')) as string[];
  assert.ok(switches.length >= 1 && switches.at(-1) === level, `the player reported the level it loaded: ${switches} / ${level}`);
  assert.ok(['240p', '360p', '540p', '720p'].includes(level ?? ''), String(level));
  assert.equal(await video.getAttribute('data-cuepoint-engine'), 'hls.js', 'it played the stream to the end, without falling back');
  // The poster and the captions track are there as before, beside the stream.
  assert.equal(await video.getAttribute('poster'), `/media/${videoId}/poster.jpg`);
  const captions = await page.evaluate(
    `(() => { const track = ${VIDEO}.textTracks[0]; track.mode = 'hidden'; return [${VIDEO}.textTracks.length, track.kind, track.language]; })()`,
  );
  assert.deepEqual(captions, [1, 'captions', 'en']);

  const served = hits.filter((hit) => hit.path.startsWith(stream));
  assert.ok(
    served.some((hit) => hit.path.endsWith('/master.m3u8') && hit.status === 200),
    'the master playlist was asked for',
  );
  assert.ok(
    served.some((hit) => /\/hls\/[0-9a-f-]{36}\/index\.m3u8$/.test(hit.path) && hit.status === 200),
    'a rendition playlist was asked for',
  );
  const segments = served.filter((hit) => /\/seg-\d{5}\.ts$/.test(hit.path));
  assert.ok(segments.length >= 2, `the 8 s clip's two segments were fetched at least: ${JSON.stringify(served)}`);
  assert.ok(
    segments.every((hit) => hit.status === 200 || hit.status === 206),
    JSON.stringify(segments),
  );
  assert.deepEqual(
    hits.filter((hit) => hit.path === original),
    [],
    'the original file was never fetched',
  );

  // Collection is what it is for the file: one play from 0, the end, one stretch of playing.
  const sessionId = sessionOf(await video.getAttribute('data-cuepoint-token'));
  await page.close();
  const batches = await storedBatchesUntil(harness, sessionId, endedIn);
  assert.deepEqual(kindsOf(batches), ['play', 'pause', 'ended'], JSON.stringify(batches));
  assert.deepEqual(
    batches.map((batch) => batch.sequence),
    batches.map((_, i) => i + 1),
  );
  const session = await foldedSession(harness, sessionId);
  assert.equal(session.is_view, true);
  assert.equal(session.completed, true);
  assert.equal(session.watched.length, 1, JSON.stringify(session.watched));
  const [[start, end]] = session.watched as [[number, number]];
  assert.ok(start === 0 && end > duration - 0.25, `watched ${start}–${end} of ${duration} s`);
  assert.ok(Math.abs(session.played_seconds - (end - start)) < 0.05, `${session.played_seconds} s played`);
  assert.deepEqual(problems, []);

  // ---- The embed page, framed by another site, plays the same stream from our origin.
  const customer = createServer((_request, answer) => {
    answer.setHeader('Content-Type', 'text/html; charset=utf-8');
    answer.end(`<!doctype html><iframe id="embed" width="640" height="360" src="${base}/embed/${videoId}"></iframe>`);
  });
  await new Promise<void>((resolve) => customer.listen(0, '127.0.0.1', resolve));
  t.after(() => customer.close());
  // A browser of its own, as a visitor of the other site has: with the watch page's context, its HTTP
  // cache could hand the embed every segment already played, and the embed would fetch none.
  const embedContext = await ordinaryContext(browser);
  await embedContext.addInitScript(COLLECT_SWITCHES);
  const framing = await watchedPage(embedContext);
  await framing.page.goto(`http://localhost:${(customer.address() as AddressInfo).port}/`);
  const frame = await (await framing.page.locator('#embed').elementHandle())?.contentFrame();
  assert.ok(frame);
  await waitForVideo(frame, 'streaming');
  const segmentsBefore = hits.filter((hit) => /\/seg-\d{5}\.ts$/.test(hit.path)).length;
  await frame.evaluate(PLAY_TO_THE_END);
  await waitForVideo(frame, 'past 1 s');
  assert.ok(await frame.evaluate(`${VIDEO}.dataset.cuepointLevel !== undefined`), 'the embed reports its level too');
  assert.ok(hits.filter((hit) => /\/seg-\d{5}\.ts$/.test(hit.path)).length > segmentsBefore, 'the embed fetched segments');
  assert.deepEqual(framing.problems, []);
  await framing.page.close();

  // ---- A link to a moment (?t=5, as search answers give) opens the stream there, as it does the file.
  const linked = await watchedPage(context);
  await linked.page.goto(`${base}/watch/${videoId}?t=5`);
  await waitForVideo(linked.page, 'at 5 s');
  assert.equal(await linked.page.locator('video').getAttribute('data-cuepoint-engine'), 'hls.js');
  assert.deepEqual(linked.problems, []);
  await linked.page.close();

  // ---- Segments after the first fail: the player goes on with the original file, from where it was.
  const failing = await watchedPage(context);
  await failing.page.route(/\/hls\/[0-9a-f-]{36}\/seg-(?!00000)\d{5}\.ts$/, (route) => route.fulfill({ status: 404, body: '' }));
  await failing.page.goto(`${base}/watch/${videoId}`);
  await waitForVideo(failing.page, 'streaming');
  await failing.page.evaluate(PLAY_TO_THE_END);
  await waitForVideo(failing.page, 'fell back and ended');
  assert.ok((await failing.page.evaluate(`${VIDEO}.currentSrc`)) === `${base}${original}`, 'the original file played');
  assert.ok(
    failing.warnings.some((warning) => warning.startsWith('cuepoint: the adaptive stream failed')),
    failing.warnings.join('\n'),
  );
  assert.ok(
    hits.some((hit) => hit.path === original && (hit.status === 200 || hit.status === 206)),
    'the original was fetched',
  );
  const fallbackSession = sessionOf(await failing.page.locator('video').getAttribute('data-cuepoint-token'));
  await failing.page.close();
  const fallbackBatches = await storedBatchesUntil(harness, fallbackSession, endedIn);
  // The swap (the element emptied, rewound, sought back and played again) reported nothing.
  assert.deepEqual(kindsOf(fallbackBatches), ['play', 'pause', 'ended'], JSON.stringify(fallbackBatches));
  const fallenBack = await foldedSession(harness, fallbackSession);
  assert.equal(fallenBack.watched.length, 1, JSON.stringify(fallenBack.watched));
  const [[fallbackStart, fallbackEnd]] = fallenBack.watched as [[number, number]];
  assert.ok(fallbackStart === 0 && fallbackEnd > duration - 0.25, `watched ${fallbackStart}–${fallbackEnd} of ${duration} s`);
  // Nothing went wrong but the segments refused on purpose, which the browser logs.
  assert.deepEqual(
    failing.problems.filter((problem) => !problem.includes('the server responded with a status of 404')),
    [],
  );
});

test('a video without renditions plays its original file, and the page loads no playback script', { timeout: 240_000 }, async (t) => {
  const browser = await launchChromium(t);
  const harness = await startTestApp(t, { isolated: true });
  const hits = recordHits(harness);
  // No ffmpeg: processing probes the file and makes no renditions.
  withProcessingWorker(t, harness);
  const ws = await harness.workspace();
  const videoId = await upload(harness, ws.key, readFileSync(join(import.meta.dirname, '..', 'fixtures', 'clip.mp4')), 'Plain file');
  const detail = (await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).body as {
    hls_url: string | null;
    renditions: unknown[];
  };
  assert.deepEqual([detail.hls_url, detail.renditions], [null, []]);
  const base = await urlOf(harness.app);
  const context = await ordinaryContext(browser);
  const { page, problems } = await watchedPage(context);
  await page.goto(`${base}/watch/${videoId}`);
  const video = page.locator('video');
  assert.equal(await video.getAttribute('data-cuepoint-hls'), null);
  assert.equal(await video.getAttribute('preload'), 'metadata');
  assert.equal(await page.locator('script[src="/playback.js"]').count(), 0);

  await page.evaluate(PLAY_TO_THE_END);
  await waitForVideo(page, 'ended');
  assert.equal(await page.evaluate(`${VIDEO}.currentSrc`), `${base}/media/${videoId}`);
  assert.equal(await video.getAttribute('data-cuepoint-engine'), null);
  assert.deepEqual(
    hits.filter((hit) => hit.path.startsWith('/vendor/') || hit.path.includes('/hls/')),
    [],
    'neither hls.js nor a playlist was asked for',
  );

  const sessionId = sessionOf(await video.getAttribute('data-cuepoint-token'));
  await page.close();
  const batches = await storedBatchesUntil(harness, sessionId, endedIn);
  assert.deepEqual(kindsOf(batches), ['play', 'pause', 'ended'], JSON.stringify(batches));
  const session = await foldedSession(harness, sessionId);
  assert.deepEqual(session.watched, [[0, 3]]);
  assert.equal(session.completed, true);
  assert.deepEqual(problems, []);
});
