/**
 * Passkeys and the second factor in a real Chromium (issue 27), with Chromium's virtual authenticator
 * (CDP WebAuthn domain: CTAP2, internal transport, resident keys, user verification): two passkeys
 * registered from the account page (one device each, as a person adds their laptop and their phone),
 * one renamed and removed with the keyboard, then signed out and signed in with the other: from the
 * Email field's passkey suggestions, and from the sign-in page's button, reached with Tab. Then the two-factor pages through set-up, the code step of
 * a password sign-in, and turning it off. axe-core on every page at 375 and 1440 px, and screenshots
 * of each in results/browser/.
 *
 * WebAuthn binds a passkey to the page's host, which must be PUBLIC_URL's: the app is started with
 * PUBLIC_URL http://localhost:<port> and listens on that port.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { startTestApp } from '../helpers/app.ts';
import { assertAccessible } from './accessibility.ts';
import { launchChromium, ordinaryContext } from './chromium.ts';

const PASSWORD = 'correct horse battery staple';
const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'results', 'browser');

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An app whose PUBLIC_URL is the address the browser uses (localhost, a port of its own). */
async function appAtLocalhost(t: Parameters<typeof startTestApp>[0]) {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const harness = await startTestApp(t, { publicUrl: base });
  await harness.app.listen({ host: '127.0.0.1', port });
  return { harness, base };
}

async function virtualAuthenticator(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

async function signInWithPassword(page: Page, base: string, email: string) {
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const codeAt = (secret: string, at: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });

test('two passkeys added from the account page, one renamed and removed by keyboard, the other signs in from /sign-in', {
  timeout: 300_000,
}, async (t) => {
  const { harness, base } = await appAtLocalhost(t);
  const ws = await harness.workspace();
  const member = await ws.addMember({ role: 'admin', name: 'Ada Lovelace', password: PASSWORD });
  const chromium = await launchChromium(t);
  const context = await ordinaryContext(chromium, { width: 1440, height: 900 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const laptop = await virtualAuthenticator(cdp);

  await signInWithPassword(page, base, member.email);
  await page.waitForURL(`${base}/app`);
  await page.goto(`${base}/app/account/passkeys`);
  await page.getByText('You have no passkeys yet.').waitFor();
  // The script shows the form once it finds the browser can make passkeys.
  await page.getByLabel(/^Name Optional/).fill('Work laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.waitForURL(/\/app\/account\/passkeys\?added=/);
  await page.getByRole('status').getByText('Passkey “Work laptop” added.').waitFor();

  // The phone: another authenticator (one device holds one passkey of an account: the first is excluded).
  await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: laptop });
  const phone = await virtualAuthenticator(cdp);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByRole('status').getByText('Passkey “Passkey 2” added.').waitFor();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId: phone });
  assert.equal(credentials.length, 1);
  assert.ok(credentials[0]?.isResidentCredential, 'a discoverable credential');
  const rows = await harness.database.db
    .selectFrom('passkeys')
    .select(['name', 'credential_id'])
    .where('user_id', '=', member.userId)
    .orderBy('created_at')
    .execute();
  assert.deepEqual(
    rows.map((row) => row.name),
    ['Work laptop', 'Passkey 2'],
  );
  assert.equal(rows[1]?.credential_id, Buffer.from(credentials[0]?.credentialId as string, 'base64').toString('base64url'));

  // Rename the laptop's passkey with the keyboard: its Rename link, then the name field it opens.
  await page.getByRole('link', { name: 'Rename Work laptop' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\?rename=/);
  assert.equal(await page.evaluate('document.activeElement.name'), 'name', 'the name field has the focus');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Old laptop');
  await page.keyboard.press('Enter');
  await page.getByRole('status').getByText('Passkey renamed.').waitFor();
  // Remove it: Tab from its Rename link to its Remove button, and Enter.
  await page.getByRole('link', { name: 'Rename Old laptop' }).focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate('document.activeElement.textContent'), 'Remove Old laptop');
  await page.keyboard.press('Enter');
  await page.getByRole('status').getByText('Passkey removed. It can no longer sign you in.').waitFor();
  assert.equal(await page.locator('ul.keys > li').count(), 1);
  await page.locator('.key-name', { hasText: 'Passkey 2' }).waitFor();

  // Signed out, /sign-in offers the passkey among the Email field's suggestions (conditional mediation),
  // which the virtual authenticator answers at once, as a person picking it would: straight back in.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${base}/app`);
  await page.getByRole('heading', { name: 'Welcome, Ada Lovelace' }).waitFor();

  // In a browser without passkey suggestions, the button: reached with Tab after the email, password
  // and Sign in, pressed with Enter.
  await context.addInitScript({ content: 'PublicKeyCredential.isConditionalMediationAvailable = async () => false;' });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${base}/sign-in?signed_out=1`);
  await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
  await page.locator('body').focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
  assert.equal(await page.evaluate('document.activeElement.id'), 'passkey-button');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${base}/app`);
  await page.getByRole('heading', { name: 'Welcome, Ada Lovelace' }).waitFor();
  const session = (await context.cookies()).find((cookie) => cookie.name === 'cuepoint_session');
  assert.ok(session?.httpOnly);

  const audit = await harness.request('GET', `/v1/audit-events?object_id=${member.userId}&action=sign_in.succeeded`, { token: ws.key });
  assert.deepEqual(
    audit.body.audit_events.map((event: { details: { method: string } }) => event.details.method),
    ['passkey', 'passkey', 'password'],
  );
  await context.close();
});

