/**
 * A real viewer in headless Chromium: upload a clip, open its watch page, play (its adaptive stream,
 * through hls.js), seek forward, let it play to the end, click a call to action and leave. The player reports with fetch while the page
 * lives and with sendBeacon on pagehide; the service must have recorded the session (viewer, watched
 * ranges, played time, the click) from those batches. Also: the 404 page, and framing rules.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { createViewingTokens } from '../../src/domains/viewing/viewing-token.ts';
import { startTestApp, TEST_SECRET, type TestApp } from '../helpers/app.ts';
import { testFfmpegPath } from '../helpers/ffmpeg.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { createUpload, put, waitForStatus, withProcessingWorker } from '../helpers/uploads.ts';
import { foldEverything, type StoredBatch, storedBatchesUntil } from '../helpers/viewing.ts';
import { launchChromium, ordinaryContext } from './chromium.ts';

const clip = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'clip.mp4'));
const CLIP_SECONDS = 3;
const SEEK_TO = 2;

async function uploadClip(harness: TestApp, key: string): Promise<{ videoId: string; hasPoster: boolean }> {
  const upload = await createUpload(harness, key, { file_name: 'clip.mp4', file_size: clip.length, title: 'Tour <of> "the" product' });
  assert.equal((await put(harness, upload.upload_url, clip)).status, 200);
  const video = await waitForStatus(harness, key, upload.video_id, ['ready', 'failed']);
  assert.equal(video.status, 'ready', video.failure_reason);
  return { videoId: upload.video_id, hasPoster: video.poster_url !== null };
}

/** What the test touches of the page's <video>; the project's TypeScript has no DOM types. */
interface MediaElement {
  currentTime: number;
  readonly ended: boolean;
  play(): Promise<void>;
  addEventListener(type: 'timeupdate', listener: () => void): void;
  removeEventListener(type: 'timeupdate', listener: () => void): void;
}

/** Page-side expressions are strings for the same reason. */
const VIEWER_ID_STORED = "localStorage.getItem('cuepoint_viewer')";

const eventsOf = (batches: StoredBatch[]) => batches.flatMap((batch) => batch.events);

