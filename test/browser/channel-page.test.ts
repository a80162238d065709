/**
 * The channel page in a real Chromium, as a visitor meets it: on a laptop, the featured video plays in
 * its frame (the embed page, whose player reports to /collect), the grid shows every visible item with
 * its poster and length, the skip link comes first with the keyboard, and following a card is reported
 * as an open of that item; on a phone the page fits the screen; a watch link with ?t= starts there. Screenshots of both go to
 * results/browser/ (git-ignored), for a person to look at.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../helpers/app.ts';
import { testFfmpegPath } from '../helpers/ffmpeg.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { createUpload, put, waitForStatus, withProcessingWorker } from '../helpers/uploads.ts';
import { launchChromium, ordinaryContext } from './chromium.ts';

const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'results', 'browser');
const clip = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'clip.mp4'));
const OVERFLOW = 'document.documentElement.scrollWidth - document.documentElement.clientWidth';

async function eventually<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A poster of one colour, made by the ffmpeg the service bundles. */
function poster(colour: string): Buffer {
  return execFileSync(testFfmpegPath, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `color=c=${colour}:s=640x360`,
    '-frames:v',
    '1',
    '-f',
    'mjpeg',
    'pipe:1',
  ]);
}

/** A ready video row whose media (the fixture clip) and poster are in the store. */
async function videoWithMedia(harness: TestApp, ws: TestWorkspace, title: string, colour: string, durationSeconds: number) {
  const id = await ws.addVideo({
    title,
    description: `${title}, in under ${Math.ceil(durationSeconds / 60)} minutes.`,
    has_poster: true,
    duration_seconds: durationSeconds,
    width: 640,
    height: 360,
  });
  const key = { workspaceId: ws.id, videoId: id };
  await harness.mediaStore.write({ ...key, file: 'source' }, Readable.from(clip), { exactly: clip.length });
  const image = poster(colour);
  await harness.mediaStore.write({ ...key, file: 'poster.jpg' }, Readable.from(image), { exactly: image.length });
  return id;
}

