/**
 * The route player in a real Chromium. Two uploaded clips make a live route: the entry asks "Which
 * plan fits you?" when it ends, Pricing plays the pricing step, the last. A viewer opens /r/{id},
 * plays the entry step, chooses Pricing with the mouse, watches the next step (its adaptive stream,
 * through hls.js) without a reload and reaches the end card, the captions following the step; get_route's numbers show that path, each step's viewing reached /collect as
 * a session of its own, and route.completed arrives at a webhook receiver, signed. Then a phone-sized
 * viewport: the choices are visible, at least 44 px tall, focused when shown, not dismissed by
 * Escape, and chosen with the keyboard.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createViewingTokens } from '../../src/domains/viewing/viewing-token.ts';
import { startTestApp, TEST_SECRET, type TestApp } from '../helpers/app.ts';
import { testFfmpegPath } from '../helpers/ffmpeg.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { pageData, routeAsShown } from '../helpers/routes.ts';
import { createUpload, put, waitForStatus, withProcessingWorker } from '../helpers/uploads.ts';
import { eventually, startReceiver, startTestWebhookWorker, verify } from '../helpers/webhooks.ts';
import { launchChromium, ordinaryContext } from './chromium.ts';

const clip = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'clip.mp4'));

/** What the test touches of the page's <video>; the project's TypeScript has no DOM types. */
interface MediaElement {
  readonly ended: boolean;
  play(): Promise<void>;
}

/** Page-side expressions are strings for the same reason. */
const FOCUSED = 'document.activeElement && document.activeElement.textContent';

/** What the test reads of the video's text tracks. */
interface CaptionsView {
  textTracks: ArrayLike<{ kind: string; language: string; mode: string; cues: ArrayLike<{ text: string }> | null }>;
}

/**
 * Whether the video's one text track is captions in this language, showing, with these words loaded;
 * `turnOn` turns it on first, as the player's captions menu does (a track loads once it is on).
 */
function showingCaptions([language, words, turnOn]: [string, string, boolean]): boolean {
  const page = globalThis as unknown as { document: { querySelector(selector: string): CaptionsView } };
  const tracks = page.document.querySelector('video').textTracks;
  const track = tracks[0];
  if (tracks.length !== 1 || !track || track.kind !== 'captions' || track.language !== language) return false;
  if (turnOn) track.mode = 'showing';
  return track.mode === 'showing' && track.cues !== null && track.cues.length === 1 && track.cues[0]?.text === words;
}

async function uploadClip(harness: TestApp, key: string, title: string): Promise<string> {
  const upload = await createUpload(harness, key, { file_name: 'clip.mp4', file_size: clip.length, title });
  assert.equal((await put(harness, upload.upload_url, clip)).status, 200);
  const video = await waitForStatus(harness, key, upload.video_id, ['ready', 'failed']);
  assert.equal(video.status, 'ready', video.failure_reason);
  return upload.video_id;
}

/** The page's playback script (/playback.js), as far as the test asks it which source the element was given. */
interface PlaybackView {
  cuepointPlayback: { sourceOf(element: unknown): { src: string; hls: string | null } | null };
}

/**
 * Waits until the page's video, playing the given video, has ended. (The element's own src is a
 * blob: URL while hls.js plays the step's stream: the playback script says which video it was given.)
 */
async function endedPlaying(page: Page, videoId: string): Promise<void> {
  await page.waitForFunction(
    ([element, id]) =>
      (element as MediaElement).ended && (globalThis as unknown as PlaybackView).cuepointPlayback.sourceOf(element)?.src === `/media/${id}`,
    [await page.locator('video').elementHandle(), videoId] as const,
    { timeout: 60_000 },
  );
}

/** Whether the session's end was recorded from the player's /collect batches. */
async function sessionEnded(harness: TestApp, sessionId: string): Promise<boolean> {
  const batches = await harness.database.db.selectFrom('viewing_batches').select('events').where('session_id', '=', sessionId).execute();
  return batches.some((batch) => (batch.events as { type: string }[]).some((event) => event.type === 'ended'));
}

