/**
 * The lead form in a real Chromium. A browser watches a video once anonymously; the video then asks
 * for an email at 1 s; on the next page view the form appears there (the video paused), is filled
 * and sent with the keyboard alone, and the video plays on; a third page view is not asked again.
 * The lead must exist with this browser linked, its form submission recorded, and every session of
 * the browser, before and after the capture, belonging to it. Also the gate before playback:
 * focus, Escape, errors read out, and the gate opening once filled.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { leadSnapshot } from '../../src/domains/leads/lead-records.queries.ts';
import { createViewingTokens } from '../../src/domains/viewing/viewing-token.ts';
import { startTestApp, TEST_SECRET, type TestApp } from '../helpers/app.ts';
import { testFfmpegPath } from '../helpers/ffmpeg.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { createUpload, put, waitForStatus, withProcessingWorker } from '../helpers/uploads.ts';
import { foldEverything } from '../helpers/viewing.ts';
import { launchChromium, ordinaryContext } from './chromium.ts';

const clip = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'clip.mp4'));
const FORM_AT_SECOND = 1;

/** What the test touches of the page's <video>; the project's TypeScript has no DOM types. */
interface MediaElement {
  currentTime: number;
  readonly paused: boolean;
  readonly ended: boolean;
  play(): Promise<void>;
}

/** Page-side expressions are strings for the same reason. */
const FOCUSED = 'document.activeElement && (document.activeElement.name || document.activeElement.tagName.toLowerCase())';

/** The session a page view reports into, from the viewing token the page carries. */
async function sessionOf(page: Page): Promise<string> {
  const token = (await page.locator('video').getAttribute('data-cuepoint-token')) ?? '';
  const check = createViewingTokens(TEST_SECRET).check(token, new Date());
  assert.ok(check.ok, 'the page carries a valid viewing token');
  return check.sessionId;
}

/** Waits until the service has recorded the session's end (the player reports every 5 s). */
async function endRecorded(harness: TestApp, sessionId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const batches = await harness.database.db.selectFrom('viewing_batches').select('events').where('session_id', '=', sessionId).execute();
    if (batches.some((batch) => (batch.events as { type: string }[]).some((event) => event.type === 'ended'))) return;
    assert.ok(Date.now() < deadline, `the end of session ${sessionId} was not recorded within 30 s`);
    await sleep(100);
  }
}

async function playToEnd(page: Page): Promise<void> {
  const video = page.locator('video');
  await video.evaluate((element: MediaElement) => element.play());
  await page.waitForFunction((element) => (element as MediaElement).ended, await video.elementHandle(), { timeout: 60_000 });
}

/** The sessions of the lead's journey as the database holds them: every session of a browser linked to it. */
async function journeySessions(harness: TestApp, workspaceId: string, leadId: string): Promise<string[]> {
  await foldEverything(harness.database.db); // the worker's job in the service
  const rows = await harness.database.db
    .selectFrom('viewing_sessions as s')
    .innerJoin('lead_viewers as lv', (join) =>
      join.onRef('lv.viewer_id', '=', 's.viewer_id').onRef('lv.workspace_id', '=', 's.workspace_id'),
    )
    .select('s.id')
    .where('lv.lead_id', '=', leadId)
    .where('s.workspace_id', '=', workspaceId)
    .orderBy('s.started_at')
    .execute();
  return rows.map((row) => row.id);
}

