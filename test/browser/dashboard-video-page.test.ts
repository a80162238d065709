/**
 * The video's page in a real Chromium (issue 28): a member signs in, opens a video that people have
 * watched, finds its retention curve with the drop-off and the replayed part marked and listed,
 * changes the window of the daily charts, picks a caption file (the page's script reads it into the
 * form) and saves it, searches the transcript, and copies the embed code. Every step is checked
 * through the API; axe-core runs on the page at 1440 and 375 px, the page never scrolls sideways at
 * 375 px, asks nothing of another origin, and screenshots are written for a person to look at.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { upsertLeadRecord } from '../../src/domains/leads/index.ts';
import { countCapturedLead } from '../../src/domains/viewing/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { testFfmpegPath } from '../helpers/ffmpeg.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { createUpload, put, waitForStatus, withProcessingWorker } from '../helpers/uploads.ts';
import { collectUnfolded, type Event, foldEverything, pageView, viewer } from '../helpers/viewing.ts';
import { assertAccessible } from './accessibility.ts';
import { launchChromium } from './chromium.ts';
import { signIn } from './dashboard-pages.ts';
import { saveScreenshot } from './screenshots.ts';

const PASSWORD = 'correct horse battery staple';
const clip = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'clip.mp4'));

const CAPTIONS = [
  'WEBVTT',
  '',
  '00:00.000 --> 00:20.000',
  'Welcome to the Cuepoint product tour.',
  '',
  '00:20.000 --> 01:00.000',
  'First, how pricing works for small teams.',
  '',
  '01:00.000 --> 01:30.000',
  'Now the part everyone asks about: annual pricing.',
  '',
  '01:30.000 --> 01:50.000',
  'Here is the setup in three clicks.',
  '',
  '01:50.000 --> 03:04.000',
  'Book a call and we will show you the rest.',
  '',
].join('\n');

/** The app's clock: the real time, unless a test has set it to another (viewing on past days). */
const clock: { at: Date | null } = { at: null };
const DAY_MS = 86_400_000;

/**
 * Thirty views of a 184-second tour over the last ten days: four leave in the first seconds, ten more
 * at one minute (the drop-off), the rest watch to the end; six of those replay 1:30–1:50 and five
 * click the call to action.
 */
