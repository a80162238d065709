/**
 * The channel page in a real Chromium with the longest text a workspace may give it, in words no line
 * can break between (a name of 200 letters, a 120-letter headline, a long description of the featured
 * video, a long card title): on a phone, every line wraps and nothing is wider than the screen.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { launchChromium, ordinaryContext } from './chromium.ts';

const OVERFLOW = 'document.documentElement.scrollWidth - document.documentElement.clientWidth';

test('unbroken long text wraps on a phone: the name, the headline, the featured description, a card', { timeout: 120_000 }, async (t) => {
  const browser = await launchChromium(t);
  const harness = await startTestApp(t);
  const ws = await harness.workspace('business');
  const api = (method: string, path: string, body?: unknown) => harness.request(method, `/v1${path}`, { token: ws.key, body });
  assert.equal((await api('PATCH', '/workspace', { name: 'N'.repeat(200) })).status, 200);
  const featured = await ws.addVideo({ title: 'F'.repeat(200), description: 'D'.repeat(2000) });
  const card = await ws.addVideo({ title: 'T'.repeat(200), description: 'C'.repeat(2000) });
  assert.equal((await api('PUT', `/channel/items/${card}`, { kind: 'video', visible: true })).status, 200);
  assert.equal((await api('PUT', '/channel/featured', { video_id: featured })).status, 200);
  const channel = await api('PATCH', '/channel', { headline: 'H'.repeat(120), dek: 'K'.repeat(300) });
  assert.equal(channel.status, 200, channel.raw);

  const context = await ordinaryContext(browser);
  const page = await context.newPage();
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${await urlOf(harness.app)}/c/${channel.body.slug}`);
  const wider = await page.evaluate(
    `[...document.querySelectorAll('body *')].filter((element) => element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflow === 'visible').map((element) => element.tagName + '.' + element.className)`,
  );
  assert.deepEqual(wider, [], 'no element is wider than its box');
  assert.equal(await page.evaluate(OVERFLOW), 0);
});
