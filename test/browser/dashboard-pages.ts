/**
 * What the dashboard's Chromium tests do on every page: sign a person in through the form, and check
 * that a page does not scroll sideways on a phone (saying which elements stick out when it does).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** Signs in at /sign-in with the form, as a person does, and waits for the dashboard. */
export async function signIn(page: Page, base: string, email: string, password = 'correct horse battery staple'): Promise<void> {
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/app`);
}

export async function assertNoSideScroll(page: Page, what: string): Promise<void> {
  // A string, run in the page: the tests are compiled without the DOM's types.
  const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  // Which elements stick out, to say where to look when it fails.
  const wide = (await page.evaluate(
    `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 376 && !e.closest('.table-scroll')).slice(0, 5).map((e) => e.tagName.toLowerCase() + '.' + e.className)`,
  )) as string[];
  assert.ok(width <= 375, `${what} scrolls sideways at 375 px (${width} px wide): ${wide.join(', ')}`);
}
