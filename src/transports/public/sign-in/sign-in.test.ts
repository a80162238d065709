/**
 * Signing in and out (issue 27, DESIGN §10): the session cookie's flags, sessions kept server-side
 * (hashed, rotated at sign-in, ended at sign-out), the same refusal whether or not an email has an
 * account, the lockout, and forms from another site refused.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { browser, csrfOf, signIn, testAddress } from '../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

test('the sign-in page names its fields and button as DESIGN §10 fixes them', async (t) => {
  const { app } = await startTestApp(t);
  const page = await browser(app).get('/sign-in');
  assert.equal(page.statusCode, 200);
  assert.match(page.headers['content-type'] as string, /text\/html/);
  assert.match(page.body, /<label for="f-email">Email/);
  assert.match(page.body, /<label for="f-password">Password/);
  assert.match(page.body, /<button type="submit">Sign in<\/button>/);
  assert.match(page.headers['content-security-policy'] as string, /form-action 'self'/);
  assert.match(page.headers['content-security-policy'] as string, /frame-ancestors 'none'/);
});

test('signing in sets an HttpOnly, SameSite=Lax session cookie whose secret is stored only as a hash', async (t) => {
  const { app, workspace, database } = await startTestApp(t);
  const ws = await workspace();
  const ada = await ws.addMember({ role: 'admin', name: 'Ada Lovelace', password: PASSWORD });
  const person = browser(app);
  const answer = await person.post('/sign-in', { email: ada.email.toUpperCase(), password: PASSWORD });
  assert.equal(answer.statusCode, 303, answer.body);
  assert.equal(answer.headers.location, '/app');
  const cookie = answer.headers['set-cookie'] as string;
  assert.match(cookie, /^cuepoint_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
  const secret = (person.cookie as string).split('=')[1] as string;
  const rows = await database.db.selectFrom('sessions').selectAll().where('user_id', '=', ada.userId).execute();
  assert.equal(rows.length, 1);
  assert.equal(rows[0]?.token_hash, createHash('sha256').update(secret).digest('hex'));
  assert.ok(!JSON.stringify(rows).includes(secret), 'the secret itself is never stored');

  const home = await person.get('/app');
  assert.equal(home.statusCode, 200, home.body);
  assert.match(home.body, /Welcome, Ada Lovelace/);
  assert.match(home.body, /<button type="submit">Sign out<\/button>/);
});

test('a wrong password and an unknown email get the same answer; the account’s workspace sees the failure and the success', async (t) => {
  const { app, workspace, request } = await startTestApp(t);
  const ws = await workspace();
  const ada = await ws.addMember({ password: PASSWORD });
  const wrong = await browser(app).post('/sign-in', { email: ada.email, password: 'not the password at all' });
  const unknown = await browser(app).post('/sign-in', { email: `nobody-${ada.userId}@example.com`, password: 'not the password at all' });
  assert.equal(wrong.statusCode, 401);
  assert.equal(unknown.statusCode, 401);
  const message = (body: string) => /role="alert">([^<]+)</.exec(body)?.[1];
  assert.equal(message(wrong.body), 'That email and password do not match. Check both and try again.');
  assert.equal(message(unknown.body), message(wrong.body));
  assert.equal(wrong.headers['set-cookie'], undefined);
  await signIn(app, ada.email, PASSWORD);
  const audit = await request('GET', `/v1/audit-events?object_id=${ada.userId}`, { token: ws.key });
  assert.equal(audit.status, 200, audit.raw);
  assert.deepEqual(audit.body.audit_events.map((e: { action: string; actor: { id: string } }) => [e.action, e.actor.id]).reverse(), [
    ['sign_in.failed', ada.userId],
    ['sign_in.succeeded', ada.userId],
  ]);
  assert.ok(!audit.raw.includes('not the password at all'), 'no password is ever recorded');
});

test('five failures lock an account for a quarter-hour, the right password included, whatever the address', async (t) => {
  const { app, workspace } = await startTestApp(t);
  const ws = await workspace();
  const ada = await ws.addMember({ password: PASSWORD });
  for (let i = 0; i < 5; i++) {
    const failed = await browser(app).post('/sign-in', { email: ada.email, password: `wrong password ${i}` });
    assert.equal(failed.statusCode, 401);
  }
  const locked = await browser(app).post('/sign-in', { email: ada.email, password: PASSWORD });
  assert.equal(locked.statusCode, 429);
  const wait = Number(locked.headers['retry-after']);
  assert.ok(wait > 14 * 60 && wait <= 15 * 60, `Retry-After ${wait}`);
  assert.match(locked.body, /Too many failed sign-ins\. For your safety, try again in 15 minutes\./);
  // Unknown emails lock the same way: the answer says nothing about which emails have accounts.
  const ghost = `ghost-${ada.userId}@example.com`;
  for (let i = 0; i < 5; i++) await browser(app).post('/sign-in', { email: ghost, password: `wrong password ${i}` });
  assert.equal((await browser(app).post('/sign-in', { email: ghost, password: PASSWORD })).statusCode, 429);
});

test('twenty failures from one address lock that address for every account', async (t) => {
  const { app, workspace } = await startTestApp(t);
  const ws = await workspace();
  const ada = await ws.addMember({ password: PASSWORD });
  const address = testAddress();
  for (let i = 0; i < 20; i++) {
    const failed = await browser(app, address).post('/sign-in', {
      email: `spray-${i}-${ada.userId}@example.com`,
      password: 'a wrong password',
    });
    assert.equal(failed.statusCode, 401);
  }
  assert.equal((await browser(app, address).post('/sign-in', { email: ada.email, password: PASSWORD })).statusCode, 429);
  // From another address, the account itself is fine.
  await signIn(app, ada.email, PASSWORD);
});

test('a sign-in form posted from another site is refused', async (t) => {
  const { app, workspace } = await startTestApp(t);
  const ws = await workspace();
  const ada = await ws.addMember({ password: PASSWORD });
  const crossSite = await browser(app).post(
    '/sign-in',
    { email: ada.email, password: PASSWORD },
    { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
  );
  assert.equal(crossSite.statusCode, 403);
  assert.equal(crossSite.headers['set-cookie'], undefined);
  // An older browser sends only Origin; it must be the service's own.
  const originOnly = await browser(app).post(
    '/sign-in',
    { email: ada.email, password: PASSWORD },
    { origin: 'https://evil.example', 'sec-fetch-site': '' },
  );
  assert.equal(originOnly.statusCode, 403);
});

test('signing in again rotates the session; signing out ends it on the server, so the old cookie stops working', async (t) => {
  const { app, workspace } = await startTestApp(t);
  const ws = await workspace();
  const ada = await ws.addMember({ password: PASSWORD });
  const person = await signIn(app, ada.email, PASSWORD);
  const first = person.cookie as string;
  await person.post('/sign-in', { email: ada.email, password: PASSWORD });
  assert.notEqual(person.cookie, first);
  assert.equal(
    (await app.inject({ method: 'GET', url: '/app', headers: { cookie: first } })).statusCode,
    303,
    'the rotated-out session is over',
  );

  const current = person.cookie as string;
  const home = await person.get('/app');
  // Without the page's CSRF token, nothing happens.
  assert.equal((await person.post('/sign-out', {})).statusCode, 403);
  assert.equal((await person.get('/app')).statusCode, 200);
  const out = await person.post('/sign-out', { csrf: csrfOf(home.body) });
  assert.equal(out.statusCode, 303);
  assert.equal(out.headers.location, '/sign-in?signed_out=1');
  assert.match(out.headers['set-cookie'] as string, /Max-Age=0/);
  const replay = await app.inject({ method: 'GET', url: '/app', headers: { cookie: current } });
  assert.equal(replay.statusCode, 303);
  assert.equal(replay.headers.location, '/sign-in?next=/app');
});

test('a session ends after 7 idle days and 30 days in all', async (t) => {
  let now = new Date('2026-11-01T09:00:00Z');
  const { app, workspace } = await startTestApp(t, { clock: () => now });
  const ws = await workspace();
  const ada = await ws.addMember({ password: PASSWORD });
  const person = await signIn(app, ada.email, PASSWORD);
  // Used every 6 days, it lives until its 30th day.
  for (let day = 6; day < 30; day += 6) {
    now = new Date(Date.parse('2026-11-01T09:00:00Z') + day * 86_400_000);
    assert.equal((await person.get('/app')).statusCode, 200, `day ${day}`);
  }
  now = new Date(Date.parse('2026-11-01T09:00:00Z') + 30 * 86_400_000);
  assert.equal((await person.get('/app')).statusCode, 303, 'past 30 days');

  const idle = await signIn(app, ada.email, PASSWORD);
  now = new Date(now.getTime() + 7 * 86_400_000 + 1000);
  assert.equal((await idle.get('/app')).statusCode, 303, 'after 7 idle days');
});

test('signed out, /app sends the person to sign in and back; next never leaves the service', async (t) => {
  const { app, workspace } = await startTestApp(t);
  const ws = await workspace();
  const ada = await ws.addMember({ password: PASSWORD });
  const away = await browser(app).get('/app');
  assert.equal(away.statusCode, 303);
  assert.equal(away.headers.location, '/sign-in?next=/app');
  const page = await browser(app).get('/sign-in?next=/app');
  assert.match(page.body, /name="next" value="\/app"/);
  for (const next of ['https://evil.example/', '//evil.example', '/\\evil.example', '/app/../../x', 'javascript:alert(1)']) {
    const person = browser(app);
    const answer = await person.post('/sign-in', { email: ada.email, password: PASSWORD, next });
    assert.equal(answer.statusCode, 303);
    assert.equal(answer.headers.location, '/app', next);
  }
});

test('the bare address leads to the dashboard, and /login to sign-in', async (t) => {
  const { app } = await startTestApp(t);
  const root = await browser(app).get('/');
  assert.equal(root.statusCode, 302);
  assert.equal(root.headers.location, '/app');
  const login = await browser(app).get('/login');
  assert.equal(login.headers.location, '/sign-in');
});
