/**
 * Deleting a video and erasing a lead as a person does it (issue 27, DESIGN §10): from their pages in
 * a real Chromium, through the dialog the "Delete video" and "Delete lead" buttons open, confirmed with
 * "Delete". Afterwards the API, search and the media URLs know nothing of them. A viewer is offered
 * neither button. axe-core on both pages, with the dialog open too.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { assertAccessible } from './accessibility.ts';
import { launchChromium, ordinaryContext } from './chromium.ts';

const PASSWORD = 'correct horse battery staple';

test('an owner deletes a video and erases a lead through the confirm dialog; a viewer is offered neither', {
  timeout: 300_000,
}, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', name: 'Olive', password: PASSWORD });
  const viewer = await ws.addMember({ role: 'viewer', name: 'Vic', password: PASSWORD });
  const videoId = await ws.addVideo({ title: 'Quarterly pricing walkthrough' });
  const leadId = await ws.addLead({ email: 'erase.me@example.com', first_name: 'Erin' });
  const chromium = await launchChromium(t);

  // The viewer sees both pages, without the controls.
  const viewerPage = await (await ordinaryContext(chromium)).newPage();
  await signIn(viewerPage, base, viewer.email);
  await viewerPage.goto(`${base}/app/videos/${videoId}`);
  await viewerPage.getByRole('heading', { name: 'Quarterly pricing walkthrough' }).waitFor();
  assert.equal(await viewerPage.getByRole('button', { name: 'Delete video' }).count(), 0);
  await viewerPage.goto(`${base}/app/leads/${leadId}`);
  assert.equal(await viewerPage.getByRole('button', { name: 'Delete lead' }).count(), 0);
  assert.equal(await viewerPage.getByRole('button', { name: 'Reveal' }).count(), 0);

  const context = await chromium.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  await signIn(page, base, owner.email);
  await page.goto(`${base}/app/videos/${videoId}`);
  await assertAccessible(page, 'the video page');
  await page.getByRole('button', { name: 'Delete video' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await assertAccessible(page, 'the video page with its dialog open');
  // Cancel leaves it, and deletes nothing.
  await dialog.getByRole('link', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: 'Delete video' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await page.waitForURL(`${base}/app?deleted=video`);
  await page.getByText('The video is deleted.').waitFor();
  assert.equal((await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).status, 404);
  assert.equal((await harness.request('GET', `/media/${videoId}`)).status, 404);
  const search = await harness.request('GET', '/v1/search?q=Quarterly', { token: ws.key });
  assert.ok(!search.raw.includes(videoId), search.raw);

  await page.goto(`${base}/app/leads/${leadId}`);
  await assertAccessible(page, 'the lead page');
  await page.getByText('e***@e***.com').waitFor();
  await page.getByRole('button', { name: 'Reveal' }).click();
  await page.getByText('erase.me@example.com').waitFor();
  await page.getByRole('button', { name: 'Delete lead' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await page.waitForURL(`${base}/app?deleted=lead`);
  assert.equal((await harness.request('GET', `/v1/leads/${leadId}`, { token: ws.key })).status, 404);
  const leads = await harness.database.db.selectFrom('leads').select('id').where('email', '=', 'erase.me@example.com').execute();
  assert.deepEqual(leads, []);
  const audit = await harness.request('GET', `/v1/audit-events?object_id=${leadId}`, { token: ws.key });
  const actions = audit.body.audit_events.map((e: { action: string; actor: { name: string } }) => `${e.action} by ${e.actor.name}`);
  assert.ok(actions.includes('reveal_lead by Olive') && actions.includes('erase_lead by Olive'), actions.join());
  assert.ok(!audit.raw.includes('erase.me'), 'the audit log holds no trace of the address');
  await context.close();
});

test('a link to ?confirm=1 lands on the question, the dialog open', { timeout: 120_000 }, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const videoId = await ws.addVideo({ title: 'Fallback' });
  const chromium = await launchChromium(t);
  const page = await (await ordinaryContext(chromium)).newPage();
  await signIn(page, base, owner.email);
  await page.goto(`${base}/app/videos/${videoId}?confirm=1`);
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await page.waitForURL(`${base}/app?deleted=video`);
});

async function signIn(page: import('playwright-core').Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/app`);
}
