/**
 * The TOTP second factor over HTTP (issue 27), on the app's clock: set up from /app/account/two-factor
 * (the key grouped for typing, an otpauth:// link, sealed at rest, in force only once a code confirms
 * it); a password sign-in then asks for the code before any session starts; a code is accepted once,
 * one step either side of now; wrong codes count toward the lockout; turned off with the password or a
 * code. Passkey sign-ins never ask for it.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { startTestApp, TEST_SECRET } from '../../../../../test/helpers/app.ts';
import { passkeySignInOptions, registerPasskey, SoftwareAuthenticator } from '../../../../../test/helpers/passkey-authenticator.ts';
import { type Browser, browser, csrfOf, OWN_ORIGIN, signIn, testAddress } from '../../../../../test/helpers/people.ts';
import { createSealedBox } from '../../../../core/secrets/sealed-box.ts';

const PASSWORD = 'correct horse battery staple';
const START = Date.parse('2026-11-02T09:00:10Z');

const codeAt = (secret: string, at: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });

/** The setup key a page shows, without its spaces. */
function setupKeyOf(html: string): string {
  const grouped = /<p class="setup-key" id="setup-key">([A-Z2-7 ]+)<\/p>/.exec(html)?.[1];
  if (!grouped) throw new Error('the page shows no setup key');
  return grouped.replaceAll(' ', '');
}

/** A member signed in, with two-factor set up and confirmed at `now()`; their key. */
async function withTwoFactor(t: Parameters<typeof startTestApp>[0]) {
  let now = START;
  const harness = await startTestApp(t, { clock: () => new Date(now) });
  const ws = await harness.workspace();
  const member = await ws.addMember({ role: 'owner', name: 'Olive Owner', password: PASSWORD });
  const person = await signIn(harness.app, member.email, PASSWORD);
  const off = await person.get('/app/account/two-factor');
  assert.equal(off.statusCode, 200);
  assert.match(off.body, /<span class="badge">Off<\/span>/);
  const setup = await person.post('/app/account/two-factor/setup', { csrf: csrfOf(off.body) });
  assert.equal(setup.statusCode, 303);
  const pending = await person.get('/app/account/two-factor');
  const grouped = /<p class="setup-key" id="setup-key">([A-Z2-7 ]+)<\/p>/.exec(pending.body)?.[1] as string;
  assert.match(grouped, /^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/, 'the key in groups of four: 32 characters, 160 bits');
  const secret = grouped.replaceAll(' ', '');
  const uri = /href="(otpauth:\/\/[^"]+)"/.exec(pending.body)?.[1]?.replaceAll('&#38;', '&') as string;
  const parsed = new URL(uri);
  assert.equal(parsed.host, 'totp');
  assert.equal(parsed.searchParams.get('secret'), secret);
  assert.equal(parsed.searchParams.get('issuer'), 'Cuepoint');
  assert.equal(parsed.searchParams.get('digits'), '6');
  assert.equal(parsed.searchParams.get('period'), '30');
  assert.equal(parsed.searchParams.get('algorithm'), 'SHA1');
  return {
    harness,
    ws,
    member,
    person,
    secret,
    pendingPage: pending.body,
    clock: {
      now: () => now,
      set: (at: number) => {
        now = at;
      },
    },
  };
}

/** Email and password: the code form (no session yet); its hidden token. */
async function passwordStep(person: Browser, email: string): Promise<string> {
  const answer = await person.post('/sign-in', { email, password: PASSWORD });
  assert.equal(answer.statusCode, 200, answer.body.slice(0, 300));
  assert.match(answer.body, /<h1>Enter the 6-digit code<\/h1>/);
  assert.match(answer.body, /autocomplete="one-time-code"/);
  assert.match(answer.body, /inputmode="numeric"/);
  assert.equal(answer.headers['set-cookie'], undefined, 'no session before the code');
  return /name="pending" value="([A-Za-z0-9_-]{43})"/.exec(answer.body)?.[1] as string;
}

