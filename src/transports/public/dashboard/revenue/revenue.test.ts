/**
 * The revenue pages: the ledger with its filters, per-currency totals (never added together), revenue
 * by day and attribution for every role that reads outcomes; recording an outcome and a refund by hand
 * for roles with outcomes:write (refused without CSRF and for a viewer, problems beside their field);
 * the Stripe connection's state, and its secret set by owners and admins only.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { csrfOf, signIn } from '../../../../../test/helpers/people.ts';
import { minorUnits } from './record-outcome-page.ts';

const PASSWORD = 'correct horse battery staple';

test('amounts are read as people write them, in the currency’s minor units', () => {
  assert.equal(minorUnits('49.00', 'USD'), 4900);
  assert.equal(minorUnits('1,250.5', 'EUR'), 125050);
  assert.equal(minorUnits('500', 'JPY'), 500);
  assert.equal(minorUnits('5.5', 'JPY'), undefined);
  assert.equal(minorUnits('-3', 'USD'), undefined);
  assert.equal(minorUnits('12.345', 'USD'), undefined);
  assert.equal(minorUnits('abc', 'USD'), undefined);
});

test('every role reads the ledger, its totals per currency, the chart and the Stripe state', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Product tour' });
  const leadId = await ws.addLead({ email: 'ada@example.com', first_name: 'Ada' });
  const record = async (body: Record<string, unknown>) => {
    const answer = await harness.request('POST', '/v1/outcomes', { token: ws.key, body });
    assert.equal(answer.status, 201, answer.raw);
    return answer.body.outcome_id as string;
  };
  const purchase = await record({ kind: 'purchase', amount: 12000, currency: 'USD', lead_id: leadId, video_id: videoId });
  await record({ kind: 'refund', amount: 2000, currency: 'USD', lead_id: leadId, refunds_outcome_id: purchase });
  await record({ kind: 'purchase', amount: 9900, currency: 'EUR', email: 'bo@example.com', description: 'Workshop seat' });
  await record({ kind: 'booked_call', amount: 0, currency: 'USD', lead_id: leadId, status: 'pending' });
  for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
    const person = await ws.addMember({ role, password: PASSWORD });
    const page = await (await signIn(harness.app, person.email, PASSWORD)).get('/app/revenue');
    assert.equal(page.statusCode, 200, role);
    assert.match(page.body, /<h1>Revenue<\/h1>/);
    assert.match(page.body, /Net revenue · USD<\/p><p class="value">\$100\.00</, 'USD net: 120 − 20');
    assert.match(page.body, /Net revenue · EUR<\/p><p class="value">€99\.00</, 'EUR on its own');
    assert.match(page.body, /4 entries/);
    assert.match(page.body, /<figure class="chart"[^>]*><figcaption id="revenue-usd-caption">Net revenue in USD/);
    assert.match(page.body, /id="revenue-eur-table"/, 'the numbers beside the chart');
    assert.match(page.body, /−\$20\.00/, 'a refund as money going out');
    assert.match(page.body, /a\*\*\*@e\*\*\*\.com|A\*\*\*/, 'the lead masked');
    assert.ok(!page.body.includes('ada@example.com'));
    assert.match(page.body, /<span class="badge">Not connected<\/span>/);
    assert.match(page.body, new RegExp(`/stripe/webhooks/${ws.id}`));
    const writes = role !== 'viewer';
    assert.equal(page.body.includes('>Record an outcome</a>'), writes, `${role}: record`);
    assert.equal(/>Refund<\/a>/.test(page.body), writes, `${role}: refund`);
    const manager = role === 'owner' || role === 'admin';
    assert.equal(page.body.includes('id="stripe-secret"'), manager, `${role}: Stripe secret form`);
  }
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const person = await signIn(harness.app, owner.email, PASSWORD);
  const euros = await person.get('/app/revenue?kind=purchase&status=succeeded');
  assert.match(euros.body, /2 entries match/);
  assert.ok(!euros.body.includes('−$20.00'), 'the refund is filtered out');
  const ofLead = await person.get(`/app/revenue?lead_id=${leadId}`);
  assert.match(ofLead.body, /3 entries match/);
  assert.match(ofLead.body, /<p class="chip">Lead: <a href="\/app\/leads\//);
  const ofVideo = await person.get(`/app/revenue?video_id=${videoId}`);
  const apiOfVideo = await harness.request('GET', `/v1/outcomes?video_id=${videoId}`, { token: ws.key });
  assert.match(ofVideo.body, new RegExp(`${apiOfVideo.body.pagination.total} entries match`), 'what the API says');
  assert.match(ofVideo.body, /<option value="[^"]+" selected>Product tour<\/option>/);
  const backwards = await person.get('/app/revenue?from_date=2026-05-02&to_date=2026-05-01');
  assert.equal(backwards.statusCode, 400);
  assert.match(backwards.body, /id="ledger-from_date"[^>]*value="2026-05-02"/);
  assert.match(backwards.body, /class="field-error" id="ledger-(from|to)_date-error"/);
});

