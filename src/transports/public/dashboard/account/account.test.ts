/**
 * The account page (issue 27): name, an email change confirmed from the new address, a password change
 * that signs every other device out, the list of sessions with "Sign out everywhere".
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { browser, csrfOf, signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

test('the account page renames, changes the password and ends every other session', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const ada = await ws.addMember({ name: 'Ada', password: PASSWORD });
  const laptop = await signIn(harness.app, ada.email, PASSWORD);
  const phone = await signIn(harness.app, ada.email, PASSWORD);
  const page = await laptop.get('/app/account');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<h1>Your account<\/h1>/);
  assert.equal((page.body.match(/<li><div><strong>/g) ?? []).length, 2, 'two sessions listed');
  assert.match(page.body, /This device/);
  const csrf = csrfOf(page.body);

  assert.equal((await laptop.post('/app/account/name', { name: 'Ada' })).statusCode, 403, 'no CSRF token');
  assert.equal((await laptop.post('/app/account/name', { csrf, name: 'Ada King' })).statusCode, 303);
  assert.match((await laptop.get('/app')).body, /Ada King/);

  const wrong = await laptop.post('/app/account/password', {
    csrf,
    current_password: 'not it at all',
    new_password: 'a brand new passphrase',
  });
  assert.equal(wrong.statusCode, 400);
  assert.match(wrong.body, /Is not your current password\./);
  const common = await laptop.post('/app/account/password', { csrf, current_password: PASSWORD, new_password: 'password123' });
  assert.match(common.body, /most common passwords/);
  const changed = await laptop.post('/app/account/password', { csrf, current_password: PASSWORD, new_password: 'a brand new passphrase' });
  assert.equal(changed.statusCode, 303);
  assert.equal((await laptop.get('/app')).statusCode, 200, 'this device stays signed in');
  assert.equal((await phone.get('/app')).statusCode, 303, 'the other device is signed out');
  await signIn(harness.app, ada.email, 'a brand new passphrase');
  const notice = await harness.database.db.selectFrom('email_outbox').select('subject').where('to_address', '=', ada.email).execute();
  assert.ok(notice.some((m) => m.subject === 'Your Cuepoint password was changed'));

  const everywhere = await laptop.post('/app/account/sessions/end-all', { csrf: csrfOf((await laptop.get('/app/account')).body) });
  assert.equal(everywhere.statusCode, 303);
  assert.equal((await laptop.get('/app')).statusCode, 303);
  const audit = await harness.request('GET', `/v1/audit-events?object_id=${ada.userId}`, { token: ws.key });
  const actions = audit.body.audit_events.map((e: { action: string }) => e.action);
  assert.ok(actions.includes('password.changed') && actions.includes('sessions.ended'), actions.join());
});

test('an email change takes effect only from the link sent to the new address, and the old one is told', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const ada = await ws.addMember({ name: 'Ada', password: PASSWORD });
  const taken = await ws.addMember();
  const person = await signIn(harness.app, ada.email, PASSWORD);
  const csrf = csrfOf((await person.get('/app/account')).body);
  const clash = await person.post('/app/account/email', { csrf, new_email: taken.email });
  assert.equal(clash.statusCode, 409);
  assert.match(clash.body, /Another account uses this address already\./);
  const asked = await person.post('/app/account/email', { csrf, new_email: 'Ada.New@Example.com' });
  assert.equal(asked.statusCode, 303);
  const mail = await harness.database.db
    .selectFrom('email_outbox')
    .select('link')
    .where('to_address', '=', 'ada.new@example.com')
    .executeTakeFirstOrThrow();
  const link = new URL(mail.link as string).pathname;
  // Nothing changed yet: the old address still signs in.
  await signIn(harness.app, ada.email, PASSWORD);
  const confirmPage = await browser(harness.app).get(link);
  assert.match(confirmPage.body, /<button type="submit">Confirm new email<\/button>/);
  const confirmed = await browser(harness.app).post(link, { confirm: '1' });
  assert.equal(confirmed.statusCode, 200, confirmed.body);
  await signIn(harness.app, 'ada.new@example.com', PASSWORD);
  const told = await harness.database.db.selectFrom('email_outbox').select('subject').where('to_address', '=', ada.email).execute();
  assert.ok(told.some((m) => m.subject === 'Your Cuepoint email was changed'));
  assert.equal((await browser(harness.app).post(link, { confirm: '1' })).statusCode, 404, 'once only');
});

test('two people confirming a move to the same address at once: one has it, the other is told, nothing fails', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const wanted = `shared-${Date.now()}@example.com`;
  const links: string[] = [];
  for (const name of ['Ada', 'Grace']) {
    const member = await ws.addMember({ name, password: PASSWORD });
    const person = await signIn(harness.app, member.email, PASSWORD);
    const csrf = csrfOf((await person.get('/app/account')).body);
    assert.equal((await person.post('/app/account/email', { csrf, new_email: wanted })).statusCode, 303);
  }
  for (const row of await harness.database.db.selectFrom('email_outbox').select('link').where('to_address', '=', wanted).execute()) {
    links.push(new URL(row.link as string).pathname);
  }
  assert.equal(links.length, 2);
  const answers = await Promise.all(links.map((link) => browser(harness.app).post(link, { confirm: '1' })));
  assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 409], answers.map((a) => a.body.slice(0, 200)).join('\n'));
  assert.match(answers.find((answer) => answer.statusCode === 409)?.body ?? '', /Another account uses/);
  const holders = await harness.database.db.selectFrom('users').select('id').where('email', '=', wanted).execute();
  assert.equal(holders.length, 1);
});

test('ending one session of the list; another person’s session id ends nothing', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const ada = await ws.addMember({ password: PASSWORD });
  const bob = await ws.addMember({ password: PASSWORD });
  const adaLaptop = await signIn(harness.app, ada.email, PASSWORD);
  const adaPhone = await signIn(harness.app, ada.email, PASSWORD);
  const bobs = await signIn(harness.app, bob.email, PASSWORD);
  const bobSession = await harness.database.db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', bob.userId)
    .executeTakeFirstOrThrow();
  const page = (await adaLaptop.get('/app/account')).body;
  const csrf = csrfOf(page);
  await adaLaptop.post(`/app/account/sessions/${bobSession.id}/end`, { csrf });
  assert.equal((await bobs.get('/app')).statusCode, 200);
  const phoneSession = /action="\/app\/account\/sessions\/([0-9a-f-]{36})\/end"/.exec(page)?.[1] as string;
  await adaLaptop.post(`/app/account/sessions/${phoneSession}/end`, { csrf });
  assert.equal((await adaPhone.get('/app')).statusCode, 303);
  assert.equal((await adaLaptop.get('/app')).statusCode, 200);
});