test('set up: the secret is sealed at rest and asks for nothing until a code confirms it; a wrong code confirms nothing', async (t) => {
  const { harness, ws, member, person, secret, pendingPage, clock } = await withTwoFactor(t);
  const row = await harness.database.db
    .selectFrom('users')
    .select(['totp_secret', 'totp_enabled_at'])
    .where('id', '=', member.userId)
    .executeTakeFirstOrThrow();
  assert.match(row.totp_secret as string, /^v1\./);
  assert.ok(!(row.totp_secret as string).includes(secret), 'sealed, not stored readable');
  assert.equal(row.totp_enabled_at, null);
  // Not yet in force: the password alone still signs in.
  await signIn(harness.app, member.email, PASSWORD);

  const csrf = csrfOf(pendingPage);
  const wrong = await person.post('/app/account/two-factor/confirm', {
    csrf,
    code: '000000' === codeAt(secret, clock.now()) ? '111111' : '000000',
  });
  assert.equal(wrong.statusCode, 400);
  assert.match(wrong.body, /That code is not right/);
  assert.match(wrong.body, /aria-invalid="true"/);
  const confirmed = await person.post('/app/account/two-factor/confirm', {
    csrf,
    code: codeAt(secret, clock.now()).replace(/(...)/, '$1 '),
  });
  assert.equal(confirmed.statusCode, 303);
  assert.equal(confirmed.headers.location, '/app/account/two-factor?done=on');
  const on = await person.get('/app/account/two-factor?done=on');
  assert.match(on.body, /<span class="badge on">On<\/span>/);
  assert.match(on.body, /Two-factor authentication is on\./);
  assert.doesNotMatch(on.body, /id="setup-key"/, 'the key is never shown again');

  // The code that confirmed cannot also sign in.
  const pending = await passwordStep(browser(harness.app), member.email);
  const reused = await browser(harness.app).post('/sign-in/second-factor', { pending, code: codeAt(secret, clock.now()) });
  assert.equal(reused.statusCode, 401);

  const audit = await harness.request('GET', `/v1/audit-events?object_id=${member.userId}&action=two_factor.enabled`, { token: ws.key });
  assert.equal(audit.body.audit_events.length, 1);
});

test('with two-factor on, a password sign-in asks for the code; the right one starts the session, and is accepted once', async (t) => {
  const { harness, ws, member, person, secret, pendingPage, clock } = await withTwoFactor(t);
  await person.post('/app/account/two-factor/confirm', { csrf: csrfOf(pendingPage), code: codeAt(secret, clock.now()) });
  clock.set(START + 60_000);

  const visitor = browser(harness.app);
  const pending = await passwordStep(visitor, member.email);
  assert.equal((await visitor.get('/app')).statusCode, 303, 'no session yet');
  const code = codeAt(secret, clock.now());
  const done = await visitor.post('/sign-in/second-factor', { pending, code, next: '/app/account/two-factor' });
  assert.equal(done.statusCode, 303, done.body.slice(0, 300));
  assert.equal(done.headers.location, '/app/account/two-factor');
  assert.match(
    done.headers['set-cookie'] as string,
    /^cuepoint_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/,
  );
  assert.equal((await visitor.get('/app')).statusCode, 200);

  // The same code again (another browser, within its 30 seconds) is refused; so is the used token.
  const other = browser(harness.app);
  const secondPending = await passwordStep(other, member.email);
  const replay = await other.post('/sign-in/second-factor', { pending: secondPending, code });
  assert.equal(replay.statusCode, 401);
  assert.match(replay.body, /That code is not right, or was used already\./);
  const usedToken = await browser(harness.app).post('/sign-in/second-factor', { pending, code: codeAt(secret, clock.now() + 30_000) });
  assert.equal(usedToken.statusCode, 400);
  assert.match(usedToken.body, /Your sign-in took too long\. Sign in again\./);
  // An earlier step's code, though within the window, is older than the last one used.
  const earlier = await other.post('/sign-in/second-factor', { pending: secondPending, code: codeAt(secret, clock.now() - 30_000) });
  assert.equal(earlier.statusCode, 401);
  // The next step's code (a phone a little ahead) is accepted.
  const ahead = await other.post('/sign-in/second-factor', { pending: secondPending, code: codeAt(secret, clock.now() + 30_000) });
  assert.equal(ahead.statusCode, 303);

  // A token lives five minutes.
  const late = browser(harness.app);
  const latePending = await passwordStep(late, member.email);
  clock.set(clock.now() + 5 * 60_000 + 1000);
  const expired = await late.post('/sign-in/second-factor', { pending: latePending, code: codeAt(secret, clock.now()) });
  assert.equal(expired.statusCode, 400);

  const audit = await harness.request('GET', `/v1/audit-events?object_id=${member.userId}&limit=50`, { token: ws.key });
  const signIns = audit.body.audit_events
    .filter((event: { action: string }) => event.action.startsWith('sign_in.'))
    .map((event: { action: string; details: unknown }) => [event.action, event.details]);
  assert.deepEqual(signIns.slice(0, 4), [
    ['sign_in.succeeded', { method: 'password', second_factor: 'totp' }],
    ['sign_in.failed', { method: 'password', second_factor: 'totp' }],
    ['sign_in.failed', { method: 'password', second_factor: 'totp' }],
    ['sign_in.succeeded', { method: 'password', second_factor: 'totp' }],
  ]);
});

