/**
 * Invitation links (issue 27): the page a mailed link opens, accepting with a new account or as the
 * person signed in, the first owner's link that asks for the email, and links that no longer work.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { browser, csrfOf, signIn } from '../../../../test/helpers/people.ts';
import { inviteOwner } from '../../../domains/people/index.ts';
import { invitationUrl } from '../../../media/media-links.ts';

const PASSWORD = 'correct horse battery staple';

/** The path of the link in the newest invitation mailed to `email`. */
async function mailedLink(harness: TestApp, workspaceId: string, email: string): Promise<string> {
  const message = await harness.database.db
    .selectFrom('email_outbox')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('to_address', '=', email)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  assert.equal(message.purpose, 'invitation');
  assert.match(message.subject, /^Join Test [0-9a-f]{8} on Cuepoint$/);
  assert.match(message.html_body, /Accept invitation/);
  const url = new URL(/https?:\/\/\S+\/invitations\/[A-Za-z0-9_-]{43}/.exec(message.text_body)?.[0] as string);
  return url.pathname;
}

test('an invitee opens the mailed link, makes an account, and is signed in with the invited role', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const invited = await harness.request('POST', '/v1/members', { token: ws.key, body: { email: 'grace@example.com', role: 'viewer' } });
  assert.equal(invited.status, 201, invited.raw);
  const link = await mailedLink(harness, ws.id, 'grace@example.com');
  const grace = browser(harness.app);
  const page = await grace.get(link);
  assert.equal(page.statusCode, 200);
  assert.equal(page.headers['referrer-policy'], 'no-referrer');
  assert.match(page.body, /<h1>Join Test [0-9a-f]{8}<\/h1>/);
  assert.match(page.body, /grace@example\.com/);
  assert.match(page.body, /<label for="f-name">Name/);
  assert.match(page.body, /<label for="f-password">Password/);
  assert.match(page.body, /<button type="submit">Accept invitation<\/button>/);
  assert.doesNotMatch(page.body, /<label for="f-email">/, 'the link names the email');

  const weak = await grace.post(link, { name: 'Grace Hopper', password: 'qwertyuiop' });
  assert.equal(weak.statusCode, 400);
  assert.match(weak.body, /Is one of the most common passwords/);
  assert.match(weak.body, /value="Grace Hopper"/, 'what was typed stays');
  const short = await grace.post(link, { name: 'Grace Hopper', password: 'short' });
  assert.match(short.body, /Must be at least 10 characters long\./);
  const blank = await grace.post(link, { name: '  ', password: PASSWORD });
  assert.equal(blank.statusCode, 400);
  assert.match(blank.body, /id="f-name-error"/);

  const accepted = await grace.post(link, { name: 'Grace Hopper', password: PASSWORD });
  assert.equal(accepted.statusCode, 303, accepted.body);
  assert.equal(accepted.headers.location, '/app');
  const home = await grace.get('/app');
  assert.match(home.body, /Grace Hopper · viewer/);
  const members = await harness.request('GET', '/v1/members', { token: ws.key });
  assert.deepEqual(
    members.body.members.map((m: { email: string; role: string; status: string; name: string }) => [m.email, m.role, m.status, m.name]),
    [['grace@example.com', 'viewer', 'active', 'Grace Hopper']],
  );
  // The link works once; the account signs in with its password.
  assert.equal((await browser(harness.app).get(link)).statusCode, 404);
  assert.equal((await browser(harness.app).post(link, { name: 'Someone Else', password: PASSWORD })).statusCode, 404);
  await signIn(harness.app, 'grace@example.com', PASSWORD);
});

