/**
 * The email worker against a real SMTP server (test/helpers/smtp-server.ts), messages read back with
 * mailparser: a queued message arrives with both parts, its headers and its Message-ID; a 451 is
 * tried again later with the same Message-ID; a 550 ends it failed with the reason, and so does the
 * last of several temporary failures; a server that cannot be reached is a temporary failure; a
 * lease left by a killed sender is taken over; two workers on one database never send a message
 * twice; nothing a person typed can add a header; credentials in the URL are used; with no SMTP server
 * each link is logged once. Each test has a database of its own: a worker claims every workspace's
 * messages. With TEST_DATABASE_URL it is PostgreSQL, whose connections really do race.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { type TestContext, test } from 'node:test';
import ICAL from 'ical.js';
import type { Kysely } from 'kysely';
import { openTestDatabase } from '../../test/helpers/database.ts';
import { startSmtpServer } from '../../test/helpers/smtp-server.ts';
import { eventually } from '../../test/helpers/webhooks.ts';
import type { Log } from '../core/context.ts';
import type { Database } from '../db/tables/index.ts';
import { claimDueEmails, type OutgoingEmail, parseMailFrom, parseSmtpUrl, queueEmail, renderEmail } from '../domains/email/index.ts';
import { type EmailWorkerOptions, startEmailWorker } from './email-delivery.ts';

const FAST_RETRIES = { firstDelayMs: 20, maxDelayMs: 80, maxAttempts: 3 };
const SILENT: Log = { info() {}, warn() {}, error() {} };

async function freshDb(t: TestContext): Promise<Kysely<Database>> {
  const database = await openTestDatabase();
  t.after(() => database.close());
  return database.db;
}

function worker(t: TestContext, db: Kysely<Database>, smtpUrl: string | null, options: Partial<EmailWorkerOptions> = {}) {
  const smtp = smtpUrl === null ? null : parseSmtpUrl(smtpUrl);
  const from = parseMailFrom('Cuepoint Videos <videos@example.com>');
  if ((smtp && 'problem' in smtp) || 'problem' in from) throw new Error('test settings');
  const started = startEmailWorker({ db, log: SILENT, smtp, from, pollMs: 20, retryPolicy: FAST_RETRIES, ...options });
  t.after(() => started.stop());
  return started;
}

function message(fields: Partial<OutgoingEmail> = {}): OutgoingEmail {
  const { text, html } = renderEmail({
    preheader: 'Ada invited you',
    heading: 'Join Acme <Videos> on Cuepoint',
    paragraphs: ['Ada Lovelace invited you to the workspace "Acme & Sons".'],
    action: { label: 'Accept invitation', url: 'https://videos.example.com/invitations/abc?x=1&y=2' },
    footer: 'You can ignore this message if you did not expect it.',
  });
  return {
    workspaceId: null,
    to: { address: 'grace@example.org', name: 'Grace Hopper' },
    subject: 'Ada invited you to Acme',
    text,
    html,
    purpose: 'invitation',
    link: 'https://videos.example.com/invitations/abc?x=1&y=2',
    ...fields,
  };
}

async function row(db: Kysely<Database>, id: string) {
  return db.selectFrom('email_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

test('a queued message arrives with a plain-text and an HTML part, its headers and its Message-ID, and is marked sent', async (t) => {
  const db = await freshDb(t);
  const smtp = await startSmtpServer(t);
  const queued = await db.transaction().execute((trx) => queueEmail(trx, message(), new Date()));
  worker(t, db, smtp.url);

  const mail = await eventually(() => smtp.received[0], 'the message to arrive');
  assert.equal(mail.messageId, queued.messageId);
  assert.match(queued.messageId, /^<[0-9a-f-]{36}@cuepoint\.invalid>$/);
  assert.deepEqual(mail.envelope, { from: 'videos@example.com', to: ['grace@example.org'] });
  assert.deepEqual(mail.parsed.from?.value, [{ address: 'videos@example.com', name: 'Cuepoint Videos' }]);
  const to = mail.parsed.to && !Array.isArray(mail.parsed.to) ? mail.parsed.to.value : [];
  assert.deepEqual(to, [{ address: 'grace@example.org', name: 'Grace Hopper' }]);
  assert.equal(mail.parsed.subject, 'Ada invited you to Acme');
  assert.equal(mail.parsed.headers.get('auto-submitted'), 'auto-generated');
  assert.ok(mail.parsed.date instanceof Date);
  assert.match(mail.raw, /^Content-Type: multipart\/alternative/im);
  // The plain part reads as text; the HTML part holds the same words, escaped, and the link.
  assert.match(mail.parsed.text ?? '', /Join Acme <Videos> on Cuepoint/);
  assert.match(mail.parsed.text ?? '', /Accept invitation: https:\/\/videos\.example\.com\/invitations\/abc\?x=1&y=2/);
  const html = String(mail.parsed.html);
  assert.match(html, /Join Acme &#60;Videos&#62; on Cuepoint/);
  assert.match(html, /&#34;Acme &#38; Sons&#34;/);
  assert.match(html, /href="https:\/\/videos\.example\.com\/invitations\/abc\?x=1&#38;y=2"/);
  assert.doesNotMatch(html, /<Videos>|<img|<script/i);

  const sent = await eventually(async () => {
    const r = await row(db, queued.id);
    return r.status === 'sent' ? r : undefined;
  }, 'the message to be marked sent');
  assert.equal(sent.attempts, 1);
  assert.ok(sent.sent_at);
  assert.match(sent.server_response ?? '', /^250 OK: queued as 1/);
  assert.equal(sent.lease_until, null);
  assert.equal(smtp.attempts.length, 1);
});

test('a 451 is tried again later with the same Message-ID; the message is sent once', async (t) => {
  const db = await freshDb(t);
  const smtp = await startSmtpServer(t);
  smtp.answer(({ attempt }) => (attempt === 1 ? { code: 451, message: 'Greylisted, try again later' } : undefined));
  const queued = await queueEmail(db, message(), new Date());
  worker(t, db, smtp.url);

  const sent = await eventually(async () => {
    const r = await row(db, queued.id);
    return r.status === 'sent' ? r : undefined;
  }, 'the second attempt to be accepted');
  assert.deepEqual(smtp.attempts, [
    { messageId: queued.messageId, code: 451 },
    { messageId: queued.messageId, code: 250 },
  ]);
  assert.equal(smtp.received.length, 1);
  assert.equal(sent.attempts, 2);
  assert.equal(sent.last_error, null);
  // Both attempts sent the same message: the same id, the same date, the same bytes after the headers.
  assert.equal(smtp.received[0]?.messageId, queued.messageId);
});

test('a 550 ends the message failed with the server’s reason, tried once', async (t) => {
  const db = await freshDb(t);
  const smtp = await startSmtpServer(t);
  smtp.answer(() => ({ code: 550, message: 'No such user here' }));
  const queued = await queueEmail(db, message(), new Date());
  worker(t, db, smtp.url);

  const failed = await eventually(async () => {
    const r = await row(db, queued.id);
    return r.status === 'failed' ? r : undefined;
  }, 'the message to fail');
  assert.equal(failed.attempts, 1);
  assert.match(failed.last_error ?? '', /550.*No such user here/);
  assert.equal(failed.next_attempt_at, null);
  assert.equal(failed.sent_at, null);
  assert.equal(smtp.received.length, 0);
  assert.equal(smtp.attempts.length, 1);
});

test('temporary failures end the message failed after its last attempt; an unreachable server is one', async (t) => {
  const db = await freshDb(t);
  const smtp = await startSmtpServer(t);
  smtp.answer(() => ({ code: 452, message: 'Mailbox full, try later' }));
  const full = await queueEmail(db, message(), new Date());
  worker(t, db, smtp.url);
  const failed = await eventually(async () => {
    const r = await row(db, full.id);
    return r.status === 'failed' ? r : undefined;
  }, 'the message to use up its attempts');
  assert.equal(failed.attempts, FAST_RETRIES.maxAttempts);
  assert.match(failed.last_error ?? '', /452.*Mailbox full/);
  assert.deepEqual(
    smtp.attempts.map((a) => a.messageId),
    Array(FAST_RETRIES.maxAttempts).fill(full.messageId),
  );

  // A port nobody listens on: the connection fails, and the message waits for a later attempt.
  const db2 = await freshDb(t);
  const unreachable = await queueEmail(db2, message(), new Date());
  worker(t, db2, `smtp://127.0.0.1:${await closedPort()}`, { retryPolicy: { firstDelayMs: 60_000, maxDelayMs: 60_000, maxAttempts: 5 } });
  const waiting = await eventually(async () => {
    const r = await row(db2, unreachable.id);
    return r.attempts === 1 && r.lease_until === null ? r : undefined;
  }, 'the first attempt to be recorded');
  assert.equal(waiting.status, 'queued');
  assert.match(waiting.last_error ?? '', /ECONNREFUSED|ECONNECTION|ESOCKET/);
  assert.ok((waiting.next_attempt_at?.getTime() ?? 0) > Date.now() + 20_000, 'tried again about a minute later');
});

test('a message leased by a sender that died is taken over once the lease lapses, with the same Message-ID', async (t) => {
  const db = await freshDb(t);
  const smtp = await startSmtpServer(t);
  const queued = await queueEmail(db, message(), new Date());
  // A sender claims it and is killed before it records anything.
  // The lease runs from the `now` the claim is given, not from when the claim returns (under load
  // those are tens of milliseconds apart, and the live worker may rightly take over in between).
  const claimedAt = Date.now();
  const [claimed] = await claimDueEmails(db, { workerId: 'killed', leaseMs: 300, now: new Date(claimedAt), limit: 1, maxAttempts: 3 });
  assert.equal(claimed?.id, queued.id);
  worker(t, db, smtp.url);

  const mail = await eventually(() => smtp.received[0], 'the message to be sent by the live worker');
  assert.ok(Date.now() - claimedAt >= 300, 'not before the dead sender’s lease lapsed');
  assert.equal(mail.messageId, queued.messageId);
  const sent = await eventually(async () => {
    const r = await row(db, queued.id);
    return r.status === 'sent' ? r : undefined;
  }, 'the message to be marked sent');
  assert.equal(sent.attempts, 2);
});

test('two workers on one database never send one message twice', async (t) => {
  const db = await freshDb(t);
  const smtp = await startSmtpServer(t);
  const ids = new Set<string>();
  for (let i = 0; i < 30; i++)
    ids.add((await queueEmail(db, message({ to: { address: `person${i}@example.org` } }), new Date())).messageId);
  worker(t, db, smtp.url, { concurrency: 4 });
  worker(t, db, smtp.url, { concurrency: 4 });

  await eventually(async () => {
    const left = await db.selectFrom('email_outbox').select('id').where('status', '!=', 'sent').execute();
    return left.length === 0;
  }, 'every message to be sent');
  assert.equal(smtp.attempts.length, 30, 'one attempt per message');
  assert.deepEqual(new Set(smtp.received.map((m) => m.messageId)), ids);
  const attempts = await db.selectFrom('email_outbox').select('attempts').execute();
  assert.ok(attempts.every((r) => r.attempts === 1));
});

test('nothing a person typed adds a header: line breaks and controls in names and subjects are cleaned, long subjects cut', async (t) => {
  const db = await freshDb(t);
  const smtp = await startSmtpServer(t);
  const attacks = [
    { name: 'Eve\r\nBcc: victim@evil.example', subject: 'Hello\r\nBcc: victim@evil.example' },
    { name: 'Eve\nX-Injected: yes', subject: 'Hi\nX-Injected: yes\n\n<html>body</html>' },
    { name: 'Eve\u2028Bcc: victim@evil.example\u0085', subject: 'Hi\u2029X-Injected: yes\u202Eevil' },
    { name: `"Eve" <victim@evil.example>, ${'x'.repeat(300)}`, subject: `Long ${'subject '.repeat(400)}` },
  ];
  for (const attack of attacks) {
    await queueEmail(db, message({ to: { address: 'grace@example.org', name: attack.name }, subject: attack.subject }), new Date());
  }
  worker(t, db, smtp.url);
  await eventually(() => smtp.received.length === attacks.length, 'every message to arrive');

  for (const mail of smtp.received) {
    assert.deepEqual(mail.envelope.to, ['grace@example.org'], 'one recipient, whatever the name said');
    assert.equal(mail.parsed.bcc, undefined);
    assert.equal(mail.parsed.headers.get('x-injected'), undefined);
    const headerBlock = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'));
    assert.doesNotMatch(headerBlock, /^(Bcc|X-Injected):/im);
    for (const line of headerBlock.split('\r\n')) assert.ok(line.length <= 998, 'every header line within RFC 5322’s limit');
    const subject = mail.parsed.subject ?? '';
    assert.doesNotMatch(subject, /[\r\n\u2028\u2029\u202E]/);
    assert.ok([...subject].length <= 200, `subject bounded (${subject.length})`);
    const to = mail.parsed.to && !Array.isArray(mail.parsed.to) ? mail.parsed.to.value : [];
    assert.equal(to.length, 1);
    assert.equal(to[0]?.address, 'grace@example.org');
    assert.doesNotMatch(to[0]?.name ?? '', /[\r\n\u2028]/);
  }
  const long = smtp.received.find((m) => m.parsed.subject?.startsWith('Long'));
  assert.match(long?.parsed.subject ?? '', /…$/);
});

test('credentials in CUEPOINT_SMTP_URL are used (plain SMTP to this machine); wrong ones leave the message waiting', async (t) => {
  const db = await freshDb(t);
  const smtp = await startSmtpServer(t, { auth: { user: 'cuepoint@example.com', pass: 'p@ss:word/1' } });
  const queued = await queueEmail(db, message(), new Date());
  worker(t, db, smtp.url);
  await eventually(() => smtp.received.length === 1, 'the message to arrive');
  assert.equal(smtp.received[0]?.messageId, queued.messageId);

  const db2 = await freshDb(t);
  const waiting = await queueEmail(db2, message(), new Date());
  worker(t, db2, smtp.url.replace('p%40ss', 'wrong'), { retryPolicy: { firstDelayMs: 60_000, maxDelayMs: 60_000, maxAttempts: 5 } });
  const r = await eventually(async () => {
    const current = await row(db2, waiting.id);
    return current.attempts === 1 && current.lease_until === null ? current : undefined;
  }, 'the refused login to be recorded');
  assert.equal(r.status, 'queued', 'refused credentials are the setting’s fault, not the message’s: it waits');
  assert.match(r.last_error ?? '', /EAUTH/);
});

test('with no SMTP server, messages wait in the outbox and each link is logged once, with its purpose and recipient', async (t) => {
  const db = await freshDb(t);
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  const log: Log = { info: (obj, msg = '') => lines.push({ obj: obj as Record<string, unknown>, msg }), warn() {}, error() {} };
  const invitation = await queueEmail(db, message(), new Date());
  const signIn = await queueEmail(
    db,
    message({ purpose: 'sign_in_link', to: { address: 'ada@example.com' }, link: 'https://videos.example.com/sign-in/xyz' }),
    new Date(),
  );
  await queueEmail(db, message({ purpose: 'password_changed', link: undefined }), new Date());
  // Two processes share the database; each link is still logged by one of them, once.
  worker(t, db, null, { log });
  worker(t, db, null, { log });

  const linkLines = () => lines.filter((line) => 'link' in line.obj);
  await eventually(() => linkLines().length === 2, 'both links to be logged');
  const late = await queueEmail(db, message({ to: { address: 'late@example.com' }, link: 'https://videos.example.com/late' }), new Date());
  await eventually(() => linkLines().length === 3, 'a message queued later to be logged too');
  await new Promise((resolve) => setTimeout(resolve, 200)); // ten more polls of each worker
  const logged = linkLines().map((line) => line.obj);
  assert.equal(logged.length, 3, 'each link logged once');
  assert.deepEqual(
    logged.map((o) => [o.email_id, o.purpose, o.to, o.link]).sort(),
    [
      [invitation.id, 'invitation', 'grace@example.org', 'https://videos.example.com/invitations/abc?x=1&y=2'],
      [signIn.id, 'sign_in_link', 'ada@example.com', 'https://videos.example.com/sign-in/xyz'],
      [late.id, 'invitation', 'late@example.com', 'https://videos.example.com/late'],
    ].sort(),
  );
  assert.ok(linkLines().some((line) => line.msg.includes('https://videos.example.com/sign-in/xyz')));
  assert.ok(
    lines.some((line) => /no SMTP server/.test(line.msg)),
    'the start says mail is not sent',
  );
  const statuses = await db.selectFrom('email_outbox').select(['status', 'attempts']).execute();
  assert.ok(
    statuses.every((s) => s.status === 'queued' && s.attempts === 0),
    'nothing sent, nothing lost',
  );
});

/** A loopback port that refuses connections: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const INVITATION = [
  'BEGIN:VCALENDAR',
  'PRODID:-//Cuepoint//Scheduling//EN',
  'VERSION:2.0',
  'METHOD:REQUEST',
  'BEGIN:VEVENT',
  'UID:booking-1@videos.example.com',
  'DTSTAMP:20261130T090000Z',
  'SEQUENCE:0',
  'DTSTART:20261201T150000Z',
  'DTEND:20261201T153000Z',
  'SUMMARY:Intro call',
  'ORGANIZER;CN=Olive Owner:mailto:olive@acme.example',
  'ATTENDEE;CN=Grace Hopper;PARTSTAT=ACCEPTED:mailto:grace@example.org',
  'STATUS:CONFIRMED',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

test('a message with a calendar invitation arrives with its text/calendar part, method and all', async (t) => {
  const db = await freshDb(t);
  const smtp = await startSmtpServer(t);
  const queued = await db
    .transaction()
    .execute((trx) =>
      queueEmail(trx, message({ purpose: 'booking_confirmation', calendar: { method: 'REQUEST', content: INVITATION } }), new Date()),
    );
  assert.deepEqual(
    await db.selectFrom('email_outbox').select(['calendar_method', 'calendar_body']).where('id', '=', queued.id).executeTakeFirstOrThrow(),
    { calendar_method: 'REQUEST', calendar_body: INVITATION },
  );
  worker(t, db, smtp.url);
  const mail = await eventually(() => smtp.received[0], 'the message to arrive');
  assert.match(mail.raw, /^Content-Type: text\/calendar; charset=utf-8; method=REQUEST/im, 'the part a calendar reads, with its method');
  assert.match(mail.parsed.text ?? '', /Join Acme <Videos> on Cuepoint/, 'the words are still there');
  const calendarPart = mail.parsed.attachments.find((part) => part.contentType === 'text/calendar');
  assert.ok(calendarPart, 'mailparser sees the calendar part');
  const event = new ICAL.Component(ICAL.parse(calendarPart.content.toString('utf8'))).getFirstSubcomponent('vevent');
  assert.equal(event?.getFirstPropertyValue('uid'), 'booking-1@videos.example.com');

  for (const calendar of [
    { method: 'PUBLISH', content: INVITATION },
    { method: 'CANCEL', content: INVITATION },
    { method: 'REQUEST', content: 'not a calendar' },
    { method: 'REQUEST', content: `${INVITATION}${'X'.repeat(70_000)}` },
  ]) {
    await assert.rejects(
      db.transaction().execute((trx) => queueEmail(trx, message({ calendar: calendar as OutgoingEmail['calendar'] }), new Date())),
      /calendar part/,
      calendar.method,
    );
  }
});