test('recording an outcome and a refund by hand; problems beside their fields; refused without CSRF or the scope', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const leadId = await ws.addLead({ email: 'cy@example.com' });
  const videoId = await ws.addVideo({ title: 'Webinar' });
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const person = await signIn(harness.app, member.email, PASSWORD);
  const form = await person.get(`/app/revenue/new?lead_id=${leadId}`);
  assert.equal(form.statusCode, 200);
  assert.match(form.body, /<input type="hidden" name="lead_id" value="[^"]+">/);
  const csrf = csrfOf(form.body);

  assert.equal((await person.post('/app/revenue/new', { kind: 'purchase', amount: '10', currency: 'USD' })).statusCode, 403, 'no CSRF');
  const wrong = await person.post('/app/revenue/new', {
    csrf,
    kind: 'purchase',
    amount: '49.999',
    currency: 'USD',
    lead_id: leadId,
    description: 'Kept',
  });
  assert.equal(wrong.statusCode, 400);
  assert.match(wrong.body, /id="outcome-amount-error">Amount must be a number such as 49\.00\./);
  assert.match(wrong.body, /value="Kept"/);
  const unknown = await person.post('/app/revenue/new', { csrf, kind: 'purchase', amount: '10', currency: 'XYZ', lead_id: leadId });
  assert.equal(unknown.statusCode, 400);
  assert.match(unknown.body, /id="outcome-currency"[^>]*aria-invalid="true"/);
  assert.match(unknown.body, /id="outcome-currency-error">Currency /);

  const made = await person.post('/app/revenue/new', {
    csrf,
    kind: 'purchase',
    amount: '1,200.50',
    currency: 'eur',
    lead_id: leadId,
    video_id: videoId,
    description: 'Annual plan',
    external_id: 'order-77',
  });
  assert.equal(made.statusCode, 303, made.body.slice(0, 500));
  assert.equal(made.headers.location, '/app/revenue?done=recorded');
  const ledger = await harness.request('GET', `/v1/outcomes?lead_id=${leadId}`, { token: ws.key });
  assert.equal(ledger.body.outcomes.length, 1);
  const entry = ledger.body.outcomes[0];
  assert.deepEqual(
    [entry.kind, entry.value, entry.currency, entry.description, entry.external_id, entry.video?.video_id],
    ['purchase', 120050, 'EUR', 'Annual plan', 'order-77', videoId],
  );
  const again = await person.post('/app/revenue/new', { csrf, kind: 'purchase', amount: '1', currency: 'EUR', external_id: 'order-77' });
  assert.equal(again.headers.location, '/app/revenue?done=exists');

  const refundPage = await person.get('/app/revenue');
  const refundHref = />Refund<\/a>/.test(refundPage.body)
    ? /href="(\/app\/revenue\/new\?kind=refund[^"]+)"/.exec(refundPage.body)?.[1]
    : undefined;
  assert.ok(refundHref, 'a succeeded purchase offers Refund');
  const refundForm = await person.get(refundHref.replaceAll('&#38;', '&').replaceAll('&amp;', '&'));
  assert.match(refundForm.body, /<h1>Record a refund<\/h1>/);
  const tooMuch = await person.post('/app/revenue/new', {
    csrf,
    kind: 'refund',
    refunds_outcome_id: entry.outcome_id,
    amount: '2000',
    currency: 'EUR',
    lead_id: leadId,
  });
  assert.equal(tooMuch.statusCode, 400);
  assert.match(tooMuch.body, /id="outcome-amount-error">Amount must be at most 120050/);
  const refunded = await person.post('/app/revenue/new', {
    csrf,
    kind: 'refund',
    refunds_outcome_id: entry.outcome_id,
    amount: '200.50',
    currency: 'EUR',
    lead_id: leadId,
  });
  assert.equal(refunded.headers.location, '/app/revenue?done=refunded');
  const after = await harness.request('GET', `/v1/outcomes?lead_id=${leadId}&kind=refund`, { token: ws.key });
  assert.equal(after.body.outcomes[0].value, 20050);
  assert.equal(after.body.outcomes[0].refunded_outcome_id, entry.outcome_id);

  const viewer = await ws.addMember({ role: 'viewer', password: PASSWORD });
  const looker = await signIn(harness.app, viewer.email, PASSWORD);
  assert.equal((await looker.get('/app/revenue/new')).statusCode, 403);
  const viewerCsrf = csrfOf((await looker.get('/app/revenue')).body);
  const refused = await looker.post('/app/revenue/new', { csrf: viewerCsrf, kind: 'purchase', amount: '5', currency: 'USD' });
  assert.equal(refused.statusCode, 403);
  assert.equal((await harness.request('GET', '/v1/outcomes', { token: ws.key })).body.pagination.total, 2);
});

