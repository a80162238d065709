/**
 * The audit the Chromium tests rely on (accessibility.ts) finds what it must: a page with an image
 * without a text alternative, a nameless button and text too faint to read fails it, in the page and
 * in a frame of the same origin; the same page made right passes.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'node:test';
import { assertAccessible } from './accessibility.ts';
import { launchChromium } from './chromium.ts';

const BAD = '<img src="/pixel.png"><button></button><p style="color:#ccc;background:#fff">Faint words</p>';
const GOOD = '<img src="/pixel.png" alt="A pixel"><button>Send</button><p style="color:#222;background:#fff">Clear words</p>';
const page = (body: string) => `<!doctype html><html lang="en"><head><title>Audit</title></head><body><main>${body}</main></body></html>`;

test('the accessibility audit fails a page with violations, in the page and in a same-origin frame, and passes a clean one', async (t) => {
  const server = createServer((request, response) => {
    const html: Record<string, string> = {
      '/bad': page(BAD),
      '/good': page(GOOD),
      '/framed-bad': page('<iframe title="Inner" src="/bad"></iframe>'),
    };
    const body = html[request.url ?? ''];
    response.writeHead(body ? 200 : 404, { 'content-type': 'text/html' }).end(body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const chromium = await launchChromium(t);
  const context = await chromium.newContext({ bypassCSP: true });
  const tab = await context.newPage();

  await tab.goto(`${base}/bad`);
  await assert.rejects(assertAccessible(tab, 'the bad page'), (error: Error) => {
    for (const rule of ['image-alt', 'button-name', 'color-contrast']) assert.match(error.message, new RegExp(rule));
    return true;
  });
  await tab.goto(`${base}/framed-bad`);
  await tab.frameLocator('iframe').locator('button').waitFor();
  await assert.rejects(assertAccessible(tab, 'the framed page'), /image-alt/);
  await tab.goto(`${base}/good`);
  await assertAccessible(tab, 'the good page');
});
