/**
 * The Stripe webhook endpoint with events signed exactly as Stripe signs them (the stripe package's
 * test header helper): the three payment events become ledger entries matched to leads by email,
 * Stripe's retries and the Checkout/PaymentIntent pair write one entry, refunds follow the running
 * total; forged, stale, tampered, unsigned and wrong-secret deliveries, unknown workspaces and
 * workspaces without a secret all get the same 400 and write nothing; a database outage is a 503
 * Stripe retries.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Stripe from 'stripe';
import { startTestApp, type TestApp, type TestWorkspace, testConfig } from '../../../../test/helpers/app.ts';
import { buildApp } from '../../../app.ts';
import { openDatabase } from '../../../db/client.ts';
import { buildDependencies } from '../../../dependencies.ts';

const stripe = new Stripe('sk_test_cuepoint_tests_only');
const SECRET = 'whsec_testsecret0123456789abcdefABCDEF';

async function withStripe(harness: TestApp): Promise<TestWorkspace> {
  const ws = await harness.workspace();
  const res = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { stripe_webhook_secret: SECRET, mask_pii: false } });
  assert.equal(res.status, 200, res.raw);
  return ws;
}

function stripeEvent(type: string, object: Record<string, unknown>) {
  return {
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    api_version: '2025-10-29.clover',
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
  };
}

async function deliver(
  harness: TestApp,
  workspaceId: string,
  event: unknown,
  { secret = SECRET, timestamp, header, body }: { secret?: string; timestamp?: number; header?: string | null; body?: string } = {},
) {
  const payload = JSON.stringify(event, null, 2); // Stripe's own bodies are pretty-printed: the raw bytes are what is signed
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
  const response = await harness.app.inject({
    method: 'POST',
    url: `/stripe/webhooks/${workspaceId}`,
    headers: { 'content-type': 'application/json; charset=utf-8', ...(header === null ? {} : { 'stripe-signature': header ?? signature }) },
    payload: body ?? payload,
  });
  return { status: response.statusCode, body: JSON.parse(response.body) };
}

async function ledger(harness: TestApp, ws: TestWorkspace) {
  const res = await harness.request('GET', '/v1/outcomes', { token: ws.key });
  return res.body;
}

const checkout = (email: string, paymentIntent: string | null) =>
  stripeEvent('checkout.session.completed', {
    id: `cs_test_${randomUUID().slice(0, 8)}`,
    object: 'checkout.session',
    amount_total: 4900,
    currency: 'usd',
    customer_details: { email, name: 'Ada Lovelace' },
    payment_intent: paymentIntent,
    payment_status: 'paid',
  });

test('checkout.session.completed: a purchase for a new lead (source stripe); retries and its payment intent add nothing', async (t) => {
  const harness = await startTestApp(t);
  const ws = await withStripe(harness);
  const event = checkout('ada@example.com', 'pi_checkout_1');
  const first = await deliver(harness, ws.id, event);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.recorded, true);
  const after = await ledger(harness, ws);
  assert.equal(after.pagination.total, 1);
  const [purchase] = after.outcomes;
  assert.deepEqual(
    [purchase.kind, purchase.value, purchase.currency, purchase.source, purchase.external_id, purchase.lead.email],
    ['purchase', 4900, 'USD', 'stripe', 'pi_checkout_1', 'ada@example.com'],
  );
  const lead = await harness.request('GET', `/v1/outcomes?lead_id=${purchase.lead.lead_id}`, { token: ws.key });
  assert.equal(lead.body.pagination.total, 1);
  const row = await harness.database.db
    .selectFrom('leads')
    .select(['source', 'status'])
    .where('id', '=', purchase.lead.lead_id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { source: 'stripe', status: 'customer' });
  const events = await harness.eventTypes(ws.id);

  assert.equal((await deliver(harness, ws.id, event)).status, 200, 'Stripe retries');
  const intent = stripeEvent('payment_intent.succeeded', {
    id: 'pi_checkout_1',
    object: 'payment_intent',
    amount: 4900,
    amount_received: 4900,
    currency: 'usd',
    receipt_email: 'ada@example.com',
  });
  assert.equal((await deliver(harness, ws.id, intent)).status, 200);
  assert.equal((await ledger(harness, ws)).pagination.total, 1, 'one payment, one entry');
  assert.deepEqual(await harness.eventTypes(ws.id), events, 'and no more events');

  const unpaid = checkout('ada@example.com', null);
  (unpaid.data.object as Record<string, unknown>).payment_status = 'unpaid';
  assert.deepEqual((await deliver(harness, ws.id, unpaid)).body, { received: true, recorded: false });
  const other = await deliver(harness, ws.id, stripeEvent('customer.created', { id: 'cus_1', object: 'customer', email: 'x@example.com' }));
  assert.deepEqual([other.status, other.body.recorded], [200, false]);
  assert.equal((await ledger(harness, ws)).pagination.total, 1);
});

test('payment_intent.succeeded and charge.refunded: the refund is what was refunded since the last one, linked to the purchase', async (t) => {
  const harness = await startTestApp(t);
  const ws = await withStripe(harness);
  const known = await ws.addLead({ email: 'Grace@Example.com' });
  const intent = stripeEvent('payment_intent.succeeded', {
    id: 'pi_direct_1',
    object: 'payment_intent',
    amount: 10_000,
    amount_received: 10_000,
    currency: 'eur',
    receipt_email: null,
    latest_charge: { id: 'ch_1', object: 'charge', billing_details: { email: 'grace@example.com' } },
  });
  assert.equal((await deliver(harness, ws.id, intent)).status, 200);
  const [purchase] = (await ledger(harness, ws)).outcomes;
  assert.equal(purchase.lead.lead_id, known, 'matched by email, whatever its case');

  const refund = (amountRefunded: number) =>
    stripeEvent('charge.refunded', {
      id: 'ch_1',
      object: 'charge',
      amount: 10_000,
      amount_refunded: amountRefunded,
      currency: 'eur',
      payment_intent: 'pi_direct_1',
      billing_details: { email: 'someone-else@example.com' },
    });
  assert.equal((await deliver(harness, ws.id, refund(3000))).status, 200);
  const second = refund(5000);
  assert.equal((await deliver(harness, ws.id, second)).status, 200);
  assert.equal((await deliver(harness, ws.id, second)).status, 200, 'a retry');
  const refunds = (await harness.request('GET', '/v1/outcomes?kind=refund', { token: ws.key })).body;
  assert.deepEqual(
    refunds.outcomes
      .map((o: { value: number; refunded_outcome_id: string; lead: { lead_id: string } }) => [
        o.value,
        o.refunded_outcome_id,
        o.lead.lead_id,
      ])
      // Both events carry the same second, so the ledger orders them by id: compare sorted.
      .sort(),
    [
      [2000, purchase.outcome_id, known],
      [3000, purchase.outcome_id, known],
    ],
  );
  const totals = (await ledger(harness, ws)).totals.by_currency;
  assert.deepEqual(totals, [{ currency: 'EUR', count: 3, purchases: 10_000, refunds: 5000, net: 5000 }]);

  // Two later refunds of the charge arriving together: whatever the order, the refunds add up to Stripe's running total.
  const together = await Promise.all([deliver(harness, ws.id, refund(7000)), deliver(harness, ws.id, refund(9000))]);
  assert.deepEqual(
    together.map((r) => r.status),
    [200, 200],
  );
  const final = (await ledger(harness, ws)).totals.by_currency;
  assert.deepEqual([final[0].refunds, final[0].net], [9000, 1000]);

  // A payment without any email is recorded without a lead.
  const anonymous = stripeEvent('payment_intent.succeeded', {
    id: 'pi_anon',
    object: 'payment_intent',
    amount: 700,
    amount_received: 700,
    currency: 'jpy',
  });
  assert.equal((await deliver(harness, ws.id, anonymous)).status, 200);
  const purchases = (await harness.request('GET', '/v1/outcomes?kind=purchase', { token: ws.key })).body.outcomes;
  const yen = purchases.find((o: { external_id: string }) => o.external_id === 'pi_anon');
  assert.deepEqual([yen.external_id, yen.currency, yen.value, yen.lead], ['pi_anon', 'JPY', 700, null]);
});

test('forged, stale, tampered, unsigned and wrong-secret deliveries get 400 and write nothing; so do unknown workspaces', async (t) => {
  const harness = await startTestApp(t);
  const ws = await withStripe(harness);
  const withoutSecret = await harness.workspace();
  const event = checkout('mallory@example.com', 'pi_forged');
  const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
  const signed = stripe.webhooks.generateTestHeaderString({ payload: JSON.stringify(event, null, 2), secret: SECRET });
  const attempts = {
    'wrong secret': await deliver(harness, ws.id, event, { secret: 'whsec_someoneelse0123456789abcdef' }),
    stale: await deliver(harness, ws.id, event, { timestamp: tenMinutesAgo }),
    tampered: await deliver(harness, ws.id, event, {
      header: signed,
      body: JSON.stringify({ ...event, type: 'checkout.session.completed', data: { object: { ...event.data.object, amount_total: 1 } } }),
    }),
    unsigned: await deliver(harness, ws.id, event, { header: null }),
    garbage: await deliver(harness, ws.id, event, { header: 't=1,v1=nothex' }),
    'no secret set': await deliver(harness, withoutSecret.id, event),
    'unknown workspace': await deliver(harness, randomUUID(), event),
    'not a workspace id': await deliver(harness, 'not-a-uuid', event),
  };
  const messages = new Set<string>();
  for (const [what, res] of Object.entries(attempts)) {
    assert.equal(res.status, 400, `${what}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error.code, 'invalid_request', what);
    messages.add(res.body.error.message);
  }
  assert.equal(messages.size, 1, 'every refusal reads the same: none says which workspaces exist');
  for (const workspace of [ws, withoutSecret]) {
    assert.equal((await ledger(harness, workspace)).pagination.total, 0);
    const leads = await harness.database.db.selectFrom('leads').select('id').where('workspace_id', '=', workspace.id).execute();
    assert.equal(leads.length, 0);
    assert.deepEqual(await harness.eventTypes(workspace.id), []);
  }

  // A signature among several (a secret being rolled) verifies; a body over the limit is refused before anything.
  const payload = JSON.stringify(event, null, 2);
  const good = stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
  const [timestamp, v1] = good.split(',');
  const rolled = await deliver(harness, ws.id, event, { header: `${timestamp},v1=${'0'.repeat(64)},${v1}` });
  assert.equal(rolled.status, 200, JSON.stringify(rolled.body));
  const huge = await harness.app.inject({
    method: 'POST',
    url: `/stripe/webhooks/${ws.id}`,
    headers: { 'content-type': 'application/json', 'stripe-signature': good },
    payload: JSON.stringify({ padding: 'x'.repeat(300 * 1024) }),
  });
  assert.equal(huge.statusCode, 413);
});

test('a signed event holding text the database cannot store is a 400 naming where, and writes nothing', async (t) => {
  const harness = await startTestApp(t);
  const ws = await withStripe(harness);
  // A lone surrogate was recorded as U+FFFD, silently changing the customer's email or the payment's id.
  for (const event of [checkout('ada\uD800@example.com', 'pi_lone_1'), checkout('ada@example.com', 'pi_lone_\uDC00')]) {
    const res = await deliver(harness, ws.id, event);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(
      res.body.error.message,
      /data\.object\.(customer_details\.email|payment_intent) holds invalid characters: a lone UTF-16 surrogate/,
    );
  }
  assert.equal((await ledger(harness, ws)).pagination.total, 0);
  assert.deepEqual(await harness.eventTypes(ws.id), []);
});

test('PostgreSQL unreachable: a Stripe delivery gets 503 with Retry-After, so Stripe sends it again', async (t) => {
  // Port 1 on loopback refuses connections at once, like a stopped server.
  const database = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none' });
  const app = await buildApp(await buildDependencies(testConfig(join(tmpdir(), 'cuepoint-stripe-outage')), { database }));
  t.after(async () => {
    await app.close();
    await database.close();
  });
  const payload = JSON.stringify(checkout('ada@example.com', 'pi_outage'));
  const answer = await app.inject({
    method: 'POST',
    url: `/stripe/webhooks/${randomUUID()}`,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
    },
    payload,
  });
  assert.equal(answer.statusCode, 503, answer.body);
  assert.equal(answer.headers['retry-after'], '5');
  assert.equal(answer.json().error.code, 'service_unavailable');
});
