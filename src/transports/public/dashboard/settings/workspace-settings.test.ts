/**
 * The Workspace tab (issue 28): everyone who reads the workspace sees its settings, plan and usage;
 * owners and admins change them through update_workspace (checked through the API), problems come back
 * next to their fields with the values kept, a viewer is offered no form and refused anyway, and a
 * post without the session's CSRF token changes nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { csrfOf, signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

test('an admin changes the workspace settings; problems come back beside their fields', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const admin = await ws.addMember({ role: 'admin', password: PASSWORD });
  const person = await signIn(harness.app, admin.email, PASSWORD);
  const page = await person.get('/app/settings');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<a href="\/app\/settings" aria-current="page">Workspace<\/a>/);
  assert.match(page.body, /Plan and usage/);
  assert.match(page.body, /<a href="\/app\/settings\/members">Members<\/a>/);
  const csrf = csrfOf(page.body);

  const slug = `acme-videos-${ws.id.slice(0, 8)}`;
  const fields = { name: 'Acme Videos', slug, timezone: 'Europe/Paris', mask_pii: 'true', assistant_guidance: 'Be brief.' };
  assert.equal((await person.post('/app/settings/workspace', fields)).statusCode, 403, 'no CSRF token');
  const saved = await person.post('/app/settings/workspace', { csrf, ...fields });
  assert.equal(saved.statusCode, 303);
  assert.equal(saved.headers.location, '/app/settings?done=saved');
  const api = await harness.request('GET', '/v1/workspace', { token: ws.key });
  assert.equal(api.body.name, 'Acme Videos');
  assert.equal(api.body.settings.timezone, 'Europe/Paris');
  assert.equal(api.body.settings.mask_pii, true);
  assert.equal(api.body.settings.channel_slug, slug);
  assert.equal(api.body.assistant_guidance, 'Be brief.');
  assert.match((await person.get('/app/settings?done=saved')).body, /Settings saved\./);

  // Unticked, masking goes off: the checkbox's absence is the answer.
  await person.post('/app/settings/workspace', { csrf, ...fields, mask_pii: '' });
  assert.equal((await harness.request('GET', '/v1/workspace', { token: ws.key })).body.settings.mask_pii, false);

  const wrong = await person.post('/app/settings/workspace', { csrf, ...fields, name: 'Still typed', slug: 'No Spaces Allowed!' });
  assert.equal(wrong.statusCode, 400);
  assert.match(
    wrong.body,
    /id="f-slug" name="slug" type="text" value="No Spaces Allowed!" aria-describedby="f-slug-hint f-slug-error" aria-invalid="true"/,
  );
  assert.match(wrong.body, /<span class="field-error" id="f-slug-error">/);
  assert.match(wrong.body, /value="Still typed"/, 'the other values are kept');
  assert.equal((await harness.request('GET', '/v1/workspace', { token: ws.key })).body.name, 'Acme Videos', 'nothing changed');

  const stripe = await person.post('/app/settings/workspace/stripe', { csrf, stripe_webhook_secret: 'not-a-secret' });
  assert.equal(stripe.statusCode, 400);
  assert.match(stripe.body, /id="f-stripe-error"/);
  const connected = await person.post('/app/settings/workspace/stripe', { csrf, stripe_webhook_secret: 'whsec_0123456789abcdefABCDEF' });
  assert.equal(connected.statusCode, 303);
  assert.equal((await harness.request('GET', '/v1/workspace', { token: ws.key })).body.settings.stripe_webhook_configured, true);
  await person.post('/app/settings/workspace/stripe', { csrf, remove: 'true' });
  assert.equal((await harness.request('GET', '/v1/workspace', { token: ws.key })).body.settings.stripe_webhook_configured, false);
});

test('a viewer reads the settings with no form and no manager tabs, and is refused a change', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const viewer = await ws.addMember({ role: 'viewer', password: PASSWORD });
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  for (const who of [viewer, member]) {
    const person = await signIn(harness.app, who.email, PASSWORD);
    const page = await person.get('/app/settings');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Only owners and admins change these settings\./);
    assert.doesNotMatch(page.body, /action="\/app\/settings\/workspace"/);
    assert.doesNotMatch(page.body, /href="\/app\/settings\/members"/);
    assert.match(page.body, /Your access/);
    const csrf = csrfOf(page.body);
    const refused = await person.post('/app/settings/workspace', { csrf, name: 'Hijacked', slug: 'x', timezone: 'UTC' });
    assert.equal(refused.statusCode, 403);
    assert.equal((await person.get('/app/settings/members')).statusCode, 403);
  }
  assert.notEqual((await harness.request('GET', '/v1/workspace', { token: ws.key })).body.name, 'Hijacked');
});
