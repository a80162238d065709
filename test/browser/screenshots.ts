/**
 * Screenshots of pages for a person to look at (issue 28): written to test/output/screenshots/ (not
 * kept in git), one file per name and viewport width, the whole page.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';

const FOLDER = new URL('../output/screenshots/', import.meta.url);

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(FOLDER, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const path = new URL(`${name.replace(/[^a-z0-9-]+/gi, '-')}-${width}.png`, FOLDER).pathname;
  await page.screenshot({ path, fullPage: true });
  return path;
}