test('wrong codes count toward the lockout, and the right password does not clear them: five lock the account, the right code too', async (t) => {
  const { harness, member, person, secret, pendingPage, clock } = await withTwoFactor(t);
  await person.post('/app/account/two-factor/confirm', { csrf: csrfOf(pendingPage), code: codeAt(secret, clock.now()) });
  clock.set(START + 120_000);
  const right = codeAt(secret, clock.now());
  const wrong = right === '123456' ? '654321' : '123456';
  for (let i = 0; i < 5; i++) {
    // A new password step each time: knowing the password must not buy more guesses.
    const visitor = browser(harness.app, testAddress());
    const pending = await passwordStep(visitor, member.email);
    const answer = await visitor.post('/sign-in/second-factor', { pending, code: wrong });
    assert.equal(answer.statusCode, 401, `guess ${i + 1}`);
  }
  const visitor = browser(harness.app, testAddress());
  const locked = await visitor.post('/sign-in', { email: member.email, password: PASSWORD });
  assert.equal(locked.statusCode, 429, 'locked at the password step');
  assert.match(locked.body, /Too many failed sign-ins\. For your safety, try again in 15 minutes\./);
  assert.equal(visitor.cookie, undefined);

  // A quarter-hour later the person signs in, and that clears the count.
  clock.set(clock.now() + 15 * 60_000 + 1000);
  const later = browser(harness.app, testAddress());
  const pending = await passwordStep(later, member.email);
  assert.equal((await later.post('/sign-in/second-factor', { pending, code: codeAt(secret, clock.now()) })).statusCode, 303);
});

test('a code form posted from another site is refused; an empty code is asked for again without counting', async (t) => {
  const { harness, member, person, secret, pendingPage, clock } = await withTwoFactor(t);
  await person.post('/app/account/two-factor/confirm', { csrf: csrfOf(pendingPage), code: codeAt(secret, clock.now()) });
  clock.set(START + 60_000);
  const visitor = browser(harness.app);
  const pending = await passwordStep(visitor, member.email);
  const crossSite = await visitor.post(
    '/sign-in/second-factor',
    { pending, code: codeAt(secret, clock.now()) },
    { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
  );
  assert.equal(crossSite.statusCode, 403);
  const empty = await visitor.post('/sign-in/second-factor', { pending, code: ' ' });
  assert.equal(empty.statusCode, 400);
  assert.match(empty.body, /Enter the 6-digit code from your authenticator app\./);
  const failures = await harness.database.db
    .selectFrom('audit_events')
    .select('id')
    .where('object_id', '=', member.userId)
    .where('action', '=', 'sign_in.failed')
    .execute();
  assert.equal(failures.length, 0);
  assert.equal((await visitor.post('/sign-in/second-factor', { pending, code: codeAt(secret, clock.now()) })).statusCode, 303);
});

test('turned off with the password or a current code; a wrong one changes nothing and counts toward the lockout', async (t) => {
  const { harness, ws, member, person, secret, pendingPage, clock } = await withTwoFactor(t);
  await person.post('/app/account/two-factor/confirm', { csrf: csrfOf(pendingPage), code: codeAt(secret, clock.now()) });
  clock.set(START + 60_000);
  const page = await person.get('/app/account/two-factor');
  const csrf = csrfOf(page.body);
  assert.match(page.body, /Your password or a 6-digit code/);
  assert.equal((await person.post('/app/account/two-factor/disable', { proof: PASSWORD })).statusCode, 403, 'no CSRF token');
  const wrong = await person.post('/app/account/two-factor/disable', { csrf, proof: 'not my password at all' });
  assert.equal(wrong.statusCode, 401);
  assert.match(wrong.body, /That is neither your password nor a current code\. Nothing changed\./);
  const accountKey = createHmac('sha256', TEST_SECRET).update(`sign-in account:${member.email}`).digest('hex');
  const failed = await harness.database.db.selectFrom('sign_in_failures').select('id').where('account_key', '=', accountKey).execute();
  assert.equal(failed.length, 1, 'the wrong password counted');
  const byCode = await person.post('/app/account/two-factor/disable', { csrf, proof: codeAt(secret, clock.now()) });
  assert.equal(byCode.statusCode, 303);
  assert.equal(byCode.headers.location, '/app/account/two-factor?done=off');
  assert.match((await person.get('/app/account/two-factor?done=off')).body, /<span class="badge">Off<\/span>/);
  await signIn(harness.app, member.email, PASSWORD);

  // On again, and off with the password this time.
  const again = await person.post('/app/account/two-factor/setup', { csrf });
  assert.equal(again.statusCode, 303);
  const newSecret = setupKeyOf((await person.get('/app/account/two-factor')).body);
  assert.notEqual(newSecret, secret, 'a new secret each time');
  assert.equal((await person.post('/app/account/two-factor/confirm', { csrf, code: codeAt(newSecret, clock.now()) })).statusCode, 303);
  assert.equal((await person.post('/app/account/two-factor/disable', { csrf, proof: PASSWORD })).statusCode, 303);
  const row = await harness.database.db
    .selectFrom('users')
    .select(['totp_secret', 'totp_enabled_at'])
    .where('id', '=', member.userId)
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { totp_secret: null, totp_enabled_at: null });

  const audit = await harness.request('GET', `/v1/audit-events?object_id=${member.userId}&limit=50`, { token: ws.key });
  const actions = audit.body.audit_events
    .map((event: { action: string }) => event.action)
    .filter((action: string) => action.startsWith('two_factor.'));
  assert.deepEqual(actions.reverse(), ['two_factor.enabled', 'two_factor.disabled', 'two_factor.enabled', 'two_factor.disabled']);
});

