/**
 * The lead page (/app/leads/{id}): every role reads it; its journey, notes, outcomes come from the
 * operations; "Add note" and "Status and tags" write through update_lead for roles with leads:write,
 * refuse without the CSRF token and for a viewer, and bring problems back beside their field.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { csrfOf, signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

test('the lead page shows the journey, notes and outcomes to every role, the forms only to writers', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Pricing explained' });
  const leadId = await ws.addLead({ email: 'grace@example.com', first_name: 'Grace' });
  const note = await harness.request('PATCH', `/v1/leads/${leadId}`, { token: ws.key, body: { notes: 'Asked about the annual plan' } });
  assert.equal(note.status, 200);
  const sale = await harness.request('POST', '/v1/outcomes', {
    token: ws.key,
    body: { kind: 'purchase', amount: 4900, currency: 'USD', lead_id: leadId, video_id: videoId },
  });
  assert.equal(sale.status, 201);
  for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
    const person = await ws.addMember({ role, password: PASSWORD });
    const page = await (await signIn(harness.app, person.email, PASSWORD)).get(`/app/leads/${leadId}`);
    assert.equal(page.statusCode, 200, role);
    assert.match(page.body, /<h2 id="journey-heading">Journey<\/h2>/);
    assert.match(page.body, /Purchase \$49\.00/, 'the purchase is a step of the journey');
    assert.match(page.body, /<svg [^>]*role="img" aria-labelledby="journey-chart-title journey-chart-desc">/, 'the journey drawn');
    assert.match(page.body, />Revenue and calls<\/text>/);
    assert.match(page.body, /Status New → Customer/, 'and so is the status it caused');
    assert.match(page.body, /Asked about the annual plan/);
    assert.match(page.body, /<strong>\$49\.00<\/strong>/, 'net per currency among the outcomes');
    assert.match(page.body, /g\*\*\*@e\*\*\*\.com/);
    assert.ok(!page.body.includes('grace@example.com'), role);
    const writes = role !== 'viewer';
    assert.equal(page.body.includes('>Add note</button>'), writes, `${role}: Add note`);
    assert.equal(page.body.includes('id="lead-status"'), writes, `${role}: status form`);
    assert.equal(page.body.includes('>Record an outcome</a>'), writes, `${role}: record an outcome`);
    const manager = role === 'owner' || role === 'admin';
    assert.equal(page.body.includes('>Reveal</button>'), manager, `${role}: Reveal`);
    assert.equal(page.body.includes('>Delete lead</button>'), manager, `${role}: Delete lead`);
  }
});

test('notes, status and tags are written through update_lead; problems come back beside their field', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const leadId = await ws.addLead({ email: 'linus@example.com' });
  const member = await ws.addMember({ role: 'member', name: 'Mia', password: PASSWORD });
  const person = await signIn(harness.app, member.email, PASSWORD);
  const csrf = csrfOf((await person.get(`/app/leads/${leadId}`)).body);

  assert.equal((await person.post(`/app/leads/${leadId}/notes`, { notes: 'no token' })).statusCode, 403, 'no CSRF token');
  const added = await person.post(`/app/leads/${leadId}/notes`, { csrf, notes: 'Wants a demo next week' });
  assert.equal(added.statusCode, 303);
  assert.equal(added.headers.location, `/app/leads/${leadId}?done=note`);
  const lead = await harness.request('GET', `/v1/leads/${leadId}`, { token: ws.key });
  const notes = lead.body.history.filter((e: { kind: string }) => e.kind === 'note');
  assert.deepEqual(
    notes.map((e: { note: { body: string; author: string } }) => [e.note.body, e.note.author]),
    [['Wants a demo next week', 'Mia']],
  );
  assert.match((await person.get(added.headers.location as string)).body, /Note added\./);

  const blank = await person.post(`/app/leads/${leadId}/notes`, { csrf, notes: '   ' });
  assert.equal(blank.statusCode, 400);
  assert.match(blank.body, /<textarea id="lead-note"[^>]*aria-invalid="true"[^>]*> {3}<\/textarea>/);
  assert.match(blank.body, /id="lead-note-error">The note must not be blank/);

  const saved = await person.post(`/app/leads/${leadId}/edit`, { csrf, status: 'qualified', tags: 'vip, webinar ,, q4' });
  assert.equal(saved.statusCode, 303);
  const after = await harness.request('GET', `/v1/leads/${leadId}`, { token: ws.key });
  assert.equal(after.body.status, 'qualified');
  assert.deepEqual(after.body.tags, ['vip', 'webinar', 'q4']);

  const tooLong = await person.post(`/app/leads/${leadId}/edit`, { csrf, status: 'lost', tags: `fine, ${'x'.repeat(300)}` });
  assert.equal(tooLong.statusCode, 400);
  assert.match(tooLong.body, /id="lead-tags"[^>]*value="fine, x{300}"/, 'what was typed is kept');
  assert.match(tooLong.body, /id="lead-tags-error">Tags /);
  assert.match(tooLong.body, /<option value="lost" selected>/);
  assert.equal((await harness.request('GET', `/v1/leads/${leadId}`, { token: ws.key })).body.status, 'qualified', 'nothing written');
});

test('a viewer is refused the lead forms by the server as well', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const leadId = await ws.addLead();
  const viewer = await ws.addMember({ role: 'viewer', password: PASSWORD });
  const person = await signIn(harness.app, viewer.email, PASSWORD);
  const csrf = csrfOf((await person.get(`/app/leads/${leadId}`)).body);
  assert.equal((await person.post(`/app/leads/${leadId}/notes`, { csrf, notes: 'sneaky' })).statusCode, 403);
  assert.equal((await person.post(`/app/leads/${leadId}/edit`, { csrf, status: 'lost', tags: '' })).statusCode, 403);
  assert.equal((await person.post(`/app/leads/${leadId}/reveal`, { csrf })).statusCode, 403);
  assert.equal((await person.post(`/app/leads/${leadId}/delete`, { csrf })).statusCode, 403);
  const lead = await harness.request('GET', `/v1/leads/${leadId}`, { token: ws.key });
  assert.equal(lead.body.status, 'new');
  assert.equal(lead.body.history.filter((e: { kind: string }) => e.kind === 'note').length, 0);
  assert.equal((await person.get(`/app/leads/${crypto.randomUUID()}`)).statusCode, 404);
});
