/** parseSmtpUrl and parseMailFrom: what CUEPOINT_SMTP_URL and CUEPOINT_MAIL_FROM may say (config.test.ts covers the messages). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMailFrom, parseSmtpUrl } from './mail-settings.ts';

test('an SMTP URL: scheme, credentials (percent-encoded), server and port; TLS required for credentials leaving the machine', () => {
  assert.deepEqual(parseSmtpUrl('smtp://127.0.0.1:2525'), {
    host: '127.0.0.1',
    port: 2525,
    secure: false,
    auth: null,
    requireTls: false,
    description: 'smtp://127.0.0.1:2525',
  });
  assert.deepEqual(parseSmtpUrl('smtps://apikey:s3cr%40t%3A%2F@smtp.example.com/'), {
    host: 'smtp.example.com',
    port: 465,
    secure: true,
    auth: { user: 'apikey', pass: 's3cr@t:/' },
    requireTls: false,
    description: 'smtps://smtp.example.com',
  });
  const submission = parseSmtpUrl('smtp://user%40example.com:pw@smtp.example.com');
  assert.ok(!('problem' in submission));
  assert.equal(submission.port, 587);
  assert.equal(submission.requireTls, true, 'a password never crosses a network in the clear');
  assert.deepEqual(submission.auth, { user: 'user@example.com', pass: 'pw' });
  const local = parseSmtpUrl('smtp://u:p@localhost:25');
  assert.ok(!('problem' in local) && local.requireTls === false);
  const v6 = parseSmtpUrl('smtp://u:p@[::1]:2525');
  assert.ok(!('problem' in v6) && v6.host === '::1' && v6.requireTls === false);
});

test('an SMTP URL that cannot work says why', () => {
  const problems: Record<string, RegExp> = {
    'smtp.example.com': /not a URL/,
    'http://smtp.example.com': /must start with smtp:\/\/ or smtps:\/\//,
    'smtp://smtp.example.com/path': /no path, query or fragment/,
    'smtp://smtp.example.com?pool=true': /no path, query or fragment/,
    'smtp://user@smtp.example.com': /both a user name and a password/,
    'smtp://user:%E0%A4%A@smtp.example.com': /percent-encoded/,
  };
  for (const [url, problem] of Object.entries(problems)) {
    const parsed = parseSmtpUrl(url);
    assert.ok('problem' in parsed, url);
    assert.match(parsed.problem, problem, url);
  }
});

test('a From address, with or without a display name', () => {
  assert.deepEqual(parseMailFrom('videos@Example.com'), { address: 'videos@example.com', name: null });
  assert.deepEqual(parseMailFrom('Cuepoint <videos@example.com>'), { address: 'videos@example.com', name: 'Cuepoint' });
  assert.deepEqual(parseMailFrom(' "Acme, Inc." <videos@example.com> '), { address: 'videos@example.com', name: 'Acme, Inc.' });
  assert.deepEqual(parseMailFrom('<videos@example.com>'), { address: 'videos@example.com', name: null });
  for (const bad of [
    'videos',
    'Cuepoint videos@example.com',
    'Cuepoint <videos>',
    'Evil\r\nBcc: x@y.example <videos@example.com>',
    'A "B" <videos@example.com>',
  ]) {
    assert.ok('problem' in parseMailFrom(bad), JSON.stringify(bad));
  }
});