test('owners and admins set the Stripe signing secret; a member is refused', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const admin = await ws.addMember({ role: 'admin', password: PASSWORD });
  const person = await signIn(harness.app, admin.email, PASSWORD);
  const csrf = csrfOf((await person.get('/app/revenue')).body);
  const bad = await person.post('/app/revenue/stripe', { csrf, intent: 'save', stripe_webhook_secret: 'sk_live_nope' });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.body, /id="stripe-secret-error">The signing secret must be a Stripe signing secret/);
  const saved = await person.post('/app/revenue/stripe', { csrf, intent: 'save', stripe_webhook_secret: 'whsec_0123456789abcdefABCDEF' });
  assert.equal(saved.statusCode, 303);
  const workspace = await harness.request('GET', '/v1/workspace', { token: ws.key });
  assert.equal(workspace.body.settings.stripe_webhook_configured, true);
  const page = await person.get('/app/revenue?done=stripe-saved');
  assert.match(page.body, /<span class="badge on">Connected<\/span>/);
  assert.ok(!page.body.includes('whsec_0123456789'), 'the secret is never shown again');

  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const other = await signIn(harness.app, member.email, PASSWORD);
  const memberCsrf = csrfOf((await other.get('/app/revenue')).body);
  assert.equal((await other.post('/app/revenue/stripe', { csrf: memberCsrf, intent: 'remove' })).statusCode, 403);
  assert.equal((await person.post('/app/revenue/stripe', { intent: 'remove' })).statusCode, 403, 'no CSRF');
  assert.equal((await harness.request('GET', '/v1/workspace', { token: ws.key })).body.settings.stripe_webhook_configured, true);
  assert.equal((await person.post('/app/revenue/stripe', { csrf, intent: 'remove' })).statusCode, 303);
  assert.equal((await harness.request('GET', '/v1/workspace', { token: ws.key })).body.settings.stripe_webhook_configured, false);
});
