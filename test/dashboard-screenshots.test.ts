/**
 * The dashboard's pictures in docs/dashboard.md are made by `npm run screenshots`
 * (test/browser/docs-screenshots.ts), not by hand: its list covers home, every area of the primary
 * navigation and search, each picture it makes is in docs/screenshots/, and the docs show each one.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { NAVIGATION } from '../src/transports/public/dashboard/frame/navigation.ts';
import { DASHBOARD_SHOTS, SCREENSHOT_FOLDER } from './browser/docs-screenshots.ts';

test('npm run screenshots photographs every area, and docs/dashboard.md shows every picture it makes', () => {
  const plainPaths = DASHBOARD_SHOTS.map((shot) => (typeof shot.path === 'string' ? shot.path.split('?')[0] : undefined));
  for (const path of ['/app', '/app/search', ...NAVIGATION.map((item) => item.href)]) {
    assert.ok(plainPaths.includes(path), `no picture of ${path}`);
  }
  const docs = readFileSync(join(import.meta.dirname, '..', 'docs', 'dashboard.md'), 'utf8');
  const files = new Set(readdirSync(SCREENSHOT_FOLDER));
  for (const shot of DASHBOARD_SHOTS) {
    const file = `dashboard-${shot.name}.jpg`;
    assert.ok(files.has(file) && existsSync(join(SCREENSHOT_FOLDER, file)), `docs/screenshots/${file} is missing: run npm run screenshots`);
    assert.ok(docs.includes(`(screenshots/${file})`), `docs/dashboard.md does not show screenshots/${file}`);
  }
  // No picture left over from a page that is no longer photographed.
  for (const file of files)
    assert.ok(
      DASHBOARD_SHOTS.some((shot) => `dashboard-${shot.name}.jpg` === file),
      `${file} is not made by the script`,
    );
});
