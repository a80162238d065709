/**
 * The Leads area in a real Chromium (issue 28), on the demo's workspace so the pages look as a person
 * first sees them: an owner finds leads in the inbox with its filters, opens one, reads its journey,
 * adds a note and changes its status and tags (checked through the API). axe-core on every page at
 * 1440 and 375 px, no horizontal scrolling at 375, and screenshots for a person to look at.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { playDemoLeads } from '../../src/cli/demo-leads.ts';
import { playDemoOutcomes } from '../../src/cli/demo-outcomes.ts';
import { playDemoScheduling } from '../../src/cli/demo-scheduling.ts';
import { playDemoViewing } from '../../src/cli/demo-viewing.ts';
import { insertDemoLibrary } from '../../src/cli/insert-demo-library.ts';
import { createMediaLinks } from '../../src/media/media-links.ts';
import { startTestApp } from '../helpers/app.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { assertAccessible } from './accessibility.ts';
import { launchChromium, ordinaryContext } from './chromium.ts';
import { assertNoSideScroll, signIn } from './dashboard-pages.ts';
import { saveScreenshot } from './screenshots.ts';

const PASSWORD = 'correct horse battery staple';

test('an owner finds a lead, reads its journey, adds a note and changes its status and tags', { timeout: 600_000 }, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace('business');
  const db = harness.database.db;
  const now = new Date();
  const { links } = createMediaLinks('demo-secret-demo-secret-demo-secret-01', base);
  const { watchable } = await insertDemoLibrary(db, { workspaceId: ws.id, now, links });
  await playDemoViewing(db, watchable, now);
  await playDemoLeads(db, ws.id, watchable, now);
  await playDemoScheduling(
    db,
    ws.id,
    watchable.filter((video) => !video.archived).map((video) => video.id),
    now,
  );
  await playDemoOutcomes(db, ws.id, now);
  const owner = await ws.addMember({ role: 'owner', name: 'Olive', password: PASSWORD });
  const chromium = await launchChromium(t);

  const context = await chromium.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  await signIn(page, base, owner.email);
  await page.getByRole('navigation', { name: 'Primary' }).getByRole('link', { name: 'Leads' }).click();
  await page.getByRole('heading', { name: 'Leads', level: 1 }).waitFor();
  await assertAccessible(page, 'the leads inbox');
  await saveScreenshot(page, 'leads-inbox');

  // Filter the inbox as a person does: a status and a sort, then Apply.
  await page.getByLabel('Status').selectOption({ label: 'Customer' });
  await page.getByLabel('Sort').selectOption({ label: 'Newest' });
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL(/status=customer/);
  const customers = await harness.request('GET', '/v1/leads?status=customer&sort=newest&limit=25', { token: ws.key });
  assert.ok(customers.body.leads.length > 0, 'the demo has customers');
  const rows = page.locator('table.leads-table tbody tr');
  assert.equal(await rows.count(), customers.body.leads.length);
  assert.ok(((await rows.first().textContent()) ?? '').includes('Customer'));

  // Open the most engaged lead who watched something: its journey is a timeline across videos.
  const engaged = await harness.request('GET', '/v1/leads?sort=engagement&limit=1', { token: ws.key });
  const lead = engaged.body.leads[0];
  await page.goto(`${base}/app/leads?sort=engagement`);
  await page.locator('table.leads-table tbody tr').first().getByRole('link').first().click();
  await page.waitForURL(`${base}/app/leads/${lead.lead_id}`);
  await page.getByRole('heading', { name: 'Journey' }).waitFor();
  const journey = page.getByRole('list', { name: 'Journey, oldest first' });
  assert.ok((await journey.locator('li.step').count()) > 0, 'the journey has steps');
  assert.ok((await journey.getByText(/^Watched/).count()) > 0, 'views of videos are on it');
  await page.getByRole('img', { name: 'The lead’s journey across videos' }).waitFor();
  await assertAccessible(page, 'the lead page');
  await saveScreenshot(page, 'lead-page');

  await page.getByLabel('Note', { exact: true }).fill('Called back: wants the annual plan for 12 seats.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.getByText('Note added.').waitFor();
  await page.getByText('Called back: wants the annual plan for 12 seats.').first().waitFor();
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Qualified' });
  await page.getByLabel('Tags', { exact: true }).fill('vip, annual-plan');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Status and tags saved.').waitFor();
  const after = await harness.request('GET', `/v1/leads/${lead.lead_id}`, { token: ws.key });
  assert.equal(after.body.status, 'qualified');
  assert.deepEqual(after.body.tags, ['vip', 'annual-plan']);
  const note = after.body.history.find((e: { kind: string }) => e.kind === 'note');
  assert.deepEqual([note.note.body, note.note.author], ['Called back: wants the annual plan for 12 seats.', 'Olive']);

  // A problem comes back beside its field.
  await page.getByLabel('Note', { exact: true }).fill('   ');
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.getByText('The note must not be blank').waitFor();
  await assertAccessible(page, 'the lead page with a refused note');
  await context.close();

  // 375 px: the same pages, readable without sideways scrolling.
  const phone = await chromium.newContext({ viewport: { width: 375, height: 812 }, bypassCSP: true });
  phone.setDefaultTimeout(60_000);
  const small = await phone.newPage();
  await signIn(small, base, owner.email);
  await small.goto(`${base}/app/leads`);
  await saveScreenshot(small, 'leads-inbox');
  await assertNoSideScroll(small, 'the leads inbox');
  await assertAccessible(small, 'the leads inbox at 375 px');
  await small.goto(`${base}/app/leads/${lead.lead_id}`);
  await saveScreenshot(small, 'lead-page');
  await assertNoSideScroll(small, 'the lead page');
  await assertAccessible(small, 'the lead page at 375 px');
  await phone.close();

  // A viewer reads the same lead with no forms offered.
  const viewer = await ws.addMember({ role: 'viewer', password: PASSWORD });
  const viewerPage = await (await ordinaryContext(chromium)).newPage();
  await signIn(viewerPage, base, viewer.email);
  await viewerPage.goto(`${base}/app/leads/${lead.lead_id}`);
  await viewerPage.getByRole('heading', { name: 'Journey' }).waitFor();
  assert.equal(await viewerPage.getByRole('button', { name: 'Add note' }).count(), 0);
  assert.equal(await viewerPage.getByRole('button', { name: 'Save' }).count(), 0);
});