test('a visitor watches the featured video, browses the grid with the keyboard and opens an item', { timeout: 240_000 }, async (t) => {
  const browser = await launchChromium(t);
  const harness = await startTestApp(t, { isolated: true });
  withProcessingWorker(t, harness);
  const ws = await harness.workspace('business');
  const base = await urlOf(harness.app);

  const upload = await createUpload(harness, ws.key, { file_name: 'clip.mp4', file_size: clip.length, title: 'Product tour' });
  assert.equal((await put(harness, upload.upload_url, clip)).status, 200);
  const hero = await waitForStatus(harness, ws.key, upload.video_id, ['ready', 'failed']);
  assert.equal(hero.status, 'ready', hero.failure_reason);
  const grid = [
    await videoWithMedia(harness, ws, 'Onboarding in five steps', '#1d4ed8', 312),
    await videoWithMedia(harness, ws, 'Customer story: Northwind', '#059669', 185),
    await videoWithMedia(harness, ws, 'Pricing explained', '#d97706', 96),
    await videoWithMedia(harness, ws, 'Integrations tour', '#7c3aed', 1450),
    await videoWithMedia(harness, ws, 'Security and compliance', '#dc2626', 240),
  ];
  const route = await ws.addRoute({ name: 'Which plan fits you?', status: 'live', videoIds: [grid[2] as string, grid[0] as string] });
  const api = (method: string, path: string, body?: unknown) => harness.request(method, `/v1${path}`, { token: ws.key, body });
  for (const id of grid) assert.equal((await api('PUT', `/channel/items/${id}`, { kind: 'video', visible: true })).status, 200);
  assert.equal((await api('PUT', `/channel/items/${route.id}`, { kind: 'route', visible: true, position: 2 })).status, 200);
  await api('PUT', '/channel/featured', { video_id: hero.video_id });
  const channel = await api('PATCH', '/channel', {
    headline: 'See Acme in action',
    dek: 'Short demos, customer stories and walkthroughs, made for busy teams.',
  });
  assert.equal(channel.status, 200, channel.raw);
  const slug = channel.body.slug as string;

  const context = await ordinaryContext(browser);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Warnings too: the browser warns about markup it corrects (a redundant allowfullscreen did).
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  });
  await page.goto(`${base}/c/${slug}`);

  assert.equal(await page.locator('h1').textContent(), 'See Acme in action');
  assert.equal(await page.locator('.grid > li').count(), 6);
  assert.deepEqual(await page.locator('.card h3').allTextContents(), [
    'Onboarding in five steps',
    'Customer story: Northwind',
    'Which plan fits you?',
    'Pricing explained',
    'Integrations tour',
    'Security and compliance',
  ]);
  assert.deepEqual(await page.locator('.badge').allTextContents(), [
    'Duration 5:12',
    'Duration 3:05',
    'Interactive · 2 steps',
    'Duration 1:36',
    'Duration 24:10',
    'Duration 4:00',
  ]);

  // A screen reader names each card by its title, then what it is about, then its length or steps;
  // the poster is still drawn above the title.
  for (const [title, rest] of [
    ['Onboarding in five steps', 'Onboarding in five steps, in under 6 minutes. Duration 5:12'],
    ['Which plan fits you?', 'Interactive: you choose what to watch next. Interactive · 2 steps'],
  ]) {
    const card = page.getByRole('link', { name: `${title} ${rest}`, exact: true });
    assert.equal(await card.count(), 1, title);
    const [thumb, heading] = await Promise.all([card.locator('.thumb').boundingBox(), card.locator('h3').boundingBox()]);
    assert.ok(thumb && heading && thumb.y + thumb.height <= heading.y, `${title}: the poster above the title`);
  }

  // The featured frame is the embed page, and its video loads.
  const frame = await eventually(
    async () => page.frames().find((candidate) => candidate.url().endsWith(`/embed/${hero.video_id}`)),
    'the featured frame',
  );
  await frame.waitForFunction('document.querySelector("video").readyState >= 1');
  assert.equal(await page.locator('iframe').getAttribute('title'), 'Video: Product tour');

  // Every poster loads once scrolled into view (they are lazy).
  await page.locator('.grid > li').last().scrollIntoViewIfNeeded();
  await page.waitForFunction('[...document.querySelectorAll(".thumb img")].every((img) => img.complete && img.naturalWidth > 0)');
  await page.evaluate('window.scrollTo(0, 0)');
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, 'channel-page.png'), fullPage: true });

  // The page view is recorded, with the browser's viewer id.
  const view = await eventually(
    () => harness.database.db.selectFrom('channel_views').select(['id', 'viewer_id']).where('workspace_id', '=', ws.id).executeTakeFirst(),
    'the page view',
  );
  assert.match(String(view.viewer_id), /^[A-Za-z0-9_-]{16,64}$/);

  // The keyboard: the skip link first, then to the videos; Enter on a card follows it and reports the open.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate('document.activeElement.className'), 'skip');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate('document.activeElement.id'), 'videos');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate('document.activeElement.getAttribute("data-id")'), grid[0]);
  await Promise.all([page.waitForURL(`${base}/watch/${grid[0]}`), page.keyboard.press('Enter')]);
  const open = await eventually(
    () =>
      harness.database.db
        .selectFrom('channel_item_opens')
        .select(['view_id', 'kind', 'item_id'])
        .where('workspace_id', '=', ws.id)
        .executeTakeFirst(),
    'the open',
  );
  assert.deepEqual(open, { view_id: view.id, kind: 'video', item_id: grid[0] });
  const activity = (await api('GET', '/channel')).body;
  assert.deepEqual([activity.activity.views, activity.activity.visitors, activity.activity.opens], [1, 1, 1]);

  // On a phone: one column, nothing wider than the screen.
  const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, userAgent: await page.evaluate('navigator.userAgent') });
  const small = await phone.newPage();
  await small.goto(`${base}/c/${slug}`);
  assert.equal(await small.evaluate(OVERFLOW), 0);
  const columns = await small.evaluate('getComputedStyle(document.querySelector(".grid")).gridTemplateColumns.split(" ").length');
  assert.equal(columns, 1);
  await small.screenshot({ path: join(SCREENSHOTS, 'channel-page-phone.png'), fullPage: true });

  // A link to a moment (search answers give ?t=) opens the video at that second.
  await page.goto(`${base}/watch/${hero.video_id}?t=2`);
  await page.waitForFunction('document.querySelector("video").currentTime >= 2');
  assert.deepEqual(errors, [], 'no script errors or warnings');
});
