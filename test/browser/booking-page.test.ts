/**
 * The booking page in a real Chromium on a phone-sized screen, in a time zone that is not the event
 * type's (Asia/Kolkata, a half-hour offset; the calls are in America/New_York). A viewer on a watch
 * page clicks "Book a call" (reported to /collect as a cta_click), lands on /book/{id}?video=…,
 * sees the times in their own zone, picks the first day and its first time, is told what is missing
 * from the form, fills name and email, confirms and sees the confirmation with its calendar and
 * cancel links. The booking row holds the UTC start of the slot picked, the viewer's zone and the
 * video it came from. Changing the zone relabels the times. Screenshots of the times and of the
 * confirmation go to results/browser/ (git-ignored), for a person to look at.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestApp } from '../helpers/app.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { launchChromium } from './chromium.ts';

const VIEWER_ZONE = 'Asia/Kolkata';
const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'results', 'browser');

/** Page-side expressions are strings: the project's TypeScript has no DOM types. */
const FOCUSED = 'document.activeElement && (document.activeElement.getAttribute("name") || document.activeElement.id)';
const OVERFLOW = 'document.documentElement.scrollWidth - document.documentElement.clientWidth';

function timeIn(zone: string, iso: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
}

function dayIn(zone: string, iso: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

async function eventually<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('a viewer books a call from a watch page, in their own time zone, on a phone', { timeout: 240_000 }, async (t) => {
  // The browser first: hooks run in order, and it must close before the app waits for its connections.
  const browser = await launchChromium(t);
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const everyDay = [{ start: '09:00', end: '17:00' }];
  const eventTypeId = await ws.addEventType({
    name: 'Intro call',
    time_zone: 'America/New_York',
    location: 'https://meet.example.com/intro',
    weekly_hours: JSON.stringify({ 1: everyDay, 2: everyDay, 3: everyDay, 4: everyDay, 5: everyDay, 6: everyDay, 7: everyDay }),
  });
  const videoId = await ws.addVideo({ title: 'Product tour' });
  const linked = await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { booking_event_type_id: eventTypeId } });
  assert.equal(linked.status, 200, linked.raw);
  const base = await urlOf(harness.app);

  const context = await browser.newContext({
    userAgent: `Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Mobile Safari/537.36`,
    viewport: { width: 375, height: 740 },
    locale: 'en-US',
    timezoneId: VIEWER_ZONE,
  });
  context.setDefaultTimeout(60_000);
  t.after(() => context.close());
  const page: Page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) problems.push(`console: ${message.text()}`);
  });

  // 1. The watch page's call to action leads to the booking page, naming the video.
  await page.goto(`${base}/watch/${videoId}`);
  const slotsAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === `/book/${eventTypeId}/slots`);
  await page.getByRole('link', { name: 'Book a call' }).click();
  await page.waitForURL(`${base}/book/${eventTypeId}?video=${videoId}`);
  const offered = (await (await slotsAnswer).json()) as { slots: { start: string; end: string }[] };
  assert.ok(offered.slots.length > 0, 'the next 31 days offer slots');
  const [first] = offered.slots as [{ start: string; end: string }];
  assert.equal(await page.title(), 'Book: Intro call');
  // Chromium's ICU may name the zone by its older alias (Asia/Calcutta): the page takes whatever the browser says.
  const browserZone = (await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone')) as string;
  assert.ok(['Asia/Kolkata', 'Asia/Calcutta'].includes(browserZone), browserZone);
  assert.equal(await page.locator('#cp-zone').inputValue(), browserZone, 'the browser’s own zone is chosen');

  // 2. A day, then its first time: shown in the viewer's zone.
  const dayButton = page.locator('#cp-days button').first();
  await dayButton.waitFor();
  await dayButton.click();
  assert.equal(await dayButton.getAttribute('aria-pressed'), 'true');
  assert.equal(await page.evaluate(FOCUSED), 'cp-times-title', 'focus moves to the day’s times');
  const firstTime = page.locator('#cp-times button').first();
  assert.equal(await firstTime.textContent(), timeIn(VIEWER_ZONE, first.start));
  for (const button of await page.locator('#cp-times button, #cp-days button').all()) {
    const box = await button.boundingBox();
    assert.ok(box && box.height >= 44, 'each choice is at least 44 px tall');
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  const mode = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  await page.screenshot({ path: join(SCREENSHOTS, `booking-page-times-${mode}.png`), fullPage: true });
  // Another zone relabels the times of the same calendar day (between 18:30 and 24:00 UTC the
  // viewer's first day starts later in UTC than the first slot); back to the viewer's own.
  await page.locator('#cp-zone').selectOption('UTC');
  const chosenDay = dayIn(VIEWER_ZONE, first.start);
  const firstThatDayInUtc = offered.slots.find((slot) => dayIn('UTC', slot.start) === chosenDay);
  assert.ok(firstThatDayInUtc, `a slot on ${chosenDay} in UTC`);
  assert.equal(await page.locator('#cp-times button').first().textContent(), timeIn('UTC', firstThatDayInUtc.start));
  await page.locator('#cp-zone').selectOption(browserZone);
  await page.locator('#cp-times button').first().click();

  // 3. The form: focus on the name; an empty form is refused in words.
  await page.locator('#cp-details').waitFor({ state: 'visible' });
  assert.equal(await page.evaluate(FOCUSED), 'name');
  assert.match(
    (await page.locator('#cp-chosen').textContent()) ?? '',
    new RegExp(`${timeIn(VIEWER_ZONE, first.start)} – .*\\(${browserZone}\\)`),
  );
  await page.getByRole('button', { name: 'Confirm booking' }).click();
  assert.equal(await page.locator('#cp-status').textContent(), 'Please check: name, email.');
  assert.equal(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid'), 'true');
  await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
  await page.getByLabel('Email', { exact: true }).fill('grace@example.com');
  await page.getByRole('button', { name: 'Confirm booking' }).click();

  // 4. The confirmation, with the time in the viewer's zone and the invitee's links.
  await page.locator('#cp-done').waitFor({ state: 'visible' });
  assert.equal(await page.evaluate(FOCUSED), 'cp-done-title');
  assert.equal(await page.getByRole('heading', { name: 'You are booked' }).isVisible(), true);
  assert.match((await page.locator('#cp-done-when').textContent()) ?? '', new RegExp(`^Intro call: .*${timeIn(VIEWER_ZONE, first.start)}`));
  assert.equal(await page.getByRole('link', { name: 'https://meet.example.com/intro' }).isVisible(), true);
  const booking = await harness.database.db.selectFrom('bookings').selectAll().where('workspace_id', '=', ws.id).executeTakeFirstOrThrow();
  assert.equal(
    await page
      .getByRole('link', { name: 'Add to your calendar' })
      .getAttribute('href')
      .then((href) => href?.split('?')[0]),
    `http://localhost:3000/bookings/${booking.id}/invite.ics`,
  );
  assert.match((await page.getByRole('link', { name: 'Cancel this call' }).getAttribute('href')) ?? '', /\/cancel\?token=/);
  assert.equal(await page.evaluate(OVERFLOW), 0, 'nothing wider than the phone');
  await page.screenshot({ path: join(SCREENSHOTS, `booking-page-${mode}.png`), fullPage: true });

  // 5. The booking: the slot picked, in UTC; the viewer's zone; the video it came from; its lead.
  assert.equal(booking.starts_at.toISOString(), first.start);
  assert.equal(booking.ends_at.toISOString(), first.end);
  assert.equal(booking.invitee_timezone, new Intl.DateTimeFormat('en-US', { timeZone: browserZone }).resolvedOptions().timeZone);
  assert.equal(booking.invitee_email, 'grace@example.com');
  assert.equal(booking.video_id, videoId);
  assert.ok(booking.lead_id, 'the invitee is a lead');

  // 6. The click on the watch page reached /collect as a cta_click of the video.
  const click = await eventually(async () => {
    const batches = await harness.database.db
      .selectFrom('viewing_batches')
      .select('events')
      .where('workspace_id', '=', ws.id)
      .where('video_id', '=', videoId)
      .execute();
    return batches.flatMap((batch) => batch.events as { type: string; label?: string }[]).find((event) => event.type === 'cta_click');
  }, 'the cta_click');
  assert.equal(click.label, 'Book a call');
  assert.deepEqual(problems, []);
});
