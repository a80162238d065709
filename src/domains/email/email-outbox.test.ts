/**
 * The outbox as writers, owners and erasure use it, on the shared test database (scoped by the
 * workspaces each test makes): a message commits or rolls back with the transaction that queued it;
 * what will become headers is stored clean and bounded; bad messages are refused before they are
 * stored; owners list their workspace's messages newest first by cursor, never another's; erasure
 * removes every message to or mentioning an address and nothing else.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../test/helpers/app.ts';
import { eraseEmailsTo, listQueuedEmails, type OutgoingEmail, queueEmail, renderEmail, UndeliverableAddressError } from './index.ts';

const T0 = new Date('2026-05-01T12:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

function message(workspaceId: string | null, fields: Partial<OutgoingEmail> = {}): OutgoingEmail {
  return {
    workspaceId,
    to: { address: 'grace@example.org', name: 'Grace' },
    subject: 'Welcome',
    ...renderEmail({ heading: 'Welcome', paragraphs: ['Hello.'] }),
    purpose: 'invitation',
    ...fields,
  };
}

test('a message commits with the transaction that queued it, and rolls back with it', async (t) => {
  const app = await startTestApp(t);
  const ws = await app.workspace();
  const db = app.database.db;
  const kept = await db.transaction().execute((trx) => queueEmail(trx, message(ws.id, { subject: 'kept' }), T0));
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await queueEmail(trx, message(ws.id, { subject: 'rolled back' }), T0);
      throw new Error('the change failed');
    }),
    /the change failed/,
  );
  const rows = await db
    .selectFrom('email_outbox')
    .select(['id', 'subject', 'status', 'message_id'])
    .where('workspace_id', '=', ws.id)
    .execute();
  assert.deepEqual(rows, [{ id: kept.id, subject: 'kept', status: 'queued', message_id: kept.messageId }]);
});

test('names and subjects are stored as one clean, bounded line; the domain of the address in lower case', async (t) => {
  const app = await startTestApp(t);
  const ws = await app.workspace();
  const { id } = await queueEmail(
    app.database.db,
    message(ws.id, {
      to: { address: ' Grace@Example.ORG ', name: '\u202EEve\r\n\tBcc: x@evil.example\u0000' },
      subject: `Hi\r\nBcc: x@evil.example ${'long '.repeat(100)}`,
    }),
    T0,
  );
  const row = await app.database.db.selectFrom('email_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  assert.equal(row.to_address, 'Grace@example.org');
  assert.equal(row.to_name, 'Eve Bcc: x@evil.example');
  assert.match(row.subject, /^Hi Bcc: x@evil\.example long long/);
  assert.equal([...row.subject].length, 200);
  assert.ok(row.subject.endsWith('…'));
  assert.equal(row.next_attempt_at?.toISOString(), T0.toISOString());

  const blankName = await queueEmail(app.database.db, message(ws.id, { to: { address: 'a@example.com', name: ' \r\n ' } }), T0);
  const blank = await app.database.db.selectFrom('email_outbox').select('to_name').where('id', '=', blankName.id).executeTakeFirstOrThrow();
  assert.equal(blank.to_name, null);
});

test('a message that cannot be sent is refused before it is stored', async (t) => {
  const app = await startTestApp(t);
  const ws = await app.workspace();
  const db = app.database.db;
  for (const address of [
    'grace',
    'grace@localhost',
    'a@b@example.com',
    'grace@example.org\r\nBcc: x@y.z',
    '"a b"@example.com',
    'a..b@example.com',
  ]) {
    await assert.rejects(queueEmail(db, message(ws.id, { to: { address } }), T0), UndeliverableAddressError, address);
  }
  await assert.rejects(queueEmail(db, message(ws.id, { subject: '\r\n' }), T0), /needs a subject/);
  await assert.rejects(queueEmail(db, message(ws.id, { purpose: 'Sign in' }), T0), /snake_case/);
  await assert.rejects(queueEmail(db, message(ws.id, { text: ' ' }), T0), /text part/);
  await assert.rejects(queueEmail(db, message(ws.id, { link: 'javascript:alert(1)' }), T0), /http\(s\) URL/);
  const count = await db
    .selectFrom('email_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', ws.id)
    .executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 0);
});

test('owners list their workspace’s messages newest first, a page at a time, filtered by status, and no other workspace’s', async (t) => {
  const app = await startTestApp(t);
  const ws = await app.workspace();
  const other = await app.workspace();
  const db = app.database.db;
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await queueEmail(db, message(ws.id, { subject: `Message ${i}` }), at(i))).id);
  await queueEmail(db, message(other.id, { subject: 'Not yours' }), at(10));
  await queueEmail(db, message(null, { subject: 'A sign-in link', purpose: 'sign_in_link' }), at(10));
  await db
    .updateTable('email_outbox')
    .set({ status: 'sent', sent_at: at(20) })
    .where('id', '=', ids[1]!)
    .execute();

  const first = await listQueuedEmails(db, ws.id, { limit: 2 });
  assert.equal(first.total, 5);
  assert.deepEqual(
    first.rows.map((r) => r.subject),
    ['Message 4', 'Message 3', 'Message 2'],
    'a page and one more, so the caller knows more follow',
  );
  const second = await listQueuedEmails(db, ws.id, { limit: 2, after: first.keys[1] });
  assert.deepEqual(
    second.rows.map((r) => r.subject),
    ['Message 2', 'Message 1', 'Message 0'],
  );
  const item = second.rows[1]!;
  assert.equal(item.status, 'sent');
  assert.equal(item.to_address, 'grace@example.org');
  assert.match(item.text_body, /Hello\./);
  assert.equal('html_body' in item, false, 'the list carries the plain part only');
  const sent = await listQueuedEmails(db, ws.id, { limit: 10, status: 'sent' });
  assert.deepEqual(
    sent.rows.map((r) => r.id),
    [ids[1]],
  );
  assert.equal(sent.total, 1);
});

test('erasure removes every message of the workspace to or mentioning the address, and nothing else', async (t) => {
  const app = await startTestApp(t);
  const ws = await app.workspace();
  const other = await app.workspace();
  const db = app.database.db;
  const person = "O'Brien+video@Example.com";
  const mention = renderEmail({ heading: 'New lead', paragraphs: [`${person} filled in your form.`] });
  await queueEmail(db, message(ws.id, { to: { address: person } }), T0);
  await queueEmail(db, message(ws.id, { to: { address: 'owner@example.com' }, subject: 'New lead', ...mention }), T0);
  await queueEmail(db, message(ws.id, { to: { address: 'owner@example.com' }, subject: `Lead ${person.toUpperCase()}` }), T0);
  await queueEmail(db, message(ws.id, { link: `https://videos.example.com/leads?email=${encodeURIComponent(person)}` }), T0);
  // Only the HTML part names it (as HTML writes it): still removed.
  const htmlOnly = renderEmail({ heading: 'Lead', paragraphs: [person] });
  await queueEmail(db, message(ws.id, { to: { address: 'owner@example.com' }, html: htmlOnly.html }), T0);
  const unrelated = await queueEmail(db, message(ws.id, { to: { address: 'brien+video@example.com' } }), T0);
  const elsewhere = await queueEmail(db, message(other.id, { to: { address: person } }), T0);

  assert.equal(await eraseEmailsTo(db, ws.id, person.toLowerCase()), 5);
  const left = await db.selectFrom('email_outbox').select('id').where('workspace_id', 'in', [ws.id, other.id]).execute();
  assert.deepEqual(left.map((r) => r.id).sort(), [unrelated.id, elsewhere.id].sort());
  assert.equal(await eraseEmailsTo(db, ws.id, person), 0);
  await assert.rejects(eraseEmailsTo(db, ws.id, ' '), /needs an email address/);
});

test('erasure finds an address as a whole: at the end of a sentence, but not inside a longer address', async (t) => {
  const app = await startTestApp(t);
  const ws = await app.workspace();
  const db = app.database.db;
  const sentence = await queueEmail(db, message(ws.id, { to: { address: 'owner@example.com' }, subject: 'Write to bob@example.com.' }), T0);
  const inLink = await queueEmail(db, message(ws.id, { link: 'https://videos.example.com/leads?email=bob%40example.com&x=1' }), T0);
  const longer = [
    await queueEmail(db, message(ws.id, { to: { address: 'jimbob@example.com' } }), T0),
    await queueEmail(db, message(ws.id, { subject: 'From jim.bob@example.com and bob@example.community' }), T0),
    await queueEmail(db, message(ws.id, { link: 'https://videos.example.com/leads?email=jim%2Bbob%40example.com' }), T0),
  ];
  assert.equal(await eraseEmailsTo(db, ws.id, 'Bob@Example.com'), 2);
  const left = await db.selectFrom('email_outbox').select('id').where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(left.map((r) => r.id).sort(), longer.map((m) => m.id).sort());
  assert.ok(![sentence.id, inLink.id].some((id) => left.some((r) => r.id === id)));
});
