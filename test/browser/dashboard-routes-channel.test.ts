/**
 * The routes and channel areas in a real Chromium (issue 28): on the demo's routes and channel, every
 * page passes axe at 1440 and 375 px, scrolls no wider than a phone, and is saved as a screenshot; then
 * a person builds a route with the names they see (create it, wire its first step to a new step and
 * the end, go live, pause), edits the channel and sees the preview show the change, each checked
 * through the API. The step editor's script checks as the API does before anything is sent.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { playDemoChannel } from '../../src/cli/demo-channel.ts';
import { demoRouteVideos, playDemoRoutes } from '../../src/cli/demo-routes.ts';
import { insertDemoLibrary } from '../../src/cli/insert-demo-library.ts';
import { createMediaLinks } from '../../src/media/media-links.ts';
import { startTestApp } from '../helpers/app.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { assertAccessible } from './accessibility.ts';
import { launchChromium } from './chromium.ts';
import { saveScreenshot } from './screenshots.ts';

const PASSWORD = 'correct horse battery staple';

async function signedIn(chromium: Browser, base: string, email: string, width: number): Promise<Page> {
  // axe needs eval, which the pages' policy forbids: the audited context bypasses it (the policy is tested elsewhere).
  const context = await chromium.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/app`);
  return page;
}

// What sticks out past the viewport, named, so a failure says where to look.
const WIDER = `[...document.querySelectorAll('main *')].filter((element) => !element.closest('svg') && element.getBoundingClientRect().right > window.innerWidth + 1).slice(-4).map((element) => element.tagName + '.' + element.getAttribute('class') + ' ' + (element.textContent || '').slice(0, 40)).join(' | ')`;

async function check(page: Page, what: string, screenshot: string): Promise<void> {
  await saveScreenshot(page, screenshot);
  await assertAccessible(page, `${what} at ${page.viewportSize()?.width} px`);
  const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  assert.ok(width <= (page.viewportSize()?.width ?? 0), `${what}: the page scrolls sideways (${width} px): ${await page.evaluate(WIDER)}`);
}

test('the routes and channel pages on the demo data: axe, 375 px and screenshots', { timeout: 600_000 }, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace('business');
  const db = harness.database.db;
  const now = new Date();
  const { links } = createMediaLinks('demo-secret-demo-secret-demo-secret-01', 'http://localhost:3000');
  const { watchable } = await insertDemoLibrary(db, { workspaceId: ws.id, now, links });
  await playDemoRoutes(db, ws.id, await demoRouteVideos(db, ws.id, watchable), now);
  await playDemoChannel(db, ws.id, now);
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const routes = (await harness.request('GET', '/v1/routes', { token: ws.key })).body.routes as { route_id: string; name: string }[];
  const plan = routes.find((route) => route.name === 'Which plan fits you?') as { route_id: string };
  const draft = routes.find((route) => route.name.startsWith('Customer stories')) as { route_id: string };
  const planRoute = (await harness.request('GET', `/v1/routes/${plan.route_id}`, { token: ws.key })).body;
  const chromium = await launchChromium(t);

  for (const width of [1440, 375]) {
    const page = await signedIn(chromium, base, owner.email, width);
    await page.getByRole('navigation', { name: 'Primary' }).getByRole('link', { name: 'Routes' }).click();
    await page.getByRole('heading', { name: 'Routes', level: 1 }).waitFor();
    await check(page, 'the routes list', 'routes-list');
    await page.getByRole('link', { name: 'Which plan fits you?' }).click();
    await page.getByRole('img', { name: 'The graph of “Which plan fits you?”' }).waitFor();
    await check(page, 'a live route', 'routes-route-live');
    await page.goto(`${base}/app/routes/${draft.route_id}`);
    await page.getByRole('heading', { name: /problem to fix before it can go live/ }).waitFor();
    await check(page, 'a draft route with a problem', 'routes-route-draft');
    await page.goto(`${base}/app/routes/${plan.route_id}/steps/${planRoute.steps[0].step_id}`);
    await page.getByRole('group', { name: 'Choice 1' }).waitFor();
    await check(page, 'the step editor', 'routes-step-editor');
    await page.getByRole('navigation', { name: 'Primary' }).getByRole('link', { name: 'Channel' }).click();
    await page.getByRole('heading', { name: 'Channel', level: 1 }).waitFor();
    await page.frameLocator('iframe[title="Preview of your public channel page"]').getByRole('heading', { level: 1 }).waitFor();
    await check(page, 'the channel', 'channel');
    await page.context().close();
  }
});

test('a person builds a route and edits the channel, and the preview shows it', { timeout: 600_000 }, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  await ws.addVideo({ title: 'Product tour' });
  await ws.addVideo({ title: 'The team plan' });
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const chromium = await launchChromium(t);
  const page = await signedIn(chromium, base, member.email, 1440);

  await page.goto(`${base}/app/routes`);
  await page.getByRole('link', { name: 'New route' }).click();
  await page.getByLabel('First video').selectOption({ label: 'Product tour' });
  await page.getByLabel(/^Name/).fill('Which plan fits you?');
  await page.getByRole('button', { name: 'Create route' }).click();
  await page.getByText('The route is created as a draft.').waitFor();
  const routeId = new URL(page.url()).pathname.split('/')[3] as string;

  await page.getByRole('link', { name: 'Edit choices of step 1' }).click();
  await page.getByRole('textbox', { name: /^Question/ }).fill('How big is your team?');
  const first = page.getByRole('group', { name: 'Choice 1' });
  const second = page.getByRole('group', { name: 'Choice 2' });
  // The script shows only the field a target uses.
  assert.equal(await first.getByLabel('Link (https)').isVisible(), false);
  await first.getByLabel('Label').fill('A team');
  await first.getByLabel('Leads to').selectOption({ label: 'A new step playing a video' });
  await first.getByLabel('Video of the new step').selectOption({ label: 'The team plan' });
  await second.getByLabel('Label').fill('a TEAM');
  await second.getByLabel('Leads to').selectOption({ label: 'A link' });
  await second.getByLabel('Link (https)').fill('http://example.com');
  await page.getByRole('button', { name: 'Save choices' }).click();
  // Checked in the page as the API checks: nothing was sent.
  await page.getByText('Not sent: 2 problems, shown beside the fields.').waitFor();
  await second.getByText('must be an https link').waitFor();
  assert.equal((await harness.request('GET', `/v1/routes/${routeId}`, { token: ws.key })).body.steps[0].choices.length, 0);
  await second.getByLabel('Label').fill('Just looking');
  await second.getByLabel('Leads to').selectOption({ label: 'The end card' });
  await page.getByRole('button', { name: 'Save choices' }).click();
  await page.getByText('The choices are saved.').waitFor();
  const wired = (await harness.request('GET', `/v1/routes/${routeId}`, { token: ws.key })).body;
  assert.deepEqual(
    wired.steps[0].choices.map((c: { label: string; target: string }) => `${c.label}:${c.target}`),
    ['A team:step', 'Just looking:end'],
  );
  assert.equal(wired.steps[1].video.title, 'The team plan');

  await page.getByRole('button', { name: 'Go live' }).click();
  await page.getByText('The route is live: its link plays it.').waitFor();
  assert.equal((await harness.request('GET', `/v1/routes/${routeId}`, { token: ws.key })).body.status, 'live');
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.getByText('The route is paused').waitFor();
  assert.equal((await harness.request('GET', `/v1/routes/${routeId}`, { token: ws.key })).body.status, 'paused');

  await page.getByRole('navigation', { name: 'Primary' }).getByRole('link', { name: 'Channel' }).click();
  await page.getByLabel(/^Headline/).fill('Short films from Acme');
  await page.getByLabel(/^Dek/).fill('Everything about the product, in two minutes or less.');
  await page.getByRole('button', { name: 'Save heading' }).click();
  await page.getByText('The heading is saved.').waitFor();
  await page.getByLabel('Add to the channel').selectOption({ label: 'Product tour' });
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByText('It is on the channel.').waitFor();
  const preview = page.frameLocator('iframe[title="Preview of your public channel page"]');
  await preview.getByRole('heading', { name: 'Short films from Acme', level: 1 }).waitFor();
  await preview.getByText('Product tour').first().waitFor();
  const channel = (await harness.request('GET', '/v1/channel', { token: ws.key })).body;
  assert.equal(channel.headline, 'Short films from Acme');
  assert.deepEqual(
    channel.items.map((i: { title: string; shown: boolean }) => `${i.title}:${i.shown}`),
    ['Product tour:true'],
  );
  await assertAccessible(page, 'the channel after the edits');
});

test('the preview frames the public page under the dashboard’s real policy', { timeout: 300_000 }, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  await harness.request('PATCH', '/v1/channel', { token: ws.key, body: { headline: 'Framed by ourselves' } });
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const chromium = await launchChromium(t);
  const context = await chromium.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|frame-ancestors|Refused/.test(message.text())) refused.push(message.text());
  });
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/app`);
  await page.goto(`${base}/app/channel`);
  await page
    .frameLocator('iframe[title="Preview of your public channel page"]')
    .getByRole('heading', { name: 'Framed by ourselves' })
    .waitFor();
  assert.deepEqual(refused, []);
});