// A real browser, a processing worker and a 5 s reporting interval: slow on a busy machine, so this
// test gets more than the suite's default two minutes.
test('a viewer plays, seeks and leaves: the service records the session from the player batches', { timeout: 240_000 }, async (t) => {
  // The browser first: hooks run in order, and it must close before the app waits for its connections.
  const browser = await launchChromium(t);
  const harness = await startTestApp(t, { isolated: true });
  withProcessingWorker(t, harness, testFfmpegPath);
  const ws = await harness.workspace();
  const { videoId, hasPoster } = await uploadClip(harness, ws.key);
  const base = await urlOf(harness.app);
  const context = await ordinaryContext(browser);

  // Everything the browser sent to /collect, and anything that went wrong in the page.
  const sent: { method: string; body: StoredBatch }[] = [];
  context.on('request', (request) => {
    if (new URL(request.url()).pathname === '/collect')
      sent.push({ method: request.method(), body: JSON.parse(request.postData() ?? 'null') });
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  const posters: number[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/poster.jpg')) posters.push(response.status());
  });

  const response = await page.goto(`${base}/watch/${videoId}`);
  assert.equal(response?.status(), 200);
  assert.equal(await page.title(), 'Tour <of> "the" product');
  assert.equal(await page.locator('h1').textContent(), 'Tour <of> "the" product');
  const token = (await page.locator('video').getAttribute('data-cuepoint-token')) ?? '';
  const issued = createViewingTokens(TEST_SECRET).check(token, new Date());
  assert.ok(issued.ok && issued.videoId === videoId, 'the page carries a viewing token for this video');
  const sessionId = issued.sessionId;

  // Play from the start; once past 1 s, jump to 2 s and let it play to the end. The page jumps by
  // itself at the first timeupdate past 1 s: a round trip from here could land after 2 s on a busy
  // machine, and the two watched stretches would then be one.
  const video = await page.locator('video').elementHandle();
  const seekedFrom = await video!.evaluate(
    (element: MediaElement, to) =>
      new Promise<number>((resolve) => {
        const jump = () => {
          if (element.currentTime < 1) return;
          element.removeEventListener('timeupdate', jump);
          const from = element.currentTime;
          element.currentTime = to;
          resolve(from);
        };
        element.addEventListener('timeupdate', jump);
        void element.play();
      }),
    SEEK_TO,
  );
  assert.ok(seekedFrom < SEEK_TO, `the jump came at ${seekedFrom} s, after the point it jumps to`);
  await page.waitForFunction((element) => (element as MediaElement).ended, video, { timeout: 60_000 });
  // The clip has a rendition, so it played its adaptive stream through hls.js: the seek and the
  // reporting must come out as they do for the file (hls.js's own moves are not the viewer's).
  assert.equal(await page.locator('video').getAttribute('data-cuepoint-engine'), 'hls.js');
  assert.deepEqual(posters, hasPoster ? [200] : [], 'the poster, when the worker made one, was shown');

  // While the page lives, batches go by fetch every 5 s: wait for the one holding the end.
  const whilePlaying = await storedBatchesUntil(harness, sessionId, (batches) => eventsOf(batches).some((event) => event.type === 'ended'));
  assert.ok(
    eventsOf(whilePlaying).some((event) => event.type === 'ended'),
    `the service recorded no batch of this page view within 30 s (the browser sent ${sent.length}: ${JSON.stringify(sent)})`,
  );

  // A click on a call to action, then the viewer leaves: that batch goes by beacon on pagehide.
  await page.evaluate("window.cuepoint.ctaClick('Book a demo')");
  const viewerId = await page.evaluate(VIEWER_ID_STORED);
  assert.match(String(viewerId), /^[A-Za-z0-9_-]{16,64}$/);
  const lastBeforeLeaving = whilePlaying.at(-1)!.sequence;
  await page.close();
  const batches = await storedBatchesUntil(harness, sessionId, (all) => eventsOf(all).some((event) => event.type === 'cta_click'));
  assert.deepEqual(problems, []);

  // The batches: numbered 1, 2, … and holding what the viewer did, in order.
  assert.deepEqual(
    batches.map((batch) => batch.sequence),
    batches.map((_, i) => i + 1),
  );
  assert.ok(batches.length > lastBeforeLeaving, 'the pagehide beacon arrived');
  const events = eventsOf(batches);
  const kinds = events.filter((event) => event.type !== 'progress').map((event) => event.type);
  assert.deepEqual(kinds, ['play', 'seek', 'pause', 'ended', 'cta_click']);
  const [play, seek, pause, ended, click] = events.filter((event) => event.type !== 'progress');
  assert.equal(play?.position, 0);
  // The player knows where the seek started from its last timeupdate, a moment before. It sends
  // times rounded to the millisecond, so its `from` may sit up to half a millisecond above ours.
  const ROUNDING = 0.0005;
  assert.ok(
    seek?.from !== undefined && seek.from <= seekedFrom + ROUNDING && seekedFrom - seek.from < 1 && seek.to === SEEK_TO,
    `${JSON.stringify(seek)}, the page jumped at ${seekedFrom} s`,
  );
  assert.equal(pause?.position, CLIP_SECONDS);
  assert.equal(ended?.position, CLIP_SECONDS);
  assert.deepEqual([click?.label, click?.position], ['Book a demo', CLIP_SECONDS]);
  for (const event of events.filter((e) => e.type === 'progress')) {
    for (const [start, end] of event.ranges ?? []) assert.ok(start >= 0 && start < end && end <= CLIP_SECONDS, JSON.stringify(event));
  }

  // The session as the service keeps it once the batches are folded (the worker's job in the
  // service): this viewer, from 0 to about 1 s, then from 2 s to the end.
  await foldEverything(harness.database.db);
  const session = await harness.database.db
    .selectFrom('viewing_sessions')
    .selectAll()
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  assert.equal(session.video_id, videoId);
  assert.equal(session.viewer_id, viewerId);
  assert.equal(session.last_sequence, batches.at(-1)!.sequence);
  assert.equal(session.cta_clicks, 1);
  assert.equal(session.is_view, true);
  assert.equal(session.watched.length, 2, JSON.stringify(session.watched));
  const [[firstStart, firstEnd], [secondStart, secondEnd]] = session.watched as [[number, number], [number, number]];
  assert.deepEqual([firstStart, firstEnd, secondStart, secondEnd], [0, seek?.from, SEEK_TO, CLIP_SECONDS]);
  const expectedPlayed = firstEnd - firstStart + (secondEnd - secondStart);
  assert.ok(Math.abs(session.played_seconds - expectedPlayed) < 0.05, `${session.played_seconds} vs ${expectedPlayed}`);

  // The same viewer id comes back on the next page view; a new session each time.
  const again = await context.newPage();
  await again.goto(`${base}/watch/${videoId}`);
  assert.equal(await again.evaluate(VIEWER_ID_STORED), viewerId);
  const secondToken = (await again.locator('video').getAttribute('data-cuepoint-token')) ?? '';
  const reissued = createViewingTokens(TEST_SECRET).check(secondToken, new Date());
  assert.ok(reissued.ok && reissued.sessionId !== sessionId);
  await again.close();

  // Archived, the video's pages are the 404 page.
  const archived = await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { archived: true } });
  assert.equal(archived.status, 200);
  const gone = await context.newPage();
  const archivedResponse = await gone.goto(`${base}/watch/${videoId}`);
  assert.equal(archivedResponse?.status(), 404);
  assert.equal(await gone.locator('h1').textContent(), 'This video is not available');
});

test('the 404 page for an unknown id; the embed page frames on another site, the watch page does not', async (t) => {
  const browser = await launchChromium(t);
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Framed', duration_seconds: 3 });
  const base = await urlOf(harness.app);
  const context = await ordinaryContext(browser);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => problems.push(message.text()));

  const missing = await page.goto(`${base}/watch/not-a-video`);
  assert.equal(missing?.status(), 404);
  assert.equal(await page.title(), 'Video not available');
  assert.equal(await page.locator('h1').textContent(), 'This video is not available');

  // A customer's page on another origin (localhost, not 127.0.0.1) with both pages in iframes.
  const customer = createServer((_request, response) => {
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    response.end(
      `<!doctype html><iframe id="embed" src="${base}/embed/${videoId}"></iframe><iframe id="watch" src="${base}/watch/${videoId}"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => customer.listen(0, '127.0.0.1', resolve));
  t.after(() => customer.close());
  const { port } = customer.address() as AddressInfo;
  await page.goto(`http://localhost:${port}/`);
  const embed = await (await page.locator('#embed').elementHandle())?.contentFrame();
  await embed?.waitForSelector('video[data-cuepoint-token]', { state: 'attached' });
  assert.equal(await embed?.locator('video').getAttribute('src'), `/media/${videoId}`);
  const watch = await (await page.locator('#watch').elementHandle())?.contentFrame();
  assert.equal(watch?.url(), 'chrome-error://chromewebdata/', 'the watch page refuses to be framed by other sites');
  assert.ok(
    problems.some((problem) => problem.includes("frame-ancestors 'self'")),
    problems.join('\n'),
  );
});