test('watch, fill the form with the keyboard at its second, keep watching: the lead holds every session of the browser', {
  timeout: 300_000,
}, async (t) => {
  const browser = await launchChromium(t);
  const harness = await startTestApp(t, { isolated: true });
  withProcessingWorker(t, harness, testFfmpegPath);
  const ws = await harness.workspace();
  const upload = await createUpload(harness, ws.key, { file_name: 'clip.mp4', file_size: clip.length, title: 'Pricing tour' });
  assert.equal((await put(harness, upload.upload_url, clip)).status, 200);
  const ready = await waitForStatus(harness, ws.key, upload.video_id, ['ready', 'failed']);
  assert.equal(ready.status, 'ready', ready.failure_reason);
  const videoId = upload.video_id;
  const base = await urlOf(harness.app);
  const context = await ordinaryContext(browser);
  const problems: string[] = [];
  context.on('page', (page) => {
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(`console: ${message.text()}`);
    });
  });

  // 1. Before there is a form: an anonymous view, to the end.
  const before = await context.newPage();
  await before.goto(`${base}/watch/${videoId}`);
  const beforeSession = await sessionOf(before);
  await playToEnd(before);
  await endRecorded(harness, beforeSession);
  const viewerId = String(await before.evaluate("localStorage.getItem('cuepoint_viewer')"));
  await before.close();

  // 2. The video asks at 1 s; the form appears there with focus in it, and the video waits.
  const set = await harness.request('PATCH', `/v1/videos/${videoId}`, {
    token: ws.key,
    body: { lead_form: { placement: 'at_second', at_second: FORM_AT_SECOND, fields: ['first_name'], headline: 'Get the price list' } },
  });
  assert.equal(set.status, 200, set.raw);
  const page = await context.newPage();
  await page.goto(`${base}/watch/${videoId}`);
  const captureSession = await sessionOf(page);
  const form = page.locator('form.cp-lead');
  assert.equal(await form.isVisible(), false, 'the form waits for its second');
  const video = page.locator('video');
  await video.evaluate((element: MediaElement) => element.play());
  await form.waitFor({ state: 'visible' });
  assert.equal(await page.getByRole('heading', { name: 'Get the price list' }).isVisible(), true);
  const pausedAt = await video.evaluate((element: MediaElement) => (element.paused ? element.currentTime : -1));
  assert.ok(pausedAt >= FORM_AT_SECOND, `the video paused at ${pausedAt} s`);
  assert.equal(await page.evaluate(FOCUSED), 'email');

  // Keyboard only: a mistake first (announced, focus kept on the field), then the real thing.
  await page.keyboard.type('grace@');
  await page.keyboard.press('Enter');
  await page.getByRole('status').filter({ hasText: 'Please check: email.' }).waitFor();
  assert.equal(await page.getByLabel('Email').getAttribute('aria-invalid'), 'true');
  assert.equal(await page.evaluate(FOCUSED), 'email');
  await page.keyboard.type('example.com');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(FOCUSED), 'first_name');
  await page.keyboard.type('Grace');
  const sent = page.waitForResponse((response) => response.url().endsWith('/leads/capture'));
  await page.keyboard.press('Enter');
  assert.equal((await sent).status(), 202);
  await form.waitFor({ state: 'hidden' });
  // Screen readers hear that it went: the confirmation lives outside the form that just hid.
  await page.getByRole('status').filter({ hasText: 'Thank you: your details were sent.' }).waitFor({ state: 'attached' });
  assert.equal(await page.evaluate(FOCUSED), 'video', 'focus goes back to the video');

  // The video plays on from where it paused, to the end.
  await page.waitForFunction((element) => (element as MediaElement).ended, await video.elementHandle(), { timeout: 60_000 });
  await endRecorded(harness, captureSession);
  await page.close();

  // 3. The browser is not asked again; its next view is the lead's too.
  const after = await context.newPage();
  await after.goto(`${base}/watch/${videoId}`);
  const afterSession = await sessionOf(after);
  await playToEnd(after);
  assert.equal(await after.locator('form.cp-lead').isVisible(), false, 'a browser that sent the form is not asked again');
  await endRecorded(harness, afterSession);
  await after.close();
  assert.deepEqual(problems, []);

  // The lead, its browser, its form submission, and every session of that browser.
  const db = harness.database.db;
  const lead = await db.selectFrom('leads').selectAll().where('workspace_id', '=', ws.id).executeTakeFirstOrThrow();
  assert.deepEqual([lead.email, lead.first_name, lead.source, lead.source_video_id], ['grace@example.com', 'Grace', 'video', videoId]);
  const links = await db.selectFrom('lead_viewers').select('viewer_id').where('lead_id', '=', lead.id).execute();
  assert.deepEqual(links, [{ viewer_id: viewerId }]);
  const submissions = await db
    .selectFrom('lead_activities')
    .select(['video_id', 'data'])
    .where('lead_id', '=', lead.id)
    .where('kind', '=', 'form_submitted')
    .execute();
  assert.deepEqual(submissions, [
    { video_id: videoId, data: { session_id: captureSession, placement: 'at_second', fields: ['email', 'first_name'] } },
  ]);
  assert.deepEqual(await journeySessions(harness, ws.id, lead.id), [beforeSession, captureSession, afterSession]);
  const snapshot = await leadSnapshot(db, ws.id, lead.id, new Date());
  assert.ok(snapshot.engagement_score > 0, 'the sessions before the form and the form itself count');
  assert.deepEqual(snapshot.source_video, { video_id: videoId, title: 'Pricing tour' });
  const stats = await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key });
  assert.equal(stats.body.stats.leads, 1);

  // The same story through get_lead_journey, masked while the workspace masks, whole once it does not.
  const journeyOf = async () => {
    const journey = await harness.request('GET', `/v1/leads/${lead.id}/journey`, { token: ws.key });
    assert.equal(journey.status, 200, journey.raw);
    return journey.body;
  };
  const masked = await journeyOf();
  assert.deepEqual([masked.email, masked.name], ['g***@e***.com', 'G***']);
  const steps: { kind: string; video: { video_id: string }; form?: unknown }[] = masked.entries.filter(
    (entry: { kind: string }) => entry.kind === 'view' || entry.kind === 'form_submitted',
  );
  // Three views of this video and the form: the form after the first view (the page before) and
  // before the last (the page after). Whether the view it was sent from is listed before or after it
  // depends on when that view's first batch arrived, so that one place is not asserted.
  assert.deepEqual(
    steps.map((entry) => entry.video.video_id),
    steps.map(() => videoId),
  );
  assert.deepEqual(steps.map((entry) => entry.kind).sort(), ['form_submitted', 'view', 'view', 'view']);
  const formAt = steps.findIndex((entry) => entry.kind === 'form_submitted');
  assert.ok(formAt > 0 && formAt < steps.length - 1, JSON.stringify(steps.map((entry) => entry.kind)));
  assert.deepEqual(steps[formAt]?.form, { fields: ['email', 'first_name'] });
  assert.equal(masked.summary.sessions, 3);
  const unmask = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { mask_pii: false } });
  assert.equal(unmask.status, 200, unmask.raw);
  const whole = await journeyOf();
  assert.deepEqual([whole.email, whole.name], ['grace@example.com', 'Grace']);
  assert.deepEqual(whole.entries, masked.entries, 'only the lead’s own fields are masked');
});

