/**
 * Many ledger writes for one lead at the same moment (issue 26): a burst of sales for one customer
 * through the API and through Stripe. Each entry takes the lead's row, the day's revenue counter and
 * (for a refund) its purchase; taken in different orders they deadlocked, and 1 of 6 writes got
 * through. Every write must be recorded exactly once and every total must add up exactly. The race
 * is real on PostgreSQL (TEST_DATABASE_URL); on the embedded database writes run one at a time, and
 * the same assertions hold.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import Stripe from 'stripe';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../test/helpers/app.ts';
import { ENGAGEMENT_POINTS } from '../leads/index.ts';

const stripe = new Stripe('sk_test_cuepoint_tests_only');
const STRIPE_SECRET = 'whsec_testsecret0123456789abcdefABCDEF';

async function engagementOf(harness: TestApp, ws: TestWorkspace, leadId: string) {
  const lead = await harness.database.db
    .selectFrom('leads')
    .select(['engagement_points', 'status'])
    .where('workspace_id', '=', ws.id)
    .where('id', '=', leadId)
    .executeTakeFirstOrThrow();
  const activities = await harness.database.db
    .selectFrom('lead_activities')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('workspace_id', '=', ws.id)
    .where('lead_id', '=', leadId)
    .where('kind', '=', 'outcome')
    .executeTakeFirstOrThrow();
  return { points: Number(lead.engagement_points), status: lead.status, outcomeActivities: Number(activities.count) };
}

async function revenueToday(harness: TestApp, ws: TestWorkspace) {
  const summary = await harness.request('GET', '/v1/analytics/summary?range=7d', { token: ws.key });
  assert.equal(summary.status, 200, summary.raw);
  return summary.body.revenue;
}

test('20 purchases and refunds for one lead at once: every one recorded once, every total exact', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { mask_pii: false } });
  const leadId = await ws.addLead({ email: 'ada@example.com' });
  // Two earlier purchases, each to be refunded in parts by the burst.
  const earlier: string[] = [];
  for (const amount of [10_000, 6_000]) {
    const res = await harness.request('POST', '/v1/outcomes', {
      token: ws.key,
      body: { kind: 'purchase', amount, currency: 'USD', email: 'ada@example.com', external_id: `earlier-${amount}` },
    });
    assert.equal(res.status, 201, res.raw);
    earlier.push(res.body.outcome_id as string);
  }
  const before = await engagementOf(harness, ws, leadId);

  const purchases = Array.from({ length: 12 }, (_, i) => ({
    kind: 'purchase',
    amount: 4900 + i,
    currency: 'USD',
    email: 'ada@example.com',
    external_id: `burst-purchase-${i}`,
  }));
  // Eight refunds of 1,000 and 500: 4 × 1,000 of the first purchase, 4 × 500 of the second, all within what is left.
  const refunds = Array.from({ length: 8 }, (_, i) => ({
    kind: 'refund',
    amount: i < 4 ? 1000 : 500,
    currency: 'USD',
    refunds_outcome_id: earlier[i < 4 ? 0 : 1],
    external_id: `burst-refund-${i}`,
  }));
  const burst = [...purchases, ...refunds].sort((a, b) => a.external_id.localeCompare(b.external_id));
  const answers = await Promise.all(burst.map((body) => harness.request('POST', '/v1/outcomes', { token: ws.key, body })));
  assert.deepEqual(
    answers.map((res) => res.status),
    burst.map(() => 201),
    answers.map((res) => res.raw).join('\n'),
  );

  // The same requests again: each answered with its entry, nothing written twice.
  const again = await Promise.all(burst.map((body) => harness.request('POST', '/v1/outcomes', { token: ws.key, body })));
  assert.deepEqual(
    again.map((res) => [res.status, res.body.outcome_id]),
    answers.map((res) => [200, res.body.outcome_id]),
  );

  const purchased = 10_000 + 6_000 + purchases.reduce((sum, p) => sum + p.amount, 0);
  const refunded = 4 * 1000 + 4 * 500;
  const ledger = await harness.request('GET', '/v1/outcomes?limit=100', { token: ws.key });
  assert.equal(ledger.body.outcomes.length, 22);
  assert.deepEqual(ledger.body.totals.by_currency, [
    { currency: 'USD', count: 22, purchases: purchased, refunds: refunded, net: purchased - refunded },
  ]);
  // The daily counters behind analytics add up to the same, entry by entry.
  const revenue = await revenueToday(harness, ws);
  assert.deepEqual(
    revenue.map((r: { currency: string; value: number }) => [r.currency, r.value]),
    [['USD', purchased - refunded]],
  );
  const after = await engagementOf(harness, ws, leadId);
  // Engagement decays with time, so the points gained are 300 less a few millionths for the seconds this took.
  assert.deepEqual(
    [Math.round(after.points - before.points), after.outcomeActivities - before.outcomeActivities, after.status],
    [12 * ENGAGEMENT_POINTS.purchase, 20, 'customer'],
  );
});

test('Stripe: eight payments of one customer delivered at once are all recorded, each once', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const set = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { stripe_webhook_secret: STRIPE_SECRET } });
  assert.equal(set.status, 200, set.raw);
  await ws.addLead({ email: 'grace@example.com' });
  const events = Array.from({ length: 8 }, (_, i) => ({
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    api_version: '2025-10-29.clover',
    created: Math.floor(Date.now() / 1000),
    type: 'payment_intent.succeeded',
    data: {
      object: {
        id: `pi_burst_${i}`,
        object: 'payment_intent',
        amount: 2500,
        amount_received: 2500,
        currency: 'eur',
        receipt_email: 'grace@example.com',
      },
    },
  }));
  const deliver = (event: unknown) => {
    const payload = JSON.stringify(event);
    return harness.app.inject({
      method: 'POST',
      url: `/stripe/webhooks/${ws.id}`,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET }),
      },
      payload,
    });
  };
  const answers = await Promise.all([...events, ...events].map(deliver));
  assert.deepEqual(
    answers.map((res) => res.statusCode),
    answers.map(() => 200),
    answers.map((res) => res.body).join('\n'),
  );
  const ledger = await harness.request('GET', '/v1/outcomes?limit=100', { token: ws.key });
  assert.deepEqual(ledger.body.totals.by_currency, [{ currency: 'EUR', count: 8, purchases: 20_000, refunds: 0, net: 20_000 }]);
  const revenue = await revenueToday(harness, ws);
  assert.deepEqual(
    revenue.map((r: { currency: string; value: number }) => [r.currency, r.value]),
    [['EUR', 20_000]],
  );
});
