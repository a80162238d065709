/**
 * The Email tab (issue 28, DESIGN §10): the workspace's outbox through list_emails, for owners and
 * admins; with no mail server an invitation waits there as Queued with the link to hand over; the
 * status tabs filter; a failed message says why; another workspace's and sign-in messages are not
 * listed; a member is neither offered nor allowed the tab; no key reaches list_emails.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

test('an invitation waits in the Email tab with its link; the status tabs filter; a failure says why', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', name: 'Olive Owner', password: PASSWORD });
  const invited = await harness.request('POST', '/v1/members', { token: ws.key, body: { email: 'grace@example.com', role: 'admin' } });
  assert.equal(invited.status, 201, invited.raw);
  const other = await harness.workspace();
  await harness.request('POST', '/v1/members', { token: other.key, body: { email: 'stranger@example.com' } });

  const person = await signIn(harness.app, owner.email, PASSWORD);
  const page = await person.get('/app/settings/email');
  assert.equal(page.statusCode, 200, page.body);
  assert.match(page.body, /aria-current="page">Email</);
  assert.match(page.body, /<span class="status queued">Queued<\/span>/);
  assert.match(page.body, /<span class="mono">grace@example\.com<\/span>/);
  assert.match(page.body, /Invitation · queued /);
  assert.match(page.body, /not tried yet/);
  const link = /<input id="link-[^"]+" type="text" readonly value="([^"]+)"/.exec(page.body)?.[1];
  assert.ok(link?.includes('/invitations/'), `the invitation's link to hand over: ${link}`);
  assert.match(page.body, /<details><summary>Read the message<\/summary><pre class="email-text">Join Test [0-9a-f]+ on Cuepoint\n/);
  assert.doesNotMatch(page.body, /stranger@example\.com/, 'another workspace’s messages are not listed');
  assert.match(page.body, /1 message, newest first/);

  assert.match((await person.get('/app/settings/email?status=sent')).body, /No sent messages\./);
  const row = await harness.database.db.selectFrom('email_outbox').select('id').where('workspace_id', '=', ws.id).executeTakeFirstOrThrow();
  await harness.database.db
    .updateTable('email_outbox')
    .set({ status: 'failed', attempts: 3, last_error: '550 5.1.1 <grace@example.com>: mailbox unavailable', next_attempt_at: null })
    .where('id', '=', row.id)
    .execute();
  const failed = await person.get('/app/settings/email?status=failed');
  assert.match(failed.body, /<span class="status failed">Failed<\/span>/);
  assert.match(failed.body, /3 attempts/);
  assert.match(failed.body, /Last error: 550 5\.1\.1 &#60;grace@example\.com&#62;: mailbox unavailable/);
  assert.match(failed.body, /<a href="\/app\/settings\/email\?status=failed" aria-current="page">Failed<\/a>/);
  // A status no tab offers shows every message instead of failing.
  assert.match((await person.get('/app/settings/email?status=bogus')).body, /1 message, newest first/);
});

test('a member is not offered the Email tab and is refused it; no key reaches list_emails', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const person = await signIn(harness.app, member.email, PASSWORD);
  const settings = await person.get('/app/settings');
  assert.equal(settings.statusCode, 200);
  assert.doesNotMatch(settings.body, /href="\/app\/settings\/email"/);
  assert.equal((await person.get('/app/settings/email')).statusCode, 403);
  const api = await harness.request('GET', '/v1/emails', { token: ws.key });
  assert.equal(api.status, 404, api.raw);
});