test('a person signed in accepts with their account and then switches between their workspaces', async (t) => {
  const harness = await startTestApp(t);
  const first = await harness.workspace();
  const second = await harness.workspace();
  const ada = await first.addMember({ role: 'owner', name: 'Ada', password: PASSWORD });
  await harness.request('POST', '/v1/members', { token: second.key, body: { email: ada.email, role: 'admin' } });
  const link = await mailedLink(harness, second.id, ada.email);
  const person = await signIn(harness.app, ada.email, PASSWORD);
  const page = await person.get(link);
  assert.match(page.body, /You are signed in as /);
  assert.equal((await person.post(link, {})).statusCode, 403, 'no CSRF token, nothing happens');
  const accepted = await person.post(link, { csrf: csrfOf(page.body) });
  assert.equal(accepted.statusCode, 303);
  const home = await person.get('/app');
  assert.match(home.body, /<select id="workspace-switch" name="workspace_id">/);
  assert.match(home.body, /Ada · owner/);
  const switched = await person.post('/app/workspace', { csrf: csrfOf(home.body), workspace_id: second.id });
  assert.equal(switched.statusCode, 303);
  assert.match((await person.get('/app')).body, /Ada · admin/);
});

test('a link for another address, or for an address with an account, asks the person to sign in as them', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const other = await harness.workspace();
  const ada = await other.addMember({ password: PASSWORD });
  await harness.request('POST', '/v1/members', { token: ws.key, body: { email: 'lin@example.com' } });
  const forLin = await mailedLink(harness, ws.id, 'lin@example.com');
  const person = await signIn(harness.app, ada.email, PASSWORD);
  const page = await person.get(forLin);
  const refused = await person.post(forLin, { csrf: csrfOf(page.body) });
  assert.equal(refused.statusCode, 403);
  assert.match(refused.body, /This invitation is for lin@example\.com, and you are signed in as /);

  await harness.request('POST', '/v1/members', { token: ws.key, body: { email: ada.email } });
  const forAda = await mailedLink(harness, ws.id, ada.email);
  const signedOut = await browser(harness.app).post(forAda, { name: 'Ada Again', password: 'another long password' });
  assert.equal(signedOut.statusCode, 409);
  assert.match(signedOut.body, /An account for .* exists already: sign in, then open this link again to join\./);
});

test('the first owner’s link asks for the email and makes an owner; an expired link is refused', async (t) => {
  let now = new Date();
  const harness = await startTestApp(t, { clock: () => now });
  const ws = await harness.workspace();
  const { url } = await harness.database.db.transaction().execute((trx) =>
    inviteOwner(trx, {
      workspaceId: ws.id,
      workspaceName: 'Acme',
      email: null,
      invitationUrl: (s) => invitationUrl('http://localhost:3000', s),
      now,
    }),
  );
  const link = new URL(url).pathname;
  const owner = browser(harness.app);
  const page = await owner.get(link);
  assert.match(page.body, /<label for="f-email">Email/);
  assert.match(page.body, /as an <strong>owner<\/strong>/);
  const bad = await owner.post(link, { email: 'not an email', name: 'Olive', password: PASSWORD });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.body, /id="f-email-error"/);
  const done = await owner.post(link, { email: 'Olive@Example.com', name: 'Olive', password: PASSWORD });
  assert.equal(done.statusCode, 303, done.body);
  assert.match((await owner.get('/app')).body, /Olive · owner/);

  const later = await harness.database.db.transaction().execute((trx) =>
    inviteOwner(trx, {
      workspaceId: ws.id,
      workspaceName: 'Acme',
      email: null,
      invitationUrl: (s) => invitationUrl('http://localhost:3000', s),
      now,
    }),
  );
  now = new Date(now.getTime() + 7 * 86_400_000 + 1000);
  assert.equal((await browser(harness.app).get(new URL(later.url).pathname)).statusCode, 404);
});

test('a link used twice at once makes one account', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  await harness.request('POST', '/v1/members', { token: ws.key, body: { email: 'twice@example.com' } });
  const link = await mailedLink(harness, ws.id, 'twice@example.com');
  const answers = await Promise.all([0, 1, 2].map(() => browser(harness.app).post(link, { name: 'Twice', password: PASSWORD })));
  assert.deepEqual(answers.map((a) => a.statusCode).sort(), [303, 404, 404]);
  const users = await harness.database.db.selectFrom('users').select('id').where('email', '=', 'twice@example.com').execute();
  assert.equal(users.length, 1);
});
