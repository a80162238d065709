/**
 * The account's passkeys over HTTP (issue 27): adding one with a real (software) authenticator's
 * response, its default and chosen names, renaming and removing, each an audit event; and the
 * refusals: another origin, no CSRF token, a challenge that is not ours, used twice or another
 * person's, a response made on another origin, a credential registered already, another person's
 * passkey by id.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { registerPasskey, SoftwareAuthenticator } from '../../../../../test/helpers/passkey-authenticator.ts';
import { browser, csrfOf, OWN_ORIGIN, signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

async function signedInMember(harness: Awaited<ReturnType<typeof startTestApp>>) {
  const ws = await harness.workspace();
  const member = await ws.addMember({ role: 'member', name: 'Ada Lovelace', password: PASSWORD });
  const person = await signIn(harness.app, member.email, PASSWORD);
  return { ws, member, person };
}

test('a person adds passkeys (named by them, else "Passkey N"), renames and removes them; each change is an audit event', async (t) => {
  const harness = await startTestApp(t);
  const { ws, member, person } = await signedInMember(harness);
  const empty = await person.get('/app/account/passkeys');
  assert.equal(empty.statusCode, 200);
  assert.match(empty.body, /You have no passkeys yet/);
  assert.match(empty.headers['content-security-policy'] as string, /script-src 'self'/);
  assert.match(empty.body, /<script src="\/vendor\/simplewebauthn-browser-14\.0\.0\.[0-9a-f]{16}\.min\.js" defer><\/script>/);

  const authenticator = new SoftwareAuthenticator(OWN_ORIGIN);
  const first = await registerPasskey(person, authenticator);
  assert.equal(first.status, 201, JSON.stringify(first.body));
  assert.equal(first.body.name, 'Passkey 1');
  const second = await registerPasskey(person, authenticator, '  Work\nlaptop  ');
  assert.equal(second.status, 201, JSON.stringify(second.body));
  assert.equal(second.body.name, 'Work laptop');

  const rows = await harness.database.db
    .selectFrom('passkeys')
    .selectAll()
    .where('user_id', '=', member.userId)
    .orderBy('created_at')
    .execute();
  assert.deepEqual(
    rows.map((row) => [row.name, row.credential_id, row.counter, row.transports]),
    [
      ['Passkey 1', authenticator.credentials[0]?.id, 0, ['internal']],
      ['Work laptop', authenticator.credentials[1]?.id, 0, ['internal']],
    ],
  );

  const page = await person.get(`/app/account/passkeys?added=${second.body.passkey_id}`);
  assert.match(page.body, /Passkey “Work laptop” added/);
  assert.match(page.body, /<span class="key-name">Passkey 1<\/span>/);
  const csrf = csrfOf(page.body);

  const renamed = await person.post(`/app/account/passkeys/${first.body.passkey_id}/name`, { csrf, name: 'Phone' });
  assert.equal(renamed.statusCode, 303);
  assert.equal(renamed.headers.location, '/app/account/passkeys?done=renamed');
  const blank = await person.post(`/app/account/passkeys/${first.body.passkey_id}/name`, { csrf, name: '   ' });
  assert.equal(blank.statusCode, 400);
  assert.match(blank.body, /aria-invalid="true"/);
  assert.match(blank.body, /Enter a name for the passkey\./);
  const tooLong = await person.post(`/app/account/passkeys/${first.body.passkey_id}/name`, { csrf, name: 'x'.repeat(61) });
  assert.equal(tooLong.statusCode, 400);

  const removed = await person.post(`/app/account/passkeys/${second.body.passkey_id}/remove`, { csrf });
  assert.equal(removed.statusCode, 303);
  assert.equal(removed.headers.location, '/app/account/passkeys?done=removed');
  const again = await person.post(`/app/account/passkeys/${second.body.passkey_id}/remove`, { csrf });
  assert.equal(again.statusCode, 404);
  const after = await person.get('/app/account/passkeys?done=removed');
  assert.match(after.body, /Passkey removed/);
  assert.match(after.body, /<span class="key-name">Phone<\/span>/);
  assert.doesNotMatch(after.body, /key-name">Work laptop/);
  // Removing a passkey ends nothing else: the session that removed it goes on.
  assert.equal((await person.get('/app')).statusCode, 200);

  const audit = await harness.request('GET', `/v1/audit-events?object_id=${member.userId}&limit=50`, { token: ws.key });
  const actions = audit.body.audit_events
    .map((event: { action: string; details: Record<string, unknown> }) => [event.action, event.details.passkey_id])
    .filter(([action]: [string]) => action.startsWith('passkey.'))
    .reverse();
  assert.deepEqual(actions, [
    ['passkey.added', first.body.passkey_id],
    ['passkey.added', second.body.passkey_id],
    ['passkey.renamed', first.body.passkey_id],
    ['passkey.removed', second.body.passkey_id],
  ]);
});

test('adding a passkey is refused from another origin, without the CSRF token, and signed out', async (t) => {
  const harness = await startTestApp(t);
  const { person } = await signedInMember(harness);
  const csrf = csrfOf((await person.get('/app/account/passkeys')).body);
  const crossSite = await person.postJson(
    '/app/account/passkeys/options',
    {},
    { 'x-csrf-token': csrf, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
  );
  assert.equal(crossSite.statusCode, 403);
  assert.equal(JSON.parse(crossSite.body).error.code, 'forbidden');
  const noToken = await person.postJson('/app/account/passkeys/options', {});
  assert.equal(noToken.statusCode, 403);
  const wrongToken = await person.postJson('/app/account/passkeys/options', {}, { 'x-csrf-token': 'x'.repeat(43) });
  assert.equal(wrongToken.statusCode, 403);
  const signedOut = await browser(harness.app).postJson('/app/account/passkeys/options', {}, { 'x-csrf-token': csrf });
  assert.equal(signedOut.statusCode, 401);
  // Forms too: renaming and removing need the token.
  const [id] = [crypto.randomUUID()];
  assert.equal((await person.post(`/app/account/passkeys/${id}/remove`, {})).statusCode, 403);
  assert.equal(
    (
      await person.post(
        `/app/account/passkeys/${id}/name`,
        { csrf, name: 'x' },
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      )
    ).statusCode,
    403,
  );
  assert.equal((await browser(harness.app).get('/app/account/passkeys')).headers.location, '/sign-in?next=/app/account/passkeys');
});

test('a registration answering a challenge that is not ours, used already, someone else’s, or made on another origin adds nothing', async (t) => {
  const harness = await startTestApp(t);
  const { member, person } = await signedInMember(harness);
  const other = await signedInMember(harness);
  const authenticator = new SoftwareAuthenticator(OWN_ORIGIN);
  const csrf = csrfOf((await person.get('/app/account/passkeys')).body);
  const options = async (who = person, token = csrf) =>
    JSON.parse((await who.postJson('/app/account/passkeys/options', {}, { 'x-csrf-token': token })).body).options;
  const send = (response: unknown) => person.postJson('/app/account/passkeys', { response, name: '' }, { 'x-csrf-token': csrf });

  const madeUp = await send(authenticator.create(await options(), { challenge: Buffer.alloc(32, 7).toString('base64url') }));
  assert.equal(madeUp.statusCode, 409, madeUp.body);
  assert.match(JSON.parse(madeUp.body).error.message, /expired or was already used/);

  const good = await options();
  const accepted = await send(authenticator.create(good));
  assert.equal(accepted.statusCode, 201, accepted.body);
  const replayed = await send(authenticator.create(good));
  assert.equal(replayed.statusCode, 409, 'a challenge is answered once');

  const othersCsrf = csrfOf((await other.person.get('/app/account/passkeys')).body);
  const theirs = await send(authenticator.create(await options(other.person, othersCsrf)));
  assert.equal(theirs.statusCode, 409, 'another person’s challenge');

  const elsewhere = await send(authenticator.create(await options(), { origin: 'https://evil.example' }));
  assert.equal(elsewhere.statusCode, 400, elsewhere.body);
  const unverified = await send(authenticator.create(await options(), { unverified: true }));
  assert.equal(unverified.statusCode, 400, 'user verification is required');

  const notAResponse = await send({ id: 'abc', rawId: 'abc', type: 'public-key', response: {} });
  assert.equal(notAResponse.statusCode, 400);

  const count = await harness.database.db.selectFrom('passkeys').select('id').where('user_id', '=', member.userId).execute();
  assert.equal(count.length, 1);
});

test('a credential id belongs to one passkey: registered again (by anyone) it is refused; another person’s passkey cannot be renamed or removed', async (t) => {
  const harness = await startTestApp(t);
  const ada = await signedInMember(harness);
  const bob = await signedInMember(harness);
  const authenticator = new SoftwareAuthenticator(OWN_ORIGIN);
  const added = await registerPasskey(ada.person, authenticator, 'Ada’s key');
  assert.equal(added.status, 201);
  const credential = authenticator.newest();

  // Bob's browser registers the very credential Ada registered (a shared security key, say), then claims its id for another.
  const csrf = csrfOf((await bob.person.get('/app/account/passkeys')).body);
  const options = async () =>
    JSON.parse((await bob.person.postJson('/app/account/passkeys/options', {}, { 'x-csrf-token': csrf })).body).options;
  const send = (response: unknown) => bob.person.postJson('/app/account/passkeys', { response, name: '' }, { 'x-csrf-token': csrf });
  const again = await send(authenticator.create(await options(), { again: credential }));
  assert.equal(again.statusCode, 409, again.body);
  assert.match(JSON.parse(again.body).error.message, /already registered/);
  const response = new SoftwareAuthenticator(OWN_ORIGIN).create(await options());
  const claimed = await send({ ...response, id: credential.id, rawId: credential.id });
  assert.equal(claimed.statusCode, 400, claimed.body);
  const owners = await harness.database.db.selectFrom('passkeys').select('user_id').where('credential_id', '=', credential.id).execute();
  assert.deepEqual(owners, [{ user_id: ada.member.userId }]);
  assert.equal(
    (await harness.database.db.selectFrom('passkeys').select('id').where('user_id', '=', bob.member.userId).execute()).length,
    0,
  );

  const rename = await bob.person.post(`/app/account/passkeys/${added.body.passkey_id}/name`, { csrf, name: 'Mine now' });
  assert.equal(rename.statusCode, 404);
  const remove = await bob.person.post(`/app/account/passkeys/${added.body.passkey_id}/remove`, { csrf });
  assert.equal(remove.statusCode, 404);
  const row = await harness.database.db
    .selectFrom('passkeys')
    .select('name')
    .where('id', '=', added.body.passkey_id as string)
    .executeTakeFirst();
  assert.equal(row?.name, 'Ada’s key');
});
