/**
 * Connecting an assistant in a real Chromium (issue 29): the assistant's link leads a signed-out
 * person through sign-in to the consent page; Allow, pressed from the keyboard, lands on the
 * assistant's loopback redirect URI with a code, `state` and `iss` (the page's CSP lets a form's
 * redirect reach it, which Chromium checks); Deny lands there with `access_denied`. The redeemed code's
 * assistant shows in Settings → Connected assistants, and Disconnect stops it. axe-core on the pages
 * at 375 and 1440 px. A member signed in the same way is offered nothing beyond their role.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { MCP_RESOURCE, tokenRequest } from '../helpers/oauth.ts';
import { OWN_ORIGIN } from '../helpers/people.ts';
import { assertAccessible } from './accessibility.ts';
import { launchChromium, ordinaryContext } from './chromium.ts';
import { assertNoSideScroll } from './dashboard-pages.ts';

const PASSWORD = 'correct horse battery staple';
const VERIFIER = 'v'.repeat(43);

/** The assistant's side: a loopback server that notes every callback it is sent. */
async function callbackServer(t: import('node:test').TestContext) {
  const received: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    received.push(new URL(request.url ?? '/', 'http://127.0.0.1').searchParams);
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Connected</title><h1>Back in the assistant</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, received };
}

/** An MCP initialize sent with `token`: 200 when /mcp lets it in. */
async function mcpStatus(base: string, token: string): Promise<number> {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'desk', version: '1' } },
    }),
  });
  await response.arrayBuffer();
  return response.status;
}

test('an assistant is allowed from the keyboard, and denied, through sign-in and the consent page', { timeout: 300_000 }, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', name: 'Olive Owner', password: PASSWORD });
  const callback = await callbackServer(t);
  const registered = await harness.app.inject({
    method: 'POST',
    url: '/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ client_name: 'Desk Assistant', redirect_uris: ['http://127.0.0.1/callback'] }),
  });
  const clientId = registered.json().client_id as string;
  const authorize = (state: string) =>
    `${base}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback.url,
      scope: 'videos:read leads:read videos:write',
      state,
      code_challenge: createHash('sha256').update(VERIFIER).digest('base64url'),
      code_challenge_method: 'S256',
      resource: `${OWN_ORIGIN}/mcp`,
    })}`;
  const chromium = await launchChromium(t);

  const context = await ordinaryContext(chromium, { width: 1440, height: 900 });
  const page = await context.newPage();
  await page.goto(authorize('first'));
  await page.waitForURL(/\/sign-in\?next=%2Foauth%2Fauthorize%3F/);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Connect Desk Assistant to Cuepoint?' }).waitFor();
  assert.equal(await page.getByRole('checkbox', { name: /Read videos and their status/ }).isChecked(), true);
  assert.equal(await page.getByRole('checkbox', { name: /Upload, edit and archive videos/ }).isChecked(), false, 'writing is not ticked');
  await page.getByRole('button', { name: 'Allow' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Back in the assistant' }).waitFor();
  const allowed = callback.received.at(-1) as URLSearchParams;
  assert.match(allowed.get('code') ?? '', /^[A-Za-z0-9_-]{43}$/);
  assert.equal(allowed.get('state'), 'first');
  assert.equal(allowed.get('iss'), OWN_ORIGIN);

  await page.goto(authorize('second'));
  await page.getByRole('button', { name: 'Deny' }).click();
  await page.getByRole('heading', { name: 'Back in the assistant' }).waitFor();
  const denied = callback.received.at(-1) as URLSearchParams;
  assert.equal(denied.get('error'), 'access_denied');
  assert.equal(denied.get('state'), 'second');
  assert.equal(denied.get('code'), null);

  // The assistant redeems its code; the owner finds it in Settings and disconnects it.
  const redeemed = await tokenRequest(harness, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code: allowed.get('code') as string,
    redirect_uri: callback.url,
    code_verifier: VERIFIER,
    resource: MCP_RESOURCE,
  });
  assert.equal(redeemed.statusCode, 200, redeemed.body);
  const accessToken = redeemed.json().access_token as string;
  assert.equal(await mcpStatus(base, accessToken), 200);
  await page.goto(`${base}/app/settings`);
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Connected assistants' }).click();
  await page.getByRole('cell', { name: 'Olive Owner' }).waitFor();
  assert.equal(await page.getByLabel('MCP server address').inputValue(), `${OWN_ORIGIN}/mcp`);
  await page.getByRole('button', { name: 'Disconnect Desk Assistant' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Disconnect' }).click();
  await page.getByText('Assistant disconnected.').waitFor();
  assert.equal(await mcpStatus(base, accessToken), 401, 'a disconnected assistant is refused');
  const cookies = await context.cookies();
  await context.close();

  // A member is offered no more than their role holds: no managing members, keys and webhooks.
  const member = await ws.addMember({ role: 'member', name: 'Mo Member', password: PASSWORD });
  const memberContext = await ordinaryContext(chromium, { width: 1440, height: 900 });
  const memberPage = await memberContext.newPage();
  await memberPage.goto(authorize('member'));
  await memberPage.getByLabel('Email').fill(member.email);
  await memberPage.getByLabel('Password').fill(PASSWORD);
  await memberPage.getByRole('button', { name: 'Sign in' }).click();
  await memberPage.getByRole('heading', { name: 'Connect Desk Assistant to Cuepoint?' }).waitFor();
  assert.equal(await memberPage.getByRole('checkbox', { name: /Upload, edit and archive videos/ }).count(), 1);
  assert.equal(
    await memberPage.getByRole('checkbox', { name: /Manage members, keys and webhooks/ }).count(),
    0,
    'beyond the role: not offered',
  );
  await memberContext.close();

  for (const width of [375, 1440]) {
    const checked = await chromium.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    await checked.addCookies(cookies);
    const consent = await checked.newPage();
    await consent.goto(authorize('third'));
    await consent.getByRole('button', { name: 'Allow' }).waitFor();
    await assertAccessible(consent, `the consent page at ${width} px`);
    await consent.goto(`${base}/app/settings/assistants`);
    await assertAccessible(consent, `Connected assistants at ${width} px`);
    if (width === 375) await assertNoSideScroll(consent, 'Connected assistants');
    await checked.close();
  }
});