test('a viewer plays a route to its end: get_route shows the path, viewing is collected per step, the webhook arrives; on a phone, the keyboard chooses', {
  timeout: 300_000,
}, async (t) => {
  // The browser first: hooks run in order, and it must close before the app waits for its connections.
  const browser = await launchChromium(t);
  const harness = await startTestApp(t, { isolated: true });
  withProcessingWorker(t, harness, testFfmpegPath);
  startTestWebhookWorker(harness);
  const receiver = await startReceiver(t);
  const ws = await harness.workspace();
  const endpoint = await ws.addWebhookEndpoint({ url: receiver.url, events: ['route.completed'] });
  const intro = await uploadClip(harness, ws.key, 'Intro');
  const pricing = await uploadClip(harness, ws.key, 'Pricing');
  // Built as a client would: the entry video and the next step named by their titles, then live.
  const created = await harness.request('POST', '/v1/routes', {
    token: ws.key,
    body: { entry_video: 'Intro', name: 'Which plan fits you?' },
  });
  assert.equal(created.status, 201, created.raw);
  const route = { id: created.body.route_id as string };
  const wired = await harness.request('POST', `/v1/routes/${route.id}/branches`, {
    token: ws.key,
    body: {
      question: 'Which plan fits you?',
      branches: [
        { label: 'Pricing', to_video: 'Pricing' },
        { label: 'Docs', url: 'https://example.com/docs' },
      ],
    },
  });
  assert.equal(wired.status, 200, wired.raw);
  const [entryStep, pricingStep] = wired.body.steps.map((step: { step_id: string }) => step.step_id) as [string, string];
  const live = await harness.request('PATCH', `/v1/routes/${route.id}`, { token: ws.key, body: { status: 'live' } });
  assert.equal(live.status, 200, live.raw);
  // Each video has captions in its own language; the step playing has its own.
  for (const [videoId, language, words] of [
    [intro, 'en', 'Which plan fits you?'],
    [pricing, 'fr', 'Voici les prix.'],
  ]) {
    const text = `WEBVTT\n\n00:00.500 --> 00:02.000\n${words}\n`;
    const set = await harness.request('PUT', `/v1/videos/${videoId}/transcript`, {
      token: ws.key,
      body: { format: 'webvtt', language, text },
    });
    assert.equal(set.status, 200, set.raw);
  }
  const base = await urlOf(harness.app);

  const problems: string[] = [];
  const watchProblems = (page: Page) => {
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning' || /Content Security Policy/i.test(message.text()))
        problems.push(`console: ${message.text()}`);
    });
  };

  // 1. A desktop viewer, with the mouse: the entry step, the question at its end, Pricing, the end.
  const page = await (await ordinaryContext(browser)).newPage();
  watchProblems(page);
  const response = await page.goto(`${base}/r/${route.id}`);
  assert.equal(response?.status(), 200);
  assert.equal(await page.title(), 'Which plan fits you?');
  const sessions = pageData(await page.content()).steps.map((step) => {
    const check = createViewingTokens(TEST_SECRET).check(step.video?.token ?? '', new Date());
    assert.ok(check.ok, 'each step carries a viewing token');
    return check.sessionId;
  });
  const question = page.locator('.cp-question');
  assert.equal(await question.isVisible(), false, 'the question waits for the end of the step');
  await page.waitForFunction(showingCaptions, ['en', 'Which plan fits you?', true] as [string, string, boolean]);
  await page.locator('video').evaluate((element: MediaElement) => element.play());
  await question.waitFor({ state: 'visible' });
  assert.equal(await page.getByRole('heading', { name: 'Which plan fits you?', level: 2 }).isVisible(), true);
  await page.getByRole('button', { name: 'Pricing' }).click();
  await question.waitFor({ state: 'hidden' });
  // The step's own captions replace the entry's, and stay on.
  await page.waitForFunction(showingCaptions, ['fr', 'Voici les prix.', false] as [string, string, boolean]);
  // The next step plays in the same page: no navigation, the same document; its stream through hls.js.
  await endedPlaying(page, pricing);
  assert.equal(page.url(), `${base}/r/${route.id}`);
  assert.equal(await page.locator('video').getAttribute('data-cuepoint-engine'), 'hls.js');
  await page.locator('.cp-end').waitFor({ state: 'visible' });
  assert.equal(await page.getByRole('heading', { name: 'The end' }).isVisible(), true);
  assert.equal(await page.getByRole('button', { name: 'Watch again' }).isVisible(), true);

  // The visit as get_route shows it, and each step's viewing as its own session.
  const shown = await eventually(async () => {
    const detail = await routeAsShown(harness, ws, route.id);
    return detail.completions === 1 ? detail : undefined;
  }, 'the completed visit');
  assert.equal(shown.starts, 1);
  assert.deepEqual(shown.paths, [{ step_ids: [entryStep, pricingStep], choices: ['Pricing'], visits: 1, completed: 1 }]);
  assert.deepEqual(
    shown.steps.map((step) => [step.reached, step.finished, step.dropped_off, step.choices.map((choice) => choice.chosen)]),
    [
      [1, 0, 0, [1, 0]],
      [1, 1, 0, []],
    ],
  );
  for (const sessionId of sessions) await eventually(() => sessionEnded(harness, sessionId), `the end of session ${sessionId}`);

  // The webhook: route.completed with the path, signed with the endpoint's secret.
  const delivery = await eventually(() => receiver.received.find((request) => request.body.includes('route.completed')), 'the delivery');
  const payload = verify(delivery, endpoint.secret);
  assert.equal(payload.type, 'route.completed');
  assert.deepEqual(payload.data, {
    route_id: route.id,
    route: { route_id: route.id, name: 'Which plan fits you?' },
    lead_id: null,
    path: [
      { video_id: intro, title: 'Intro', choice: 'Pricing' },
      { video_id: pricing, title: 'Pricing', choice: null },
    ],
  });
  await page.close();

  // 2. A phone-sized screen, keyboard only once the question shows.
  const phone = await browser.newContext({
    userAgent: `Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Mobile Safari/537.36`,
    viewport: { width: 375, height: 700 },
  });
  phone.setDefaultTimeout(60_000);
  const small = await phone.newPage();
  watchProblems(small);
  await small.goto(`${base}/r/${route.id}`);
  await small.locator('video').evaluate((element: MediaElement) => element.play());
  await small.locator('.cp-question').waitFor({ state: 'visible' });
  for (const name of ['Pricing', 'Docs']) {
    const box = await small.getByRole('button', { name }).boundingBox();
    assert.ok(box, `${name} is laid out`);
    assert.ok(box.height >= 44, `${name} is ${box.height} px tall`);
    assert.ok(box.x >= 0 && box.x + box.width <= 375, `${name} fits the width (${box.x}–${box.x + box.width})`);
    assert.ok(box.y >= 0 && box.y + box.height <= 700, `${name} is on screen`);
    assert.equal(await small.getByRole('button', { name }).isVisible(), true);
  }
  assert.equal(await small.evaluate(FOCUSED), 'Pricing', 'focus is on the first choice');
  await small.keyboard.press('Escape');
  assert.equal(await small.locator('.cp-question').isVisible(), true, 'Escape does not dismiss the question');
  await small.keyboard.press('Tab');
  assert.equal(await small.evaluate(FOCUSED), 'Docs');
  await small.keyboard.press('Shift+Tab');
  assert.equal(await small.evaluate(FOCUSED), 'Pricing');
  await small.keyboard.press('Enter');
  await small.locator('.cp-question').waitFor({ state: 'hidden' });
  await endedPlaying(small, pricing);
  await small.locator('.cp-end').waitFor({ state: 'visible' });
  await small.close();
  await phone.close();

  const both = await eventually(async () => {
    const detail = await routeAsShown(harness, ws, route.id);
    return detail.completions === 2 ? detail : undefined;
  }, 'the second completed visit');
  assert.equal(both.starts, 2);
  assert.deepEqual(both.paths, [{ step_ids: [entryStep, pricingStep], choices: ['Pricing'], visits: 2, completed: 2 }]);
  assert.deepEqual(problems, []);
});
