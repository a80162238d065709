/**
 * `npm run screenshots`: the pictures of docs/dashboard.md, taken from the demo as a new user meets
 * it. Seeds the demo into a fresh data dir (`cuepoint seed --demo`), starts the service on it, makes
 * and signs in the owner, and photographs every area of the dashboard in Debian's Chromium at 1440 px
 * (and the home page at 375 px), writing docs/screenshots/dashboard-<name>.jpg. Run it after changing
 * how a page looks, and commit the pictures with the change. DASHBOARD_SHOTS (below) is the list;
 * test/dashboard-screenshots.test.ts checks that it covers the navigation and that the docs show each.
 *
 * Usage: npm run screenshots [-- name …]   (only those pictures)
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { seedDemo, signInDemoOwner } from '../../bench/demo-owner.ts';
import { startService } from '../../bench/service-process.ts';
import { CHROMIUM_PATH } from './chromium.ts';

export interface DashboardShot {
  name: string;
  /** The page, or how to find it from the demo's first video, lead and route. */
  path: string | ((ids: DemoIds) => string);
  width: 1440 | 375;
}

interface DemoIds {
  video: string;
  lead: string;
  route: string;
}

export const DASHBOARD_SHOTS: readonly DashboardShot[] = [
  { name: 'home', path: '/app', width: 1440 },
  { name: 'home-phone', path: '/app', width: 375 },
  { name: 'videos', path: '/app/videos', width: 1440 },
  { name: 'video-page', path: (ids) => `/app/videos/${ids.video}`, width: 1440 },
  { name: 'leads', path: '/app/leads', width: 1440 },
  { name: 'lead-page', path: (ids) => `/app/leads/${ids.lead}`, width: 1440 },
  { name: 'revenue', path: '/app/revenue', width: 1440 },
  { name: 'routes', path: '/app/routes', width: 1440 },
  { name: 'route-page', path: (ids) => `/app/routes/${ids.route}`, width: 1440 },
  { name: 'scheduling', path: '/app/scheduling', width: 1440 },
  { name: 'channel', path: '/app/channel', width: 1440 },
  { name: 'settings', path: '/app/settings', width: 1440 },
  { name: 'search', path: '/app/search?q=pricing', width: 1440 },
];

export const SCREENSHOT_FOLDER = resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');

async function main(only: string[]): Promise<void> {
  const shots = only.length ? DASHBOARD_SHOTS.filter((shot) => only.includes(shot.name)) : DASHBOARD_SHOTS;
  if (shots.length === 0) throw new Error(`no such picture; the names: ${DASHBOARD_SHOTS.map((shot) => shot.name).join(', ')}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'cuepoint-screenshots-'));
  try {
    console.log('Seeding the demo (about half a minute)…');
    const seeded = seedDemo(dataDir);
    const service = await startService({
      args: [],
      env: {},
      dataDir,
      workspace: { workspaceId: seeded.workspaceId, apiKey: seeded.apiKey },
    });
    try {
      const cookie = await signInDemoOwner(service, seeded.ownerLink);
      const first = async (list: string, field: string, query = '') => {
        const response = await fetch(`${service.url}/v1/${list}?limit=1${query}`, {
          headers: { authorization: `Bearer ${service.apiKey}` },
        });
        const body = (await response.json()) as Record<string, Record<string, string>[]>;
        const id = body[list]?.[0]?.[field];
        if (!id) throw new Error(`the demo has no ${list}`);
        return id;
      };
      // The most viewed video, the newest lead and the first route: the pages with the most to show.
      const ids: DemoIds = {
        video: await first('videos', 'video_id', '&sort=most_viewed&status=ready'),
        lead: await first('leads', 'lead_id'),
        route: await first('routes', 'route_id'),
      };
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
      try {
        mkdirSync(SCREENSHOT_FOLDER, { recursive: true });
        const [name, value] = cookie.split('=') as [string, string];
        for (const shot of shots) {
          const context = await browser.newContext({
            viewport: { width: shot.width, height: shot.width === 375 ? 812 : 1000 },
            deviceScaleFactor: 1,
            colorScheme: 'light',
          });
          await context.addCookies([{ name, value, url: service.url }]);
          const page = await context.newPage();
          const path = typeof shot.path === 'string' ? shot.path : shot.path(ids);
          const response = await page.goto(`${service.url}${path}`, { waitUntil: 'networkidle' });
          if (response?.status() !== 200) throw new Error(`${path} answered ${response?.status()}`);
          const file = join(SCREENSHOT_FOLDER, `dashboard-${shot.name}.jpg`);
          // The first screenful, as a person sees it on arriving; JPEG keeps the repository light.
          await page.screenshot({ path: file, type: 'jpeg', quality: 80 });
          console.log(`${file} (${path}, ${shot.width} px)`);
          await context.close();
        }
      } finally {
        await browser.close();
      }
    } finally {
      await service.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) await main(process.argv.slice(2));