test('a gate before playback: focus in the form, errors read out, Escape only when skippable', async (t) => {
  const browser = await launchChromium(t);
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Gated', duration_seconds: 30 });
  const base = await urlOf(harness.app);
  const context = await ordinaryContext(browser);
  const setForm = async (form: unknown) => {
    const res = await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { lead_form: form } });
    assert.equal(res.status, 200, res.raw);
  };

  await setForm({ placement: 'before', headline: 'Members only' });
  const page = await context.newPage();
  await page.goto(`${base}/embed/${videoId}`);
  const form = page.locator('form.cp-lead');
  await form.waitFor({ state: 'visible' });
  assert.equal(await page.evaluate(FOCUSED), 'email');
  assert.equal(await page.locator('video').evaluate((element) => (element as unknown as { inert: boolean }).inert), true);
  await page.keyboard.press('Escape');
  assert.equal(await form.isVisible(), true, 'an unskippable gate stays');
  await page.keyboard.press('Enter');
  await page.getByRole('status').filter({ hasText: 'Please enter your email.' }).waitFor();
  assert.equal(await page.getByLabel('Email').getAttribute('aria-invalid'), 'true');
  // Filled in, the gate opens: the lead exists, focus is on the video.
  await page.keyboard.type('gate@example.com');
  const sent = page.waitForResponse((response) => response.url().endsWith('/leads/capture'));
  await page.keyboard.press('Enter');
  assert.equal((await sent).status(), 202);
  await form.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(FOCUSED), 'video');
  const lead = await harness.database.db
    .selectFrom('leads')
    .select(['email', 'source_video_id'])
    .where('workspace_id', '=', ws.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(lead, { email: 'gate@example.com', source_video_id: videoId });
  await page.close();

  // Another browser (this one has sent a form and is not asked again), and a skippable gate.
  await setForm({ placement: 'before', skippable: true });
  const skippable = await (await ordinaryContext(browser)).newPage();
  await skippable.goto(`${base}/watch/${videoId}`);
  await skippable.locator('form.cp-lead').waitFor({ state: 'visible' });
  await skippable.keyboard.press('Escape');
  await skippable.locator('form.cp-lead').waitFor({ state: 'hidden' });
  assert.equal(await skippable.evaluate(FOCUSED), 'video');
  assert.equal(await skippable.locator('video').evaluate((element) => (element as unknown as { inert: boolean }).inert), false);
  await skippable.close();
});

