/**
 * Debian's Chromium (/usr/bin/chromium) driven by playwright-core, closed when the test ends. The
 * browser tests never skip: without Chromium they fail and say how to install it (CI installs it).
 */
import { existsSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

// The machine's network is closed: without the background-networking flags Chromium keeps trying
// Google's hosts. Autoplay is allowed so a test can call play() without a click.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

export async function launchChromium(t: TestContext): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}; the browser tests need it: install Debian's chromium: apt-get install chromium`);
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
  t.after(() => browser.close());
  return browser;
}

/**
 * A fresh context that looks like an ordinary desktop Chrome: headless Chromium says
 * "HeadlessChrome" in its User-Agent, which bot filters rightly drop.
 */
export async function ordinaryContext(
  browser: Browser,
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<BrowserContext> {
  const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`;
  const context = await browser.newContext({ userAgent, locale: 'en-US', viewport });
  // Generous: on a busy machine a page load can take seconds; a real failure still ends the test.
  context.setDefaultTimeout(60_000);
  return context;
}
