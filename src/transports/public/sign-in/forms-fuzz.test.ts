/**
 * A fuzz pass over the people forms (issue 27): sign-in, invitations, emailed links, email changes and
 * the account page, sent hostile values in every field, malformed and oversized bodies, odd content
 * types, forged cookies and secrets of every shape. Whatever arrives, the answer is a 4xx or a
 * redirect or a page, never a 5xx, and nothing is signed in that should not be.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { HOSTILE } from '../../../../test/helpers/hostile-inputs.ts';
import { csrfOf, OWN_ORIGIN, signIn, testAddress } from '../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

/** Every hostile value as a form field's text: what a browser or a script could put there. */
const VALUES: string[] = [
  ...HOSTILE.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))),
  'a\ud800b',
  '\u202eevil',
  'x'.repeat(5000),
  'Ada\r\nBcc: everyone@example.com',
  '%00%0d%0a',
  'a@b',
  '@example.com',
  'ada@example.com'.repeat(30),
];

const SECRETS = ['', 'x', 'A'.repeat(43), 'A'.repeat(44), '../../etc/passwd', '%2e%2e', 'ÅÅÅ', 'a'.repeat(5000)];

test('hostile fields, bodies, secrets and cookies never get a 5xx from the people forms', { timeout: 300_000 }, async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const ada = await ws.addMember({ password: PASSWORD });
  const person = await signIn(harness.app, ada.email, PASSWORD);
  const csrf = csrfOf((await person.get('/app/account')).body);
  await harness.request('POST', '/v1/members', { token: ws.key, body: { email: 'fuzz-invitee@example.com' } });
  const invitation = await harness.database.db
    .selectFrom('email_outbox')
    .select('link')
    .where('to_address', '=', 'fuzz-invitee@example.com')
    .executeTakeFirstOrThrow();
  const invitationPath = new URL(invitation.link as string).pathname;

  const failures: string[] = [];
  let sent = 0;
  const send = async (
    method: 'GET' | 'POST',
    url: string,
    options: { payload?: string; contentType?: string; cookie?: string; headers?: Record<string, string> } = {},
  ) => {
    sent++;
    const response = await harness.app.inject({
      method,
      url,
      remoteAddress: testAddress(),
      headers: {
        origin: OWN_ORIGIN,
        'sec-fetch-site': 'same-origin',
        ...(options.contentType ? { 'content-type': options.contentType } : {}),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...options.headers,
      },
      ...(options.payload !== undefined ? { payload: options.payload } : {}),
    });
    if (response.statusCode >= 500)
      failures.push(
        `${method} ${url.slice(0, 80)} (${(options.payload ?? '').slice(0, 60)}): ${response.statusCode} ${response.body.slice(0, 200)}`,
      );
    return response;
  };

  const forms: { url: string; fields: string[]; signedIn?: boolean }[] = [
    { url: '/sign-in', fields: ['email', 'password', 'next'] },
    { url: invitationPath, fields: ['email', 'name', 'password'] },
    { url: '/sign-in/link', fields: ['email'] },
    { url: '/app/account/name', fields: ['name'], signedIn: true },
    { url: '/app/account/email', fields: ['new_email'], signedIn: true },
    { url: '/app/account/password', fields: ['current_password', 'new_password'], signedIn: true },
    { url: '/app/workspace', fields: ['workspace_id'], signedIn: true },
    { url: '/sign-in/second-factor', fields: ['pending', 'code', 'next'] },
    { url: `/app/account/passkeys/${crypto.randomUUID()}/name`, fields: ['name'], signedIn: true },
    { url: '/app/account/two-factor/confirm', fields: ['code'], signedIn: true },
    { url: '/app/account/two-factor/disable', fields: ['proof'], signedIn: true },
  ];
  for (const form of forms) {
    for (const field of form.fields) {
      for (const value of VALUES) {
        const fields: Record<string, string> = { [field]: value };
        if (form.signedIn) fields.csrf = csrf;
        const payload = new URLSearchParams(fields).toString();
        await send('POST', form.url, {
          payload,
          contentType: 'application/x-www-form-urlencoded',
          cookie: form.signedIn ? person.cookie : undefined,
        });
      }
    }
    // Bodies that are not forms, or broken ones, or too big.
    for (const [payload, contentType] of [
      ['{"email":"a@b.c"}', 'application/json'],
      ['email=%E0%A4%A', 'application/x-www-form-urlencoded'],
      ['email=a&email=b&email[]=c&__proto__[x]=1&constructor=1', 'application/x-www-form-urlencoded'],
      [`email=${'x'.repeat(10_000)}`, 'application/x-www-form-urlencoded'],
      ['--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nx\r\n--b--', 'multipart/form-data; boundary=b'],
      ['', 'text/plain'],
      ['', undefined],
    ] as const) {
      await send('POST', form.url, { payload, contentType, cookie: form.signedIn ? person.cookie : undefined });
    }
  }
  // The passkey ceremonies' JSON: any value where the browser's response goes.
  for (const value of [...HOSTILE, { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30' } }]) {
    for (const body of [{ response: value, next: value }, value]) {
      const payload = JSON.stringify(body) ?? 'null';
      await send('POST', '/sign-in/passkey', { payload, contentType: 'application/json' });
      await send('POST', '/app/account/passkeys', {
        payload: JSON.stringify({ response: value, name: value }) ?? 'null',
        contentType: 'application/json',
        cookie: person.cookie,
        headers: { 'x-csrf-token': csrf },
      });
    }
  }
  for (const secret of SECRETS) {
    const path = encodeURIComponent(secret);
    for (const base of ['/invitations/', '/sign-in/link/', '/account/email/']) {
      await send('GET', `${base}${path}`);
      await send('POST', `${base}${path}`, {
        payload: 'name=x&password=yyyyyyyyyyyy&confirm=1',
        contentType: 'application/x-www-form-urlencoded',
      });
    }
    await send('POST', `/app/account/sessions/${path}/end`, {
      payload: `csrf=${csrf}`,
      contentType: 'application/x-www-form-urlencoded',
      cookie: person.cookie,
    });
  }
  for (const cookie of [
    'cuepoint_session=',
    `cuepoint_session=${'A'.repeat(43)}`,
    `cuepoint_session=${'x'.repeat(9000)}`,
    'cuepoint_session=a; cuepoint_session=b',
    '=;;;=',
    '\u00ff=\u00ff',
  ]) {
    await send('GET', '/app', { cookie });
    await send('GET', '/app/account', { cookie });
    await send('POST', '/sign-out', { payload: 'csrf=x', contentType: 'application/x-www-form-urlencoded', cookie });
  }
  assert.deepEqual(failures, [], `${failures.length} of ${sent} requests answered 5xx`);
  // The person is still who they were: no hostile request changed their name or signed them out.
  const account = await person.get('/app/account');
  assert.equal(account.statusCode, 200);
});