/** Waits until `read` answers `wanted` (the page's CSP refuses waitForFunction's evaluated strings). */
async function becomes(read: () => Promise<boolean>, wanted: boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await read()) !== wanted) {
    assert.ok(Date.now() < deadline, `still not ${wanted} after 10 s`);
    await sleep(50);
  }
}

/** Whether the element's box lies wholly inside the window. */
async function whollyOnScreen(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  const size = page.viewportSize();
  assert.ok(box && size, `${selector} has a box`);
  return box.y >= 0 && box.x >= 0 && box.y + box.height <= size.height + 0.5 && box.x + box.width <= size.width + 0.5;
}

test('on a phone, upright or turned, the whole form is on screen and sends; on a desktop it stays over the player', async (t) => {
  const browser = await launchChromium(t);
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  // A 16:9 video: at 375 px its player is 193 px tall, and the form needs up to 270.
  const videoId = await ws.addVideo({ title: 'The full guide', duration_seconds: 30, width: 1920, height: 1080 });
  const set = await harness.request('PATCH', `/v1/videos/${videoId}`, {
    token: ws.key,
    body: {
      lead_form: { placement: 'before', skippable: true, headline: 'Get the full guide', fields: ['first_name', 'last_name', 'phone'] },
    },
  });
  assert.equal(set.status, 200, set.raw);
  const base = await urlOf(harness.app);
  const screens = [
    { name: 'phone-320', width: 320, height: 568, full: true },
    { name: 'phone-375', width: 375, height: 667, full: true },
    { name: 'phone-landscape', width: 667, height: 375, full: true },
    { name: 'desktop', width: 1440, height: 900, full: false },
  ];
  for (const screen of screens) {
    const page = await (await ordinaryContext(browser, screen)).newPage();
    await page.goto(`${base}/watch/${videoId}`);
    const form = page.locator('form.cp-lead');
    await form.waitFor({ state: 'visible' });
    assert.equal(await form.evaluate((element) => element.classList.contains('cp-lead-full')), screen.full, `${screen.name}: full screen`);
    for (const part of [
      '#cp-lead-title',
      'form.cp-lead button[type=submit]',
      'form.cp-lead .cp-dismiss',
      'form.cp-lead input[name=phone]',
    ]) {
      assert.ok(await whollyOnScreen(page, part), `${screen.name}: ${part} is wholly on screen`);
    }
    if (process.env.CUEPOINT_SCREENSHOTS)
      await page.screenshot({ path: join(process.env.CUEPOINT_SCREENSHOTS, `lead-form-${screen.name}.png`) });
    await page.getByLabel('Email').fill(`${screen.name}@example.com`);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Phone').fill('+44 20 7946 0000');
    const sent = page.waitForResponse((response) => response.url().endsWith('/leads/capture'));
    await page.locator('form.cp-lead button[type=submit]').click();
    assert.equal((await sent).status(), 202, `${screen.name}: sent`);
    await form.waitFor({ state: 'hidden' });
    await page.close();
  }
  const leads = await harness.database.db.selectFrom('leads').select('email').where('workspace_id', '=', ws.id).orderBy('email').execute();
  assert.deepEqual(
    leads.map((lead) => lead.email),
    screens.map((screen) => `${screen.name}@example.com`).sort(),
  );

  // Turned while it shows: the form follows the window, from the player to the whole screen and back.
  const turning = await (await ordinaryContext(browser, { width: 1024, height: 768 })).newPage();
  await turning.goto(`${base}/watch/${videoId}`);
  const form = turning.locator('form.cp-lead');
  await form.waitFor({ state: 'visible' });
  const full = () => form.evaluate((element) => element.classList.contains('cp-lead-full'));
  assert.equal(await full(), false);
  await turning.setViewportSize({ width: 667, height: 375 });
  await becomes(full, true);
  assert.ok(await whollyOnScreen(turning, 'form.cp-lead button[type=submit]'));
  await turning.setViewportSize({ width: 1024, height: 768 });
  await becomes(full, false);
  // The way back: Skip returns to the video.
  await turning.locator('form.cp-lead .cp-dismiss').click();
  await form.waitFor({ state: 'hidden' });
  await turning.close();
});
