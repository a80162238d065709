/**
 * Debian's Chromium headless shell (/usr/bin/chromium-headless-shell, package chromium-headless-shell)
 * driven by playwright-core, as Playwright itself drives Chromium headless. The browser tests never
 * skip: without it they fail and say how to install it (CI installs it).
 *
 * The shell and not the whole browser: the same engine without the browser's user interface, which
 * headless Chromium still builds and draws. Three dashboard test files, one worker, every process's
 * CPU counted: 131.7 and 133.2 CPU s with /usr/bin/chromium, 96.7 and 97.8 with the shell (runs
 * alternated, load 1.9 to 3.4).
 *
 * One Chromium per test process: a runner worker runs many browser files one after another, and
 * starting Chromium for each cost about 0.5 s and 0.6 CPU s, some forty times a run. Each test still
 * gets a browser of its own as far as it can tell: the contexts and pages it opened are closed when it
 * ends (a context shares no cookies, storage or cache with another), and a Chromium that died is
 * started again for the next test.
 */
import { existsSync } from 'node:fs';
import { after, type TestContext } from 'node:test';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium-headless-shell';

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

let shared: Promise<Browser> | undefined;

after(async () => {
  const browser = await shared?.catch(() => undefined);
  shared = undefined;
  await browser?.close();
});

async function sharedChromium(): Promise<Browser> {
  const running = await shared?.catch(() => undefined);
  if (running?.isConnected()) return running;
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}; the browser tests need it: install Debian's headless shell: apt-get install chromium-headless-shell`,
    );
  }
  shared = chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
  return shared;
}

/** The process's Chromium, as this test's: whatever contexts and pages the test opens through it are closed when it ends. */
export async function launchChromium(t: TestContext): Promise<Browser> {
  const browser = await sharedChromium();
  const opened: BrowserContext[] = [];
  t.after(async () => {
    for (const context of opened) await context.close().catch(() => undefined);
  });
  return new Proxy(browser, {
    get(target, property) {
      if (property === 'newContext') {
        return async (...args: Parameters<Browser['newContext']>) => {
          const context = await target.newContext(...args);
          opened.push(context);
          return context;
        };
      }
      if (property === 'newPage') {
        return async (...args: Parameters<Browser['newPage']>) => {
          const page = await target.newPage(...args);
          opened.push(page.context());
          return page;
        };
      }
      // Closing is the process's business (above), not one test's.
      if (property === 'close') return async () => undefined;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
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
