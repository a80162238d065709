/**
 * Settings as a person uses them (issue 28), in a real Chromium: an owner renames the workspace,
 * invites someone and removes a member through the confirm dialog, mints a key (shown once, copied)
 * and revokes it, adds a webhook endpoint and sends it a test event, finds the invitation waiting in
 * Email and copies its link, and filters the audit log; each
 * checked through the API. axe-core on every page at 1440 and 375 px, no horizontal scrolling at 375,
 * and screenshots for a person to look at. A viewer is offered the Workspace tab only.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestApp } from '../helpers/app.ts';
import { LOOPBACK } from '../helpers/fake-transcription-server.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { assertAccessible } from './accessibility.ts';
import { launchChromium } from './chromium.ts';
import { signIn } from './dashboard-pages.ts';
import { saveScreenshot } from './screenshots.ts';

const PASSWORD = 'correct horse battery staple';

async function noSideways(page: Page, what: string): Promise<void> {
  const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  assert.ok(width <= 375, `${what} scrolls sideways at 375 px (${width} px wide)`);
}

test('an owner runs the workspace from Settings; every page is accessible at 1440 and 375 px', { timeout: 600_000 }, async (t) => {
  const received: string[] = [];
  const receiver = createServer((request, response) => {
    received.push(String(request.headers['webhook-id']));
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.after(() => receiver.close());
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cuepoint`;

  const harness = await startTestApp(t, { outbound: { allowPrivateNetworks: LOOPBACK, webhookTimeoutMs: 10_000 } });
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', name: 'Olive Owner', password: PASSWORD });
  const viewer = await ws.addMember({ role: 'viewer', name: 'Vic Viewer', password: PASSWORD });
  await ws.addMember({ role: 'member', name: 'Mo Member' });
  await ws.addVideo({ title: 'Pricing walkthrough' });
  const chromium = await launchChromium(t);
  const context = await chromium.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  context.setDefaultTimeout(60_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  await signIn(page, base, owner.email);

  // Workspace: rename, and see it saved.
  await page.getByRole('navigation', { name: 'Primary' }).getByRole('link', { name: 'Settings' }).click();
  await page.waitForURL(`${base}/app/settings`);
  await assertAccessible(page, 'the workspace settings');
  await saveScreenshot(page, 'settings-workspace');
  await page.getByLabel('Workspace name').fill('Acme Studio');
  await page.getByLabel('Time zone').selectOption('Europe/Paris');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Settings saved.').waitFor();
  const workspace = (await harness.request('GET', '/v1/workspace', { token: ws.key })).body;
  assert.deepEqual([workspace.name, workspace.settings.timezone], ['Acme Studio', 'Europe/Paris']);

  // Members: invite, then remove a member through the dialog.
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' }).click();
  await page.getByLabel('Email', { exact: true }).fill('grace@example.com');
  await page.getByLabel('Role', { exact: true }).selectOption('admin');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByText('Invitation sent.').waitFor();
  await page.getByRole('button', { name: 'Remove Mo Member' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await assertAccessible(page, 'the members page with its dialog open');
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await page.getByText('Removed. They were signed out everywhere.').waitFor();
  await assertAccessible(page, 'the members page');
  await saveScreenshot(page, 'settings-members');
  const members = (await harness.request('GET', '/v1/members', { token: ws.key })).body.members.map(
    (m: { email: string; role: string; status: string }) => `${m.email} ${m.role} ${m.status}`,
  );
  assert.deepEqual(members, [`${owner.email} owner active`, `${viewer.email} viewer active`, 'grace@example.com admin invited']);

  // API keys: mint with two scopes, copy the secret shown once, use it, revoke it.
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Name').fill('Reporting');
  await page.getByRole('checkbox', { name: /^videos:read/ }).check();
  await page.getByRole('checkbox', { name: /^analytics:read/ }).uncheck();
  await page.getByRole('checkbox', { name: /^leads:read/ }).check();
  await assertAccessible(page, 'the API keys page');
  await saveScreenshot(page, 'settings-api-keys');
  await page.getByRole('button', { name: 'Mint key' }).click();
  await page.getByRole('heading', { name: 'Your new key: Reporting' }).waitFor();
  const secret = await page.getByLabel('The secret').inputValue();
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByText('Copied to the clipboard.').waitFor();
  assert.equal(await page.evaluate('navigator.clipboard.readText()'), secret);
  await assertAccessible(page, 'the new key page');
  await saveScreenshot(page, 'settings-api-key-secret');
  assert.equal((await harness.request('GET', '/v1/leads', { token: secret })).status, 200);
  await page.getByRole('link', { name: 'Done: back to API keys' }).click();
  await page.getByRole('button', { name: 'Revoke Reporting' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await page.getByText('Key revoked.').waitFor();
  assert.equal((await harness.request('GET', '/v1/leads', { token: secret })).status, 401);

  // Webhooks: add an endpoint, keep its secret, send a test event, read the attempt in the log.
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
  await page.getByLabel('Name').fill('CRM sync');
  await page.getByLabel('URL').fill(hookUrl);
  await page.getByRole('checkbox', { name: 'All events' }).uncheck();
  await page.getByRole('checkbox', { name: 'video.ready' }).check();
  await page.getByRole('checkbox', { name: 'lead.created' }).check();
  await assertAccessible(page, 'the webhooks page');
  await saveScreenshot(page, 'settings-webhooks');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByRole('heading', { name: 'Endpoint added: CRM sync' }).waitFor();
  assert.match(await page.getByLabel('The secret').inputValue(), /^whsec_/);
  await page.getByRole('link', { name: 'Done: go to the endpoint' }).click();
  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.getByText(/Test event delivered: the endpoint answered HTTP 200/).waitFor();
  assert.equal(received.length, 1);
  await page.getByRole('cell', { name: 'HTTP 200' }).first().waitFor();
  await assertAccessible(page, 'the endpoint page');
  await saveScreenshot(page, 'settings-webhook-endpoint');
  const endpoints = (await harness.request('GET', '/v1/webhook-endpoints', { token: ws.key })).body.webhook_endpoints;
  assert.deepEqual(
    endpoints.map((e: { name: string; events: string[] }) => [e.name, e.events.sort()]),
    [['CRM sync', ['lead.created', 'video.ready']]],
  );
  const endpointPath = new URL(page.url()).pathname;

  // Audit log: filtered to one action.
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
  await page.getByLabel('Action').fill('delete_api_key');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/action=delete_api_key/);
  await page.getByRole('cell', { name: 'Olive Owner' }).first().waitFor();
  assert.equal(await page.getByRole('row').count(), 2, 'one event and the header');
  await page.goto(`${base}/app/settings/audit`);
  await assertAccessible(page, 'the audit log');
  await saveScreenshot(page, 'settings-audit');

  // Email: Grace's invitation waits as Queued (no mail server here); its link is copied to hand over.
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Email' }).click();
  await page.waitForURL(`${base}/app/settings/email`);
  const invitation = page.getByRole('listitem').filter({ hasText: 'grace@example.com' });
  await invitation.getByText('Queued', { exact: true }).waitFor();
  await invitation.getByRole('button', { name: 'Copy link' }).click();
  await page.getByText('Copied to the clipboard.').waitFor();
  assert.match(String(await page.evaluate('navigator.clipboard.readText()')), /^http:\/\/[^/]+\/invitations\/[A-Za-z0-9_-]{20,}$/);
  await invitation.getByText('Read the message').click();
  await invitation.getByText(/Olive Owner invited you to join the workspace Acme Studio as an admin/).waitFor();
  await assertAccessible(page, 'the email outbox');
  await saveScreenshot(page, 'settings-email');

  // At 375 px: every page, without sideways scrolling.
  await page.setViewportSize({ width: 375, height: 800 });
  for (const [path, name] of [
    ['/app/settings', 'settings-workspace'],
    ['/app/settings/members', 'settings-members'],
    ['/app/settings/api-keys', 'settings-api-keys'],
    ['/app/settings/webhooks', 'settings-webhooks'],
    [endpointPath, 'settings-webhook-endpoint'],
    ['/app/settings/email', 'settings-email'],
    ['/app/settings/audit', 'settings-audit'],
  ] as const) {
    await page.goto(`${base}${path}`);
    await assertAccessible(page, `${path} at 375 px`);
    await noSideways(page, path);
    await saveScreenshot(page, name);
  }
  await context.close();

  // A viewer: the Workspace tab, read only.
  const viewerContext = await chromium.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage, base, viewer.email);
  await viewerPage.goto(`${base}/app/settings`);
  await viewerPage.getByText('Only owners and admins change these settings.').waitFor();
  assert.equal(await viewerPage.getByRole('navigation', { name: 'Settings' }).getByRole('link').count(), 1);
  assert.equal(await viewerPage.getByRole('button', { name: 'Save changes' }).count(), 0);
  await assertAccessible(viewerPage, 'the workspace settings for a viewer');
  await saveScreenshot(viewerPage, 'settings-workspace-viewer');
  await viewerContext.close();
});
