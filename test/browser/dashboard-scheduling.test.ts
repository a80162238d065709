/**
 * Scheduling in the dashboard, in a real Chromium (issue 28): an owner creates an event type, sets its
 * weekly hours (with the "Copy Monday" script), closes a day from the month calendar, reads the
 * availability explainer, reschedules and cancels a booking, adds and removes a calendar feed; each
 * checked through the API. axe-core on every page at 1440 and 375 px, no horizontal scrolling at 375,
 * and screenshots for a person to look at.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, testLookup } from '../helpers/app.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { LOOPBACK } from '../helpers/webhooks.ts';
import { assertAccessible } from './accessibility.ts';
import { launchChromium, ordinaryContext } from './chromium.ts';
import { signIn } from './dashboard-pages.ts';
import { saveScreenshot } from './screenshots.ts';

const PASSWORD = 'correct horse battery staple';
/** The elements that reach past the screen's right edge, to name them when a page scrolls sideways. */
const WIDER_THAN_SCREEN = `[...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > 376).slice(0, 8).map((e) => e.tagName + '.' + e.className)`;

function weekdayAhead(after: number): string {
  const at = new Date(Date.now() + after * 86_400_000);
  while (at.getUTCDay() === 0 || at.getUTCDay() === 6) at.setUTCDate(at.getUTCDate() + 1);
  return at.toISOString().slice(0, 10);
}

const dayLabel = (date: string) =>
  new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );

test('an owner runs Scheduling from the dashboard: event types, hours, a closed day, the explainer, bookings and calendars', {
  timeout: 600_000,
}, async (t) => {
  const harness = await startTestApp(t, { outbound: { allowPrivateNetworks: LOOPBACK, lookup: testLookup, webhookTimeoutMs: 10_000 } });
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', name: 'Olive', password: PASSWORD });
  const intro = await ws.addEventType({ name: 'Intro call', location: 'https://meet.example.com/intro', buffer_after_minutes: 10 });
  const day = weekdayAhead(2);
  const bookingId = await ws.addBooking({
    event_type_id: intro,
    starts_at: new Date(`${day}T10:00:00Z`),
    ends_at: new Date(`${day}T10:30:00Z`),
    buffer_after_minutes: 10,
    invitee_name: 'Dana Whitfield',
  });
  await ws.addBooking({ event_type_id: intro, starts_at: new Date(`${day}T14:00:00Z`), ends_at: new Date(`${day}T14:30:00Z`) });
  await ws.addCalendarFeed({ name: 'Team holidays' });
  const api = (path: string) => harness.request('GET', `/v1${path}`, { token: ws.key });

  const chromium = await launchChromium(t);
  const context = await chromium.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  await signIn(page, base, owner.email);

  // The event types, and a new one.
  await page.getByRole('navigation', { name: 'Primary' }).getByRole('link', { name: 'Scheduling' }).click();
  await page.getByRole('heading', { name: 'Scheduling', level: 1 }).waitFor();
  await assertAccessible(page, 'the event types page');
  await saveScreenshot(page, 'scheduling-event-types');
  await page.getByRole('link', { name: 'New event type' }).click();
  await assertAccessible(page, 'the new event type form');
  await page.getByLabel('Name').fill('Product demo');
  await page.getByLabel('Length (minutes)').fill('45');
  await page.getByLabel('Location or meeting link').fill('https://meet.example.com/demo');
  await page.getByLabel('Value of a booked call').fill('150');
  await page.getByRole('button', { name: 'Create event type' }).click();
  await page.getByText('The event type is created.').waitFor();
  const demo = (await api('/scheduling/event-types')).body.event_types.find((e: { name: string }) => e.name === 'Product demo');
  assert.deepEqual([demo.duration_minutes, demo.value], [45, { amount: 15000, currency: 'USD' }]);

  // Weekly hours: Monday changed, copied to Tuesday–Friday by the script, saved.
  await assertAccessible(page, 'an event type page');
  await saveScreenshot(page, 'scheduling-event-type');
  await page.getByLabel('Monday, from', { exact: true }).fill('10:00');
  await page.getByLabel('Monday, stretch 2, from').fill('14:00');
  await page.getByLabel('Monday, stretch 2, to').fill('18:00');
  await page.getByLabel('Monday, to', { exact: true }).fill('12:00');
  await page.getByRole('button', { name: 'Copy Monday to Tuesday–Friday' }).click();
  await page.getByRole('button', { name: 'Save weekly hours' }).click();
  await page.getByText('The weekly hours are saved.').waitFor();
  const week = (await api(`/scheduling/event-types/${demo.event_type_id}`)).body.weekly_hours;
  const twoStretches = [
    { start: '10:00', end: '12:00' },
    { start: '14:00', end: '18:00' },
  ];
  assert.deepEqual([week.monday, week.thursday, week.saturday], [twoStretches, twoStretches, []]);

  // A day closed from the month calendar.
  await page.goto(`${base}/app/scheduling/event-types/${demo.event_type_id}?month=${day.slice(0, 7)}`);
  await page.getByRole('link', { name: new RegExp(`^${dayLabel(day)}:`) }).click();
  await page.getByRole('heading', { name: dayLabel(day), level: 1 }).waitFor();
  await assertAccessible(page, 'a day’s form');
  await page.getByLabel('Closed all day').check();
  await page.getByRole('button', { name: 'Save day' }).click();
  await page.getByText('The day is saved.').waitFor();
  assert.deepEqual((await api(`/scheduling/event-types/${demo.event_type_id}`)).body.date_overrides, [{ date: day, hours: [] }]);

  // The explainer.
  await page.getByRole('navigation', { name: 'Scheduling' }).getByRole('link', { name: 'Availability' }).click();
  await page.getByLabel('Event type').selectOption({ label: 'Intro call' });
  await page.getByLabel('Day', { exact: true }).fill(day);
  await page.getByRole('button', { name: 'Explain' }).click();
  await page.getByRole('heading', { name: dayLabel(day) }).waitFor();
  await page.getByText('09:00–09:30').waitFor();
  assert.ok((await page.getByText(/overlaps booking/).count()) > 0, 'the booked start says why');
  await assertAccessible(page, 'the availability explainer');
  await saveScreenshot(page, 'scheduling-availability');

  // Bookings: reschedule, then cancel with a reason.
  await page.getByRole('navigation', { name: 'Scheduling' }).getByRole('link', { name: 'Bookings' }).click();
  await assertAccessible(page, 'the bookings list');
  await saveScreenshot(page, 'scheduling-bookings');
  await page.getByRole('link', { name: 'Reschedule the call with D***' }).click();
  await page.getByRole('heading', { name: 'Reschedule' }).waitFor();
  await page.goto(`${base}/app/scheduling/bookings/${bookingId}?from=${day}#reschedule`);
  await assertAccessible(page, 'a booking page');
  await saveScreenshot(page, 'scheduling-booking');
  await page
    .getByRole('group', { name: dayLabel(day) })
    .getByText('11:00 AM', { exact: true })
    .click();
  await page.getByRole('button', { name: 'Reschedule' }).click();
  await page.getByText('The call is moved.').waitFor();
  assert.equal((await api(`/bookings/${bookingId}`)).body.start, `${day}T11:00:00.000Z`);
  await page.getByLabel('Reason (optional)').fill('Dana asked to talk next quarter.');
  await page.getByRole('button', { name: 'Cancel booking' }).click();
  await page.getByText('The call is canceled; its time is open again.').waitFor();
  const canceled = (await api(`/bookings/${bookingId}`)).body;
  assert.deepEqual([canceled.status, canceled.cancel_reason], ['canceled', 'Dana asked to talk next quarter.']);

  // Calendars: add one, remove another through its dialog.
  await page.getByRole('navigation', { name: 'Scheduling' }).getByRole('link', { name: 'Calendars' }).click();
  await page.getByLabel('Name').fill('Work calendar');
  await page.getByLabel('ICS address').fill('webcal://localhost:8443/ical/private-4f2a/basic.ics');
  await page.getByRole('button', { name: 'Add calendar' }).click();
  await page.getByText('The calendar is added.').waitFor();
  await assertAccessible(page, 'the calendars page');
  await saveScreenshot(page, 'scheduling-calendars');
  await page.getByRole('button', { name: 'Remove Team holidays' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await assertAccessible(page, 'the calendars page with its dialog open');
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await page.getByText('The calendar is removed').waitFor();
  const feeds = (await api('/scheduling/calendars')).body.calendar_feeds.map((f: { name: string }) => f.name);
  assert.deepEqual(feeds, ['Work calendar']);
  await context.close();

  // Every page at 375 px: accessible, nothing wider than the screen.
  const phone = await ordinaryContext(chromium, { width: 375, height: 800 });
  const small = await phone.newPage();
  await signIn(small, base, owner.email);
  const pages: [string, string][] = [
    ['scheduling-event-types', '/app/scheduling'],
    ['scheduling-new', '/app/scheduling/event-types/new'],
    ['scheduling-event-type', `/app/scheduling/event-types/${intro}?month=${day.slice(0, 7)}`],
    ['scheduling-day', `/app/scheduling/event-types/${intro}/days/${day}`],
    ['scheduling-availability', `/app/scheduling/availability?event_type=${intro}&date=${day}`],
    ['scheduling-bookings', '/app/scheduling/bookings?scope=all'],
    ['scheduling-booking', `/app/scheduling/bookings/${bookingId}`],
    ['scheduling-calendars', '/app/scheduling/calendars'],
  ];
  const audit = await chromium.newContext({ viewport: { width: 375, height: 800 }, bypassCSP: true });
  const audited = await audit.newPage();
  await signIn(audited, base, owner.email);
  for (const [name, path] of pages) {
    await small.goto(`${base}${path}`);
    await saveScreenshot(small, name);
    const width = await small.evaluate<number>('document.documentElement.scrollWidth');
    const wide = width > 375 ? await small.evaluate<string[]>(WIDER_THAN_SCREEN) : [];
    assert.ok(width <= 375, `${path} scrolls sideways at 375 px (${width}): ${wide.join(', ')}`);
    await audited.goto(`${base}${path}`);
    await assertAccessible(audited, `${path} at 375 px`);
  }
});

test('a viewer reads Scheduling without a single write control', { timeout: 300_000 }, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  const viewer = await ws.addMember({ role: 'viewer', password: PASSWORD });
  const intro = await ws.addEventType({ name: 'Intro call' });
  const bookingId = await ws.addBooking({ event_type_id: intro });
  await ws.addCalendarFeed({ name: 'Team holidays' });
  const chromium = await launchChromium(t);
  const context = await chromium.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  await signIn(page, base, viewer.email);
  for (const path of [
    '/app/scheduling',
    `/app/scheduling/event-types/${intro}`,
    `/app/scheduling/bookings/${bookingId}`,
    '/app/scheduling/calendars',
  ]) {
    await page.goto(`${base}${path}`);
    assert.equal(await page.locator('main form[method="post"]').count(), 0, `${path} offers a write`);
    assert.equal(await page.locator('main button:not([type="submit"][form])').count(), 0, `${path} offers a button`);
    await assertAccessible(page, `${path} for a viewer`);
  }
  await saveScreenshot(page, 'scheduling-calendars-viewer');
});
