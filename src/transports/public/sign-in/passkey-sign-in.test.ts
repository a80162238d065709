/**
 * Signing in with a passkey over HTTP (issue 27), with a software authenticator's real signatures: a
 * session starts as a password sign-in starts one (cookie, rotation, audit event with method
 * `passkey`), the counter moves; and every refusal: a challenge we never issued, one answered twice,
 * an unknown credential, another person's credential id, a response made on another origin or posted
 * from one, a counter that went backwards, no user verification; failed assertions count toward the
 * lockout.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { passkeySignInOptions, registerPasskey, SoftwareAuthenticator } from '../../../../test/helpers/passkey-authenticator.ts';
import { browser, OWN_ORIGIN, signIn, testAddress } from '../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

async function personWithPasskey(harness: Awaited<ReturnType<typeof startTestApp>>, name = 'Ada Lovelace') {
  const ws = await harness.workspace();
  const member = await ws.addMember({ role: 'admin', name, password: PASSWORD });
  const authenticator = new SoftwareAuthenticator(OWN_ORIGIN);
  const added = await registerPasskey(await signIn(harness.app, member.email, PASSWORD), authenticator, 'Laptop');
  assert.equal(added.status, 201, JSON.stringify(added.body));
  return { ws, member, authenticator, passkeyId: added.body.passkey_id as string };
}

test('the sign-in page offers a passkey where the browser can (a script served as a file), the password form without one', async (t) => {
  const { app } = await startTestApp(t);
  const page = await browser(app).get('/sign-in');
  assert.match(page.body, /<div class="passkey" id="passkey-sign-in" hidden>/);
  assert.match(page.body, /<button type="button" class="secondary" id="passkey-button">Use a passkey<\/button>/);
  assert.match(page.body, /autocomplete="username webauthn"/);
  const vendor = /<script src="(\/vendor\/simplewebauthn-browser-[^"]+)" defer>/.exec(page.body)?.[1] as string;
  assert.ok(vendor);
  assert.doesNotMatch(page.body, /<script>/, 'no inline script');
  const library = await browser(app).get(vendor);
  assert.equal(library.statusCode, 200);
  assert.match(library.headers['content-type'] as string, /^text\/javascript/);
  assert.equal(library.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.match(library.body, /SimpleWebAuthnBrowser/);
  assert.equal((await browser(app).get(vendor, { 'if-none-match': library.headers.etag as string })).statusCode, 304);
  const script = await browser(app).get('/passkey-sign-in.js');
  assert.equal(script.statusCode, 200);
  assert.match(script.body, /startAuthentication/);
});

test('a passkey signs in: usernameless options, a new session (rotated, cookie as for passwords), the counter kept, an audit event', async (t) => {
  const harness = await startTestApp(t);
  const { ws, member, authenticator, passkeyId } = await personWithPasskey(harness);
  const person = browser(harness.app);
  // A session already held (someone else's, on a shared computer) ends: the id rotates at sign-in.
  const earlier = await signIn(harness.app, member.email, PASSWORD, person.address);
  person.cookie = earlier.cookie;
  const options = await passkeySignInOptions(person);
  assert.equal(options.rpId, 'localhost');
  assert.equal(options.userVerification, 'required');
  assert.equal(options.allowCredentials, undefined, 'the authenticator offers the person’s passkeys: no email needed');

  const answer = await person.postJson('/sign-in/passkey', { response: authenticator.get(options), next: '/app/account/passkeys' });
  assert.equal(answer.statusCode, 200, answer.body);
  assert.deepEqual(JSON.parse(answer.body), { redirect_to: '/app/account/passkeys' });
  assert.match(
    answer.headers['set-cookie'] as string,
    /^cuepoint_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/,
  );
  assert.notEqual(person.cookie, earlier.cookie);
  assert.equal((await harness.app.inject({ method: 'GET', url: '/app', headers: { cookie: earlier.cookie as string } })).statusCode, 303);
  const home = await person.get('/app');
  assert.equal(home.statusCode, 200);
  assert.match(home.body, /Welcome, Ada Lovelace/);

  const row = await harness.database.db
    .selectFrom('passkeys')
    .select(['counter', 'last_used_at'])
    .where('id', '=', passkeyId)
    .executeTakeFirstOrThrow();
  assert.equal(row.counter, 1);
  assert.ok(row.last_used_at);
  const audit = await harness.request('GET', `/v1/audit-events?object_id=${member.userId}&action=sign_in.succeeded`, { token: ws.key });
  assert.deepEqual(audit.body.audit_events[0].details, { method: 'passkey', passkey_id: passkeyId });

  // An unsafe next is dropped, as for passwords.
  const again = await browser(harness.app).postJson('/sign-in/passkey', {
    response: authenticator.get(await passkeySignInOptions(browser(harness.app))),
    next: 'https://evil.example/',
  });
  assert.deepEqual(JSON.parse(again.body), { redirect_to: '/app' });
});

test('refused: a challenge we never issued, one answered twice, an unknown credential, a counter that went backwards, no user verification', async (t) => {
  const harness = await startTestApp(t);
  const { member, authenticator } = await personWithPasskey(harness);
  const person = browser(harness.app);
  const refused = async (response: unknown, why: string) => {
    const answer = await person.postJson('/sign-in/passkey', { response });
    assert.equal(answer.statusCode, 401, `${why}: ${answer.body}`);
    const body = JSON.parse(answer.body);
    assert.equal(body.error.code, 'unauthorized');
    assert.equal(body.error.message, 'That passkey could not sign you in. Try again, or sign in with your email and password.');
    assert.equal(answer.headers['set-cookie'], undefined, why);
  };
  await refused(
    authenticator.get(await passkeySignInOptions(person), undefined, { challenge: Buffer.alloc(32, 1).toString('base64url') }),
    'made-up challenge',
  );

  const options = await passkeySignInOptions(person);
  const first = authenticator.get(options);
  assert.equal((await person.postJson('/sign-in/passkey', { response: first })).statusCode, 200);
  person.cookie = undefined;
  await refused(first, 'the same assertion again');
  await refused(authenticator.get(options), 'a new assertion of a used challenge');

  const stranger = new SoftwareAuthenticator(OWN_ORIGIN);
  stranger.create({
    challenge: 'x',
    rp: { id: 'localhost', name: 'Cuepoint' },
    user: { id: 'c29tZW9uZQ', name: 'someone', displayName: 'Someone' },
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
  });
  await refused(stranger.get(await passkeySignInOptions(person)), 'a credential nobody registered');

  const credential = authenticator.newest();
  await refused(authenticator.get(await passkeySignInOptions(person), credential, { counter: 1 }), 'counter went back');
  await refused(authenticator.get(await passkeySignInOptions(person), credential, { unverified: true }), 'no user verification');
  await refused({ id: 'not base64!', rawId: 'not base64!', type: 'public-key', response: {} }, 'not a response');
  await refused(undefined, 'nothing');

  // The person's workspace sees the failures of their passkey (not of ones nobody has).
  const failures = await harness.database.db
    .selectFrom('audit_events')
    .select('details')
    .where('object_id', '=', member.userId)
    .where('action', '=', 'sign_in.failed')
    .execute();
  assert.equal(failures.length, 5);
  assert.ok(failures.every((failure) => JSON.stringify(failure.details) === '{"method":"passkey"}'));
});

test('malformed passkey posts lock out the address that sends them, not everyone else’s', async (t) => {
  const harness = await startTestApp(t);
  const spammer = browser(harness.app);
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await spammer.postJson('/sign-in/passkey', { response: { id: 'not base64!' } })).statusCode);
  assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
  // Someone else's browser sending a broken response is told so, not locked out by the spammer.
  const other = await browser(harness.app).postJson('/sign-in/passkey', { response: { id: 'not base64!' } });
  assert.equal(other.statusCode, 401, other.body);
});

test('another person’s credential id with one’s own signature, or a response made on another site, signs nobody in', async (t) => {
  const harness = await startTestApp(t);
  const ada = await personWithPasskey(harness, 'Ada');
  const mallory = await personWithPasskey(harness, 'Mallory');
  const person = browser(harness.app);
  const asAda = mallory.authenticator.get(await passkeySignInOptions(person), undefined, {
    credentialId: ada.authenticator.newest().id,
    userHandle: ada.authenticator.newest().userHandle,
  });
  assert.equal((await person.postJson('/sign-in/passkey', { response: asAda })).statusCode, 401);
  // Mallory's own passkey, with Ada's user handle: not whom the passkey belongs to.
  const handle = mallory.authenticator.get(await passkeySignInOptions(person), undefined, {
    userHandle: ada.authenticator.newest().userHandle,
  });
  assert.equal((await person.postJson('/sign-in/passkey', { response: handle })).statusCode, 401);
  // A look-alike site relayed our challenge to Ada's authenticator: the client data names its origin.
  const phished = ada.authenticator.get(await passkeySignInOptions(person), undefined, { origin: 'https://cuepoint.evil.example' });
  assert.equal((await person.postJson('/sign-in/passkey', { response: phished })).statusCode, 401);
  assert.equal(person.cookie, undefined);
});

test('a passkey sign-in posted from another site is refused before anything is checked', async (t) => {
  const harness = await startTestApp(t);
  const { authenticator } = await personWithPasskey(harness);
  const person = browser(harness.app);
  const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
  const options = await person.postJson('/sign-in/passkey/options', {}, crossSite);
  assert.equal(options.statusCode, 403);
  assert.equal(JSON.parse(options.body).error.code, 'forbidden');
  const response = authenticator.get(await passkeySignInOptions(person));
  const answer = await person.postJson('/sign-in/passkey', { response }, crossSite);
  assert.equal(answer.statusCode, 403);
  assert.equal(answer.headers['set-cookie'], undefined);
  const olderBrowser = await person.postJson('/sign-in/passkey', { response }, { origin: 'https://evil.example', 'sec-fetch-site': '' });
  assert.equal(olderBrowser.statusCode, 403);
  // The challenge was not spent by the refused posts: the real page can still use it.
  assert.equal((await person.postJson('/sign-in/passkey', { response })).statusCode, 200);
});

test('failed passkey assertions count toward the lockout: five lock the account, the right passkey and password included', async (t) => {
  const harness = await startTestApp(t);
  const { member, authenticator } = await personWithPasskey(harness);
  const credential = authenticator.newest();
  for (let i = 0; i < 5; i++) {
    const person = browser(harness.app, testAddress());
    const bad = authenticator.get(await passkeySignInOptions(person), credential, { origin: 'https://evil.example' });
    assert.equal((await person.postJson('/sign-in/passkey', { response: bad })).statusCode, 401);
  }
  const person = browser(harness.app, testAddress());
  const locked = await person.postJson('/sign-in/passkey', { response: authenticator.get(await passkeySignInOptions(person)) });
  assert.equal(locked.statusCode, 429);
  const body = JSON.parse(locked.body);
  assert.equal(body.error.code, 'rate_limited');
  assert.match(body.error.message, /^Too many failed sign-ins\. For your safety, try again in 15 minutes\.$/);
  const wait = Number(locked.headers['retry-after']);
  assert.ok(wait > 14 * 60 && wait <= 15 * 60, `Retry-After ${wait}`);
  assert.equal((await browser(harness.app).post('/sign-in', { email: member.email, password: PASSWORD })).statusCode, 429);
});
