/**
 * The people pages in a real Chromium (issue 27): the first owner's link makes the account and lands
 * on the dashboard, a password sign-in and sign-out with the keyboard alone, the lockout's message, and
 * an invited member who sees only what the role allows. axe-core on every page at 375 and 1440 px.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inviteOwner } from '../../src/domains/people/index.ts';
import { invitationUrl } from '../../src/media/media-links.ts';
import { startTestApp } from '../helpers/app.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { assertAccessible } from './accessibility.ts';
import { launchChromium, ordinaryContext } from './chromium.ts';

const PASSWORD = 'correct horse battery staple';

test('the first owner signs up from the link, signs out, and signs in again with the keyboard alone', { timeout: 300_000 }, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  await ws.addVideo({ title: 'Welcome to Acme' });
  const { url } = await harness.database.db.transaction().execute((trx) =>
    inviteOwner(trx, {
      workspaceId: ws.id,
      workspaceName: 'Acme',
      email: null,
      invitationUrl: (s) => invitationUrl(base, s),
      now: new Date(),
    }),
  );
  const chromium = await launchChromium(t);
  const email = `owner-${ws.id.slice(0, 8)}@example.com`;

  for (const width of [375, 1440]) {
    const context = await chromium.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(width === 375 ? url : `${base}/sign-in`);
    await assertAccessible(page, `${width === 375 ? 'the owner link' : 'sign-in'} at ${width} px`);
    await context.close();
  }

  const context = await ordinaryContext(chromium, { width: 1440, height: 900 });
  const page = await context.newPage();
  await page.goto(url);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Name').fill('Olive Owner');
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await page.getByText('Must be at least 10 characters long.').waitFor();
  assert.equal(await page.getByLabel('Password').getAttribute('aria-invalid'), 'true');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await page.waitForURL(`${base}/app`);
  await page.getByRole('heading', { name: 'Welcome, Olive Owner' }).waitFor();
  await page.getByRole('link', { name: 'Welcome to Acme' }).waitFor();
  const cookies = await context.cookies();
  const session = cookies.find((cookie) => cookie.name === 'cuepoint_session');
  assert.ok(session?.httpOnly, 'the session cookie is HttpOnly');
  assert.equal(session?.sameSite, 'Lax');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${base}/sign-in?signed_out=1`);
  await page.getByText('You are signed out.').waitFor();
  await page.goto(`${base}/app`);
  await page.waitForURL(/\/sign-in\?next=\/app$/);

  // The keyboard alone: focus starts on the page, Tab reaches each field and the button in order.
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${base}/app`);
  await page.getByRole('heading', { name: 'Welcome, Olive Owner' }).waitFor();
  await context.close();
});

test('after five wrong passwords the page says how long to wait; an invited viewer sees the dashboard as a viewer', {
  timeout: 300_000,
}, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  const member = await ws.addMember({ role: 'viewer', name: 'Vic Viewer', password: PASSWORD });
  const chromium = await launchChromium(t);
  const context = await ordinaryContext(chromium, { width: 375, height: 800 });
  const page = await context.newPage();
  await page.goto(`${base}/sign-in`);
  for (let i = 0; i < 5; i++) {
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(`wrong password ${i}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('That email and password do not match.').waitFor();
  }
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').getByText('Too many failed sign-ins. For your safety, try again in 15 minutes.').waitFor();
  await context.close();

  // Another member, invited as a viewer through the API.
  const invited = await harness.request('POST', '/v1/members', { token: ws.key, body: { email: 'vera@example.com', role: 'viewer' } });
  assert.equal(invited.status, 201);
  const message = await harness.database.db
    .selectFrom('email_outbox')
    .select('link')
    .where('to_address', '=', 'vera@example.com')
    .executeTakeFirstOrThrow();
  const link = `${base}${new URL(message.link as string).pathname}`;
  const vera = await (await ordinaryContext(chromium, { width: 375, height: 800 })).newPage();
  await vera.goto(link);
  await vera.getByLabel('Name').fill('Vera');
  await vera.getByLabel('Password').fill(PASSWORD);
  await vera.getByRole('button', { name: 'Accept invitation' }).click();
  await vera.waitForURL(`${base}/app`);
  await vera.getByText('Vera · viewer').waitFor();
});
