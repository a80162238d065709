/**
 * The library in a real Chromium (issue 28), as a member uses it: find videos with the filters, upload
 * a file and watch the page follow it until ready, edit its details and lead form (a refused title
 * shown beside its field), archive it, manage folders through their dialog, import from a link. Each
 * write is checked through the API. A viewer sees the library without its controls. axe-core on
 * every page at 1440 and 375 px, no sideways scrolling at 375, and screenshots for a person to look at.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp } from '../helpers/app.ts';
import { testFfmpegPath } from '../helpers/ffmpeg.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { withProcessingWorker } from '../helpers/uploads.ts';
import { assertAccessible } from './accessibility.ts';
import { launchChromium } from './chromium.ts';
import { saveScreenshot } from './screenshots.ts';

const PASSWORD = 'correct horse battery staple';
const CLIP = join(import.meta.dirname, '..', 'fixtures', 'clip.mp4');

test('a member uploads, follows, edits and archives a video and manages folders; a viewer only reads', { timeout: 300_000 }, async (t) => {
  const chromium = await launchChromium(t);
  const harness = await startTestApp(t, { isolated: true });
  withProcessingWorker(t, harness, testFfmpegPath);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  const member = await ws.addMember({ role: 'member', name: 'Mia Chen', password: PASSWORD });
  const viewer = await ws.addMember({ role: 'viewer', name: 'Vic', password: PASSWORD });
  const sales = await ws.addFolder('Sales demos');
  await ws.addFolder('Onboarding');
  await ws.addVideo({ title: 'Pricing walkthrough for teams', folder_id: sales, tags: ['pricing'], view_count: 1284 } as never);
  await ws.addVideo({ title: 'Customer story: Northwind', duration_seconds: 412, view_count: 377 } as never);
  await ws.addVideo({ title: 'Quarterly launch recap', status: 'failed', duration_seconds: null, failure_reason: 'Not a video.' } as never);
  const api = (path: string) => harness.request('GET', path, { token: ws.key });

  const page = await signedIn(chromium, base, member.email, 1440);

  // The library, filtered.
  await page.goto(`${base}/app/videos`);
  await page.getByRole('heading', { name: 'Videos', level: 1 }).waitFor();
  await assertAccessible(page, 'the library');
  await page.getByLabel('Search videos').fill('pricing');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByText('1 video match these filters').waitFor();
  assert.equal(await page.getByRole('link', { name: 'Customer story: Northwind' }).count(), 0);
  await page.getByRole('link', { name: 'Clear' }).click();
  await page
    .getByRole('navigation', { name: 'Folders' })
    .getByRole('link', { name: /Sales demos/ })
    .click();
  await page.getByRole('link', { name: 'Pricing walkthrough for teams' }).waitFor();
  assert.equal(await page.getByRole('link', { name: 'Customer story: Northwind' }).count(), 0);

  // Upload a file and watch it become ready.
  await page.getByRole('link', { name: 'New video' }).click();
  await page.getByRole('heading', { name: 'Upload a file' }).waitFor();
  await assertAccessible(page, 'the new video page');
  await saveScreenshot(page, 'videos-new');
  const upload = page.getByRole('region', { name: 'Upload a file' });
  await upload.getByLabel('Video file').setInputFiles(CLIP);
  await upload.getByLabel('Title').fill('Product tour 2026');
  await upload.getByLabel('Tags').fill('tour, launch');
  // The first transfer is cut off; "Retry upload" sends the file again to the same URL.
  let transfers = 0;
  await page.route('**/uploads/**', (route) => (transfers++ === 0 ? route.abort('connectionreset') : route.continue()));
  await upload.getByRole('button', { name: 'Upload' }).click();
  await page.getByText('The upload stopped (the connection was lost).', { exact: false }).waitFor();
  await assertAccessible(page, 'the new video page after a failed transfer');
  await page.getByRole('button', { name: 'Retry upload' }).click();
  await page.getByText('Ready: “Product tour 2026” can be shared.').waitFor({ timeout: 120_000 });
  assert.equal(transfers, 2);
  assert.equal((await api('/v1/videos?search=Product%20tour')).body.pagination.total, 1, 'a retry makes no second video');
  assert.equal(await page.locator('#upload-bar').getAttribute('value'), '100');
  await assertAccessible(page, 'the new video page after an upload');
  await saveScreenshot(page, 'videos-uploaded');
  const listed = (await api('/v1/videos?search=Product%20tour')).body.videos[0];
  assert.deepEqual([listed.title, listed.status, listed.tags], ['Product tour 2026', 'ready', ['tour', 'launch']]);
  const videoId = listed.video_id as string;
  await page.goto(`${base}/app/videos`);
  await page.getByRole('link', { name: 'Product tour 2026' }).waitFor();
  await saveScreenshot(page, 'videos-library');

  // Edit it: a refused title comes back beside its field, then the details and the lead form are saved.
  await page.goto(`${base}/app/videos/${videoId}/edit`);
  await page.getByLabel('Title', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Must not be empty.').waitFor();
  assert.equal(await page.getByLabel('Title', { exact: true }).getAttribute('aria-invalid'), 'true');
  await assertAccessible(page, 'the edit page with a problem');
  await saveScreenshot(page, 'videos-edit-problem');
  await page.getByLabel('Title', { exact: true }).fill('Product tour (2026)');
  await page.getByLabel('Description').fill('Five minutes through the whole product.');
  await page.getByLabel('Folder').selectOption({ label: 'Onboarding' });
  await page.getByLabel('Show the form').selectOption({ label: 'Before playback (an email gate)' });
  await page.getByLabel('Viewers may skip it (before playback only)').check();
  await page.getByLabel('First name').check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Your changes are saved.').waitFor();
  await assertAccessible(page, 'the edit page');
  await saveScreenshot(page, 'videos-edit');
  const edited = (await api(`/v1/videos/${videoId}`)).body;
  assert.deepEqual(
    [
      edited.title,
      edited.description,
      edited.folder_name,
      edited.lead_form?.placement,
      edited.lead_form?.skippable,
      edited.lead_form?.fields,
    ],
    ['Product tour (2026)', 'Five minutes through the whole product.', 'Onboarding', 'before', true, ['first_name']],
  );

  // Archive it.
  await page.getByRole('button', { name: 'Archive video' }).click();
  await page.waitForURL(`${base}/app/videos?done=archived`);
  await page.getByText('The video is archived').waitFor();
  assert.equal((await api(`/v1/videos/${videoId}`)).body.archived, true);
  assert.equal(await page.getByRole('link', { name: 'Product tour (2026)' }).count(), 0, 'archived videos leave the library');
  await page.getByLabel('Archived').selectOption({ label: 'Archived only' });
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('link', { name: 'Product tour (2026)' }).click();
  await page.goto(`${base}/app/videos/${videoId}/edit`);
  await page.getByRole('button', { name: 'Unarchive video' }).click();
  await page.getByText('The video is back in the library').waitFor();
  assert.equal((await api(`/v1/videos/${videoId}`)).body.archived, false);

  // Folders: create, rename, delete through the dialog.
  await page.goto(`${base}/app/videos`);
  await page.getByRole('link', { name: 'Manage folders' }).click();
  await page.getByLabel('Folder name').fill('Webinars');
  await page.getByRole('button', { name: 'Create folder' }).click();
  await page.getByText('The folder is created.').waitFor();
  await page.getByLabel('New name for Webinars').fill('Live webinars');
  await page.getByRole('button', { name: 'Rename' }).last().click();
  await page.getByText('The folder is renamed.').waitFor();
  await assertAccessible(page, 'the folders page');
  await saveScreenshot(page, 'videos-folders');
  await page.getByRole('button', { name: 'Delete folder Live webinars' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await assertAccessible(page, 'the folders page with its dialog open');
  await dialog.getByRole('button', { name: 'Delete folder' }).click();
  await page.getByText('The folder is deleted.').waitFor();
  const folders = (await api('/v1/folders')).body.folders.map((f: { name: string }) => f.name);
  assert.deepEqual(folders, ['Onboarding', 'Sales demos']);

  // Import from a link: the processing page follows it.
  await page.goto(`${base}/app/videos/new#import`);
  const importing = page.getByRole('region', { name: 'Import from a link' });
  await importing.getByLabel('Link to the video file').fill('https://media.example.com/webinars/q3-launch.mp4');
  await importing.getByLabel('Title').fill('Q3 launch webinar');
  await importing.getByRole('button', { name: 'Import' }).click();
  await page.getByText('The link is accepted').waitFor();
  await assertAccessible(page, 'the processing page');
  await saveScreenshot(page, 'videos-processing');
  const imported = (await api('/v1/videos?search=Q3%20launch')).body.videos[0];
  assert.equal(imported.title, 'Q3 launch webinar');

  // 375 px: every page fits, and passes axe.
  const phone = await signedIn(chromium, base, member.email, 375);
  for (const [path, name] of [
    ['/app/videos', 'videos-library'],
    ['/app/videos/new', 'videos-new'],
    [`/app/videos/${videoId}/edit`, 'videos-edit'],
    ['/app/videos/folders', 'videos-folders'],
    [`/app/videos/${imported.video_id}/processing`, 'videos-processing'],
  ] as const) {
    await phone.goto(`${base}${path}`);
    await assertAccessible(phone, `${path} at 375 px`);
    const width = (await phone.evaluate('document.documentElement.scrollWidth')) as number;
    assert.ok(width <= 375, `${path} scrolls sideways at 375 px (${width})`);
    await saveScreenshot(phone, name);
  }

  // A viewer reads the library and is offered none of its controls.
  const reader = await signedIn(chromium, base, viewer.email, 1440);
  await reader.goto(`${base}/app/videos`);
  await reader.getByRole('link', { name: 'Pricing walkthrough for teams' }).waitFor();
  assert.equal(await reader.getByRole('link', { name: 'New video' }).count(), 0);
  assert.equal(await reader.getByRole('link', { name: 'Manage folders' }).count(), 0);
  await assertAccessible(reader, 'the library for a viewer');
});

async function signedIn(chromium: Browser, base: string, email: string, width: number): Promise<Page> {
  // bypassCSP: axe needs eval, which the pages' policy forbids (see accessibility.ts).
  const context = await chromium.newContext({ viewport: { width, height: 900 }, bypassCSP: true, locale: 'en-US' });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/app`);
  return page;
}
