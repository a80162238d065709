/**
 * The demo's ledger, on the demo library, its viewing and its leads: purchases in two currencies,
 * and two refunds spread over the period, attributed to videos the leads watched, with
 * the leads who paid made customers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../test/helpers/app.ts';
import { createMediaLinks } from '../media/media-links.ts';
import { playDemoLeads } from './demo-leads.ts';
import { playDemoOutcomes } from './demo-outcomes.ts';
import { playDemoViewing } from './demo-viewing.ts';
import { insertDemoLibrary } from './insert-demo-library.ts';

const NOW = new Date('2026-11-24T16:00:00.000Z');

test('seed --demo ledger: purchases and refunds over the period, attributed', { timeout: 300_000 }, async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const db = harness.database.db;
  const { links } = createMediaLinks('demo-secret-demo-secret-demo-secret-01', 'http://localhost:3000');
  const { watchable } = await insertDemoLibrary(db, { workspaceId: ws.id, now: NOW, links });
  await playDemoViewing(db, watchable, NOW);
  await playDemoLeads(db, ws.id, watchable, NOW);
  const count = await playDemoOutcomes(db, ws.id, NOW);
  assert.ok(count >= 5, `${count} entries`);

  const ledger = await harness.request('GET', '/v1/outcomes?limit=100', { token: ws.key });
  assert.equal(ledger.status, 200, ledger.raw);
  assert.equal(ledger.body.pagination.total, count);
  const kinds = new Set(ledger.body.outcomes.map((o: { kind: string }) => o.kind));
  assert.deepEqual([...kinds].sort(), ['purchase', 'refund'], 'booked calls come from the demo’s bookings (demo-scheduling.ts)');
  const refunds = ledger.body.outcomes.filter((o: { kind: string }) => o.kind === 'refund');
  assert.equal(refunds.length, 2);
  assert.ok(refunds.every((o: { refunded_outcome_id: string | null }) => o.refunded_outcome_id !== null));
  assert.ok(
    ledger.body.outcomes.some((o: { last_touch_video: unknown }) => o.last_touch_video !== null),
    'entries are attributed to videos the leads watched',
  );
  const usd = ledger.body.totals.by_currency.find((line: { currency: string }) => line.currency === 'USD');
  assert.ok(usd.net > 0 && usd.refunds > 0, JSON.stringify(ledger.body.totals));
  const days = new Set(ledger.body.outcomes.map((o: { occurred_at: string }) => o.occurred_at.slice(0, 10)));
  assert.ok(days.size >= 3, `on ${days.size} days`);
  assert.ok(ledger.body.outcomes.every((o: { occurred_at: string }) => Date.parse(o.occurred_at) <= NOW.getTime()));
  const buyers = ledger.body.outcomes
    .filter((o: { kind: string }) => o.kind === 'purchase')
    .map((o: { lead: { lead_id: string } }) => o.lead.lead_id);
  const statuses = await db.selectFrom('leads').select('status').where('id', 'in', buyers).execute();
  assert.ok(statuses.every((row) => row.status === 'customer'));
  const types = await harness.eventTypes(ws.id);
  assert.equal(types.filter((type) => type === 'outcome.created').length, count);
});