test('the sign-in methods pages are accessible at 375 and 1440 px, through two-factor set-up and its sign-in step', {
  timeout: 300_000,
}, async (t) => {
  const { harness, base } = await appAtLocalhost(t);
  const ws = await harness.workspace();
  const member = await ws.addMember({ role: 'owner', name: 'Olive Owner', password: PASSWORD });
  const chromium = await launchChromium(t);
  mkdirSync(SCREENSHOTS, { recursive: true });

  for (const width of [375, 1440]) {
    // axe needs eval, which the pages' policy forbids: this context bypasses it (the policy is tested elsewhere).
    const context: BrowserContext = await chromium.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const authenticatorId = await virtualAuthenticator(cdp);
    const look = async (name: string, what: string) => {
      await assertAccessible(page, `${what} at ${width} px`);
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
    };

    await page.goto(`${base}/sign-in`);
    await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await look('sign-in-with-passkey', 'the sign-in page with its passkey button');
    await signInWithPassword(page, base, member.email);
    await page.waitForURL(`${base}/app`);

    await page.goto(`${base}/app/account/passkeys`);
    await page.getByRole('button', { name: 'Add a passkey' }).waitFor();
    await look('passkeys-empty', 'the passkeys page, empty');
    await page.getByLabel(/^Name Optional/).fill(`Ada’s ${width} px laptop with a rather long name`);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('status').waitFor();
    await look('passkeys-one', 'the passkeys page with a passkey');
    // A refused rename shows its problem by the field.
    await page.getByRole('link', { name: /^Rename Ada’s 375/ }).click();
    const field = page.getByLabel(/^New name for passkey/);
    await field.fill(' ');
    await field.press('Enter');
    await page.getByText('Enter a name for the passkey.').waitFor();
    await look('passkeys-rename-error', 'a refused rename');

    await page.goto(`${base}/app/account/two-factor`);
    await look('two-factor-off', 'two-factor, off');
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const key = ((await page.locator('#setup-key').textContent()) as string).replaceAll(' ', '');
    await look('two-factor-setup', 'two-factor, setting up');
    await page.getByLabel('6-digit code').fill('000000' === codeAt(key, Date.now()) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('That code is not right.', { exact: false }).waitFor();
    await look('two-factor-wrong-code', 'two-factor, a wrong code');
    await page.getByLabel('6-digit code').fill(codeAt(key, Date.now()));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('status').getByText('Two-factor authentication is on.', { exact: false }).waitFor();
    await look('two-factor-on', 'two-factor, on');

    // Without a passkey in the browser, /sign-in's passkey suggestions (answered at once by the virtual
    // authenticator) stay out of the way of the password sign-in.
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/signed_out=1/);
    await signInWithPassword(page, base, member.email);
    await page.getByRole('heading', { name: 'Enter the 6-digit code' }).waitFor();
    await look('second-factor', 'the code step of a password sign-in');
    // The code of the next step: the one that turned two-factor on may be this step's, and is used.
    await page.getByLabel('Code').fill(codeAt(key, Date.now() + 30_000));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/app`);

    await page.goto(`${base}/app/account/two-factor`);
    await page.getByLabel('Your password or a 6-digit code').fill(PASSWORD);
    await page.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
    await page.getByRole('status').getByText('Two-factor authentication is off.', { exact: false }).waitFor();
    await context.close();
  }
});
