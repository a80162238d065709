/**
 * The leads inbox (/app/leads): every role that reads leads sees it, masked as the workspace says;
 * list_leads' filters and sort arrive as a GET form; pages follow the operation's cursor; a filter the
 * operation refuses comes back beside its field.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

test('the inbox lists leads masked for every role, filtered, sorted and paged as list_leads answers', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const ada = await ws.addLead({ email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', status: 'qualified', tags: ['vip'] });
  await ws.addLead({ email: 'bob@example.com', first_name: 'Bob', status: 'new' });
  for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
    const person = await ws.addMember({ role, password: PASSWORD });
    const page = await (await signIn(harness.app, person.email, PASSWORD)).get('/app/leads');
    assert.equal(page.statusCode, 200, role);
    assert.match(page.body, /<h1>Leads<\/h1>/);
    assert.match(page.body, /a\*\*\*@e\*\*\*\.com/, `${role} sees the masked address`);
    assert.ok(!page.body.includes('ada@example.com'), `${role} never sees the address unmasked`);
    assert.match(page.body, new RegExp(`href="/app/leads/${ada}"`));
  }
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const person = await signIn(harness.app, owner.email, PASSWORD);
  const qualified = await person.get('/app/leads?status=qualified&sort=newest');
  assert.match(qualified.body, /1 lead match/);
  assert.match(qualified.body, /<option value="qualified" selected>/);
  assert.match(qualified.body, /<option value="newest" selected>/);
  assert.match(qualified.body, /vip/);
  // While masked, a whole address still finds its lead.
  const found = await person.get('/app/leads?search=bob%40example.com');
  assert.match(found.body, /1 lead match/);
  assert.match(found.body, /b\*\*\*@e\*\*\*\.com/);
  const none = await person.get('/app/leads?status=lost');
  assert.match(none.body, /No leads match these filters/);
  // A range the operation refuses: the problem beside the field, the values kept.
  const backwards = await person.get('/app/leads?from_date=2026-05-02&to_date=2026-05-01');
  assert.equal(backwards.statusCode, 400);
  assert.match(backwards.body, /id="leads-from_date"[^>]*value="2026-05-02"[^>]*aria-invalid="true"/);
  assert.match(backwards.body, /id="leads-from_date-error">Captured from must be on or before to_date/);
});

test('the inbox pages with the cursor list_leads gives', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  for (let i = 0; i < 27; i += 1) await ws.addLead({ email: `lead-${i}@example.com`, tags: ['batch'] });
  const viewer = await ws.addMember({ role: 'viewer', password: PASSWORD });
  const person = await signIn(harness.app, viewer.email, PASSWORD);
  const first = await person.get('/app/leads?sort=oldest');
  assert.match(first.body, /27 leads\./);
  assert.equal((first.body.match(/class="lead-name"/g) ?? []).length, 25);
  const next = /href="(\/app\/leads\?sort=oldest&#38;cursor=[^"]+)"/.exec(first.body)?.[1];
  assert.ok(next, 'a link to the next page, filters kept');
  const second = await person.get(next.replaceAll('&#38;', '&'));
  assert.equal(second.statusCode, 200);
  assert.equal((second.body.match(/class="lead-name"/g) ?? []).length, 2);
  assert.match(second.body, />First page</);
  assert.ok(!second.body.includes('rel="next"'));
});
