/**
 * The dashboard from the keyboard alone (issue 28), in a real Chromium: the first Tab reaches "Skip to
 * content" and Enter moves on into the page; Tab reaches an area of the primary navigation and Enter
 * opens it; a lead is found and opened, and a note added, without the mouse; every element focused on
 * the way shows it (an outline or a ring, never nothing). What happened is checked through the API.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestApp } from '../helpers/app.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { launchChromium } from './chromium.ts';
import { signIn } from './dashboard-pages.ts';

const PASSWORD = 'correct horse battery staple';

interface Focused {
  tag: string;
  text: string;
  href: string | null;
  visible: boolean;
  inMain: boolean;
}

/** The focused element, and whether its focus can be seen: an outline of some width, or a box shadow. */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(`(() => {
    const element = document.activeElement;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return {
      tag: element.tagName.toLowerCase(),
      text: (element.textContent || element.getAttribute('aria-label') || '').trim().slice(0, 60),
      href: element.getAttribute('href'),
      visible: outline || style.boxShadow !== 'none',
      inMain: Boolean(element.closest('main')),
    };
  })()`) as Promise<Focused>;
}

/** Presses Tab until `wanted` holds for the focused element (at most `limit` times), checking each stop shows its focus. */
async function tabTo(page: Page, wanted: (element: Focused) => boolean, what: string, limit = 60): Promise<Focused> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const element = await focused(page);
    assert.ok(element.visible, `focus is not visible on <${element.tag}> “${element.text}” (on the way to ${what})`);
    if (wanted(element)) return element;
  }
  throw new Error(`${what} was not reached in ${limit} presses of Tab`);
}

test('a person works the dashboard from the keyboard alone, and sees where the focus is', { timeout: 300_000 }, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', name: 'Olive Owner', password: PASSWORD });
  const leadId = await ws.addLead({ email: 'kay@example.com', first_name: 'Kay', last_name: 'Board' });
  const chromium = await launchChromium(t);
  const context = await chromium.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  await signIn(page, base, owner.email);

  // The first stop is the skip link; following it, the next stop is inside the page's content.
  await page.goto(`${base}/app`);
  await page.keyboard.press('Tab');
  const skip = await focused(page);
  assert.deepEqual([skip.text, skip.href, skip.visible], ['Skip to content', '#content', true]);
  await page.keyboard.press('Enter');
  const first = await tabTo(page, () => true, 'the first stop after skipping');
  assert.ok(first.inMain, `after "Skip to content", Tab goes to <${first.tag}> “${first.text}”, outside the content`);

  // The primary navigation, then a lead, by Tab and Enter.
  await page.goto(`${base}/app`);
  await tabTo(page, (element) => element.href === '/app/leads' && element.text === 'Leads', 'Leads in the navigation');
  await Promise.all([page.waitForURL(`${base}/app/leads`), page.keyboard.press('Enter')]);
  await tabTo(page, (element) => element.href === `/app/leads/${leadId}`, 'the lead in the inbox');
  await Promise.all([page.waitForURL(`${base}/app/leads/${leadId}`), page.keyboard.press('Enter')]);

  // A note, typed and sent from the keyboard.
  await tabTo(page, (element) => element.tag === 'textarea', 'the note field');
  await page.keyboard.type('Called from the keyboard; wants a demo.');
  await tabTo(page, (element) => element.tag === 'button' && element.text === 'Add note', 'Add note');
  await Promise.all([page.waitForURL(/\/app\/leads\/.+\?done=/), page.keyboard.press('Enter')]);
  await page.getByText('Called from the keyboard; wants a demo.').first().waitFor();
  const lead = await harness.request('GET', `/v1/leads/${leadId}`, { token: ws.key });
  assert.equal(lead.status, 200);
  assert.ok(JSON.stringify(lead.body).includes('Called from the keyboard; wants a demo.'), 'the note is on the lead, through the API');
  await context.close();
});
