/**
 * Search as a person uses it (issue 28), in a real Chromium: "/" jumps to the top bar's box, the
 * results come grouped by kind and each opens its page; the API finds the same things. axe-core at
 * 1440 and 375 px, no horizontal scrolling at 375, and screenshots for a person to look at.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { assertAccessible } from './accessibility.ts';
import { launchChromium } from './chromium.ts';
import { signIn } from './dashboard-pages.ts';
import { saveScreenshot } from './screenshots.ts';

const PASSWORD = 'correct horse battery staple';

test('a person searches from the top bar and opens a result', { timeout: 300_000 }, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', name: 'Olive Owner', password: PASSWORD });
  const videoId = await ws.addVideo({ title: 'Onboarding tour for new customers', description: 'A tour of onboarding, step by step.' });
  await ws.addVideo({ title: 'Quarterly pricing review' });
  const route = await ws.addRoute({ name: 'Onboarding quiz' });
  await ws.addLead({ email: 'olga@example.com', first_name: 'Onboarding', last_name: 'Champion' });
  const chromium = await launchChromium(t);
  const context = await chromium.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  await signIn(page, base, owner.email);

  await page.keyboard.press('/');
  await page.keyboard.type('onboarding');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${base}/app/search?q=onboarding`);
  await page.getByText(/results? for “onboarding”/).waitFor();
  for (const heading of ['Videos', 'Routes', 'Leads']) {
    await page.getByRole('heading', { name: new RegExp(`^${heading}`) }).waitFor();
  }
  assert.equal(await page.getByRole('link', { name: 'Quarterly pricing review' }).count(), 0);
  await assertAccessible(page, 'the search results');
  await saveScreenshot(page, 'search-results');
  const api = await harness.request('GET', '/v1/search?q=onboarding', { token: ws.key });
  assert.ok(api.body.results.some((r: { id: string }) => r.id === route.id));
  const results = await page.locator('ul.results a').count();
  assert.equal(results, api.body.results.length, 'every result the API gives, once');

  await page.setViewportSize({ width: 375, height: 800 });
  await assertAccessible(page, 'the search results at 375 px');
  assert.ok(((await page.evaluate('document.documentElement.scrollWidth')) as number) <= 375, 'no sideways scrolling at 375 px');
  await saveScreenshot(page, 'search-results');

  await page.getByRole('link', { name: 'Onboarding tour for new customers' }).click();
  await page.waitForURL(`${base}/app/videos/${videoId}`);

  // The page's own box searches again; an empty search asks for words.
  await page.goto(`${base}/app/search`);
  await page.getByLabel('Search videos, what is said in them, routes and leads').fill('pricing');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('link', { name: 'Quarterly pricing review' }).waitFor();
  await context.close();
});