async function viewing(harness: TestApp, videoId: string): Promise<void> {
  const started = Date.now();
  for (let i = 0; i < 30; i++) {
    clock.at = new Date(started - ((i * 7) % 10) * DAY_MS);
    const events: Event[] = [];
    if (i < 4) events.push({ type: 'progress', ranges: [[0, 5]] });
    else if (i < 14) events.push({ type: 'progress', ranges: [[0, 60]] });
    else {
      events.push({ type: 'progress', ranges: [[0, 184]] });
      if (i < 20) events.push({ type: 'seek', from: 110, to: 90 }, { type: 'progress', ranges: [[90, 110]] });
      if (i >= 25) events.push({ type: 'cta_click', position: 150 });
    }
    const view = pageView(videoId, clock.at);
    const res = await collectUnfolded(harness, { token: view.token, viewer_id: viewer(`tour${i}`), sequence: 1, events });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  clock.at = null;
  await foldEverything(harness.database.db);
}

async function noSidewaysScroll(page: Page, what: string): Promise<void> {
  const width = await page.evaluate('document.documentElement.scrollWidth');
  assert.ok((width as number) <= 375, `${what} scrolls sideways at 375 px: ${width}`);
}

test('a member reads a video’s retention and daily figures, uploads its captions, searches them and copies the embed code', {
  timeout: 300_000,
}, async (t) => {
  const chromium = await launchChromium(t);
  const harness = await startTestApp(t, { isolated: true, clock: () => clock.at ?? new Date() });
  withProcessingWorker(t, harness, testFfmpegPath);
  const ws = await harness.workspace();
  const base = await urlOf(harness.app);
  const member = await ws.addMember({ role: 'member', name: 'Mara', password: PASSWORD });

  // A real clip, processed (poster, playable media). Its recorded length is set to the tour's 184 s so
  // the viewing below has a curve worth reading; the player still plays the 3-second file.
  const upload = await createUpload(harness, ws.key, { file_name: 'tour.mp4', file_size: clip.length, title: 'Product tour' });
  assert.equal((await put(harness, upload.upload_url, clip)).status, 200);
  const ready = await waitForStatus(harness, ws.key, upload.video_id, ['ready', 'failed'], 120_000);
  assert.equal(ready.status, 'ready', ready.failure_reason);
  const videoId = upload.video_id;
  const db = harness.database.db;
  await db
    .updateTable('videos')
    .set({
      duration_seconds: 184,
      description: 'A three-minute walk through pricing, setup and booking a call.',
      tags: ['onboarding', 'pricing'],
    })
    .where('id', '=', videoId)
    .execute();
  await db.updateTable('workspaces').set({ mask_pii: false }).where('id', '=', ws.id).execute();
  await viewing(harness, videoId);
  for (const [email, name] of [
    ['dana.ortiz@example.com', 'Dana Ortiz'],
    ['lee.chen@example.com', 'Lee Chen'],
  ]) {
    const now = new Date();
    const { lead } = await upsertLeadRecord(db, {
      workspaceId: ws.id,
      fields: { email: email as string, name },
      author: 'watch page',
      source: 'video',
      sourceVideoId: videoId,
      at: now,
    });
    await db.transaction().execute((trx) => countCapturedLead(trx, ws.id, videoId, now.toISOString().slice(0, 10), now));
    assert.ok(lead.id);
  }

  const context = await chromium.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  const elsewhere: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(base) && !request.url().startsWith('data:')) elsewhere.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  await signIn(page, base, member.email);
  await page.goto(`${base}/app/videos/${videoId}`);
  await page.getByRole('heading', { name: 'Product tour', level: 1 }).waitFor();
  await page.getByRole('link', { name: 'Edit' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Delete video' }).count(), 0, 'a member is not offered Delete video');

  // The retention curve, its drop-off at one minute marked on it and listed beside it.
  const retention = page.getByRole('region', { name: 'Retention' });
  await retention.getByRole('img', { name: 'Share of views still watching' }).waitFor();
  const moments = retention.getByRole('list').filter({ hasText: 'Drop-off' });
  await moments
    .getByText(/^1:0\d–1:0\d$/)
    .first()
    .waitFor();
  await moments.getByText('Replayed').first().waitFor();
  assert.ok((await retention.locator('g.marker.drop').count()) >= 1);
  assert.ok((await retention.locator('g.marker.moment').count()) >= 1);

  // The daily window: the last 7 days, then chosen dates.
  const performance = page.getByRole('region', { name: 'Views, watch time and conversions' });
  await performance.getByRole('link', { name: 'Last 7 days' }).click();
  await page.waitForURL(/range=7/);
  assert.equal(await performance.getByRole('link', { name: 'Last 7 days' }).getAttribute('aria-current'), 'true');
  await performance.getByRole('img', { name: 'Views per day' }).waitFor();
  const viewsTable = performance.locator('#daily-views-table');
  assert.equal(await viewsTable.locator('tbody tr').count(), 7);
  // The window's views are what the API says for the same seven days.
  const lastDay = (await viewsTable.locator('tbody tr').last().locator('th').textContent()) ?? '';
  const today = new Date().toISOString().slice(0, 10);
  const weekAgo = new Date(Date.now() - 6 * DAY_MS).toISOString().slice(0, 10);
  const week = await harness.request('GET', `/v1/videos/${videoId}/analytics?from_date=${weekAgo}&to_date=${today}`, { token: ws.key });
  assert.equal(lastDay, new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }));
  const viewsTile = performance.getByRole('listitem').filter({ hasText: /^Views/ });
  assert.equal(await viewsTile.locator('.value').textContent(), String(week.body.totals.views));
  assert.ok(week.body.totals.views > 0 && week.body.totals.views < 30, 'a part of the thirty views');
  await performance.getByLabel('First day').fill('2026-01-01');
  await performance.getByLabel('Last day').fill('2026-01-14');
  await performance.getByRole('button', { name: 'Show' }).click();
  await page.waitForURL(/from=2026-01-01&to=2026-01-14/);
  assert.equal(await page.locator('#daily-views-table tbody tr').count(), 14);

  // The leads it brought, linked to their pages.
  await page.goto(`${base}/app/videos/${videoId}`);
  const leads = page.getByRole('region', { name: 'Leads from this video' });
  assert.match((await leads.getByRole('link', { name: 'Dana Ortiz' }).getAttribute('href')) ?? '', /^\/app\/leads\//);

  await assertAccessible(page, 'the video page at 1440 px');
  await saveScreenshot(page, 'video-page');

  // Captions: a file picked is read into the form by the page's script, then saved.
  const transcript = page.getByRole('region', { name: 'Transcript' });
  await transcript.getByText('No transcript yet').waitFor();
  await transcript.getByLabel('Caption file').setInputFiles({ name: 'tour.vtt', mimeType: 'text/vtt', buffer: Buffer.from(CAPTIONS) });
  await page.waitForFunction("document.getElementById('caption-text').value.startsWith('WEBVTT')");
  await transcript.getByLabel('Spoken language').fill('en-US');
  await transcript.getByRole('button', { name: 'Save captions' }).click();
  await page.getByText('The captions are saved').waitFor();
  const saved = await harness.request('GET', `/v1/videos/${videoId}/transcript`, { token: ws.key });
  assert.equal(saved.status, 200, saved.raw);
  assert.equal(saved.body.language, 'en-US');
  assert.equal(saved.body.segments.length, 5);

  // Search: the lines that say it, the words marked.
  await page.getByRole('region', { name: 'Transcript' }).getByLabel('Find in the transcript').fill('pricing');
  await page.getByRole('button', { name: 'Find' }).click();
  await page.waitForURL(/q=pricing/);
  await page.getByText('2 of 5 lines say “pricing”.').waitFor();
  assert.equal(await page.locator('ol.video-cues mark').count(), 2);
  await saveScreenshot(page, 'video-page-transcript-search');

  // A line's time plays the video on the page from there (videos-seek.js).
  await page.getByRole('button', { name: 'Play from 0:20' }).click();
  await page.waitForFunction("document.getElementById('player').currentTime > 0");

  // Share: Copy puts the embed code on the clipboard.
  const share = page.getByRole('region', { name: 'Share and embed' });
  await share.getByRole('button', { name: 'Copy' }).nth(1).click();
  await share.getByRole('button', { name: 'Copied' }).waitFor();
  const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
  assert.equal(copied, await share.getByLabel('Embed code').inputValue());
  assert.match(copied, new RegExp(`^<iframe src="http://localhost:3000/embed/${videoId}"`));

  // A caption file with a broken cue comes back with the problem next to the field.
  await transcript.getByLabel(/^Captions/).fill('WEBVTT\n\nnot a timing line\nWords\n');
  await transcript.getByRole('button', { name: 'Save captions' }).click();
  await page.getByText('The captions were not saved').waitFor();
  assert.equal(await page.getByLabel(/^Captions/).getAttribute('aria-invalid'), 'true');
  await assertAccessible(page, 'the video page with caption problems');

  // At 375 px: nothing sideways, accessible, and a screenshot of each state.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`${base}/app/videos/${videoId}`);
  await noSidewaysScroll(page, 'the video page');
  await assertAccessible(page, 'the video page at 375 px');
  await saveScreenshot(page, 'video-page');
  await page.goto(`${base}/app/videos/${videoId}?q=pricing#transcript`);
  await noSidewaysScroll(page, 'the video page with a search');

  assert.deepEqual(elsewhere, [], 'no request to another origin');
  assert.deepEqual(problems, [], 'nothing the policy blocked');
  await context.close();
});