test('setting up can be canceled; a pending secret is not in force, and passkey sign-ins never ask for a code', async (t) => {
  const { harness, person, secret, pendingPage, clock } = await withTwoFactor(t);
  const canceled = await person.post('/app/account/two-factor/cancel', { csrf: csrfOf(pendingPage) });
  assert.equal(canceled.headers.location, '/app/account/two-factor?done=canceled');
  assert.match((await person.get('/app/account/two-factor?done=canceled')).body, /<span class="badge">Off<\/span>/);
  const late = await person.post('/app/account/two-factor/confirm', { csrf: csrfOf(pendingPage), code: codeAt(secret, clock.now()) });
  assert.equal(late.statusCode, 400, 'a canceled secret cannot be confirmed');

  await person.post('/app/account/two-factor/setup', { csrf: csrfOf(pendingPage) });
  const key = setupKeyOf((await person.get('/app/account/two-factor')).body);
  await person.post('/app/account/two-factor/confirm', { csrf: csrfOf(pendingPage), code: codeAt(key, clock.now()) });
  const authenticator = new SoftwareAuthenticator(OWN_ORIGIN);
  assert.equal((await registerPasskey(person, authenticator)).status, 201);
  const visitor = browser(harness.app);
  const answer = await visitor.postJson('/sign-in/passkey', { response: authenticator.get(await passkeySignInOptions(visitor)) });
  assert.equal(answer.statusCode, 200, answer.body);
  assert.equal((await visitor.get('/app')).statusCode, 200);
});

test('a secret sealed under another CUEPOINT_SECRET accepts no code, and the password still turns two-factor off', async (t) => {
  const { harness, member, person, secret, pendingPage, clock } = await withTwoFactor(t);
  await person.post('/app/account/two-factor/confirm', { csrf: csrfOf(pendingPage), code: codeAt(secret, clock.now()) });
  const foreign = createSealedBox('another secret, another installation', 'totp secrets').seal({ secret, last_step: null });
  await harness.database.db.updateTable('users').set({ totp_secret: foreign }).where('id', '=', member.userId).execute();
  clock.set(START + 60_000);
  const visitor = browser(harness.app);
  const pending = await passwordStep(visitor, member.email);
  const refused = await visitor.post('/sign-in/second-factor', { pending, code: codeAt(secret, clock.now()) });
  assert.equal(refused.statusCode, 401);
  const page = await person.get('/app/account/two-factor');
  assert.equal(page.statusCode, 200);
  assert.equal(
    (await person.post('/app/account/two-factor/disable', { csrf: csrfOf(page.body), proof: codeAt(secret, clock.now()) })).statusCode,
    401,
  );
  assert.equal((await person.post('/app/account/two-factor/disable', { csrf: csrfOf(page.body), proof: PASSWORD })).statusCode, 303);
});
