/**
 * The Revenue area in a real Chromium (issue 28), on the demo's ledger: an owner reads the totals per
 * currency, the revenue by day and the attribution, filters the ledger, records an outcome by hand
 * (a problem first, shown beside its field) and refunds part of a purchase, each checked through the
 * API. axe-core on every page at 1440 and 375 px, no horizontal scrolling at 375, screenshots.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { playDemoLeads } from '../../src/cli/demo-leads.ts';
import { playDemoOutcomes } from '../../src/cli/demo-outcomes.ts';
import { playDemoViewing } from '../../src/cli/demo-viewing.ts';
import { insertDemoLibrary } from '../../src/cli/insert-demo-library.ts';
import { createMediaLinks } from '../../src/media/media-links.ts';
import { startTestApp } from '../helpers/app.ts';
import { urlOf } from '../helpers/mcp-client.ts';
import { assertAccessible } from './accessibility.ts';
import { launchChromium } from './chromium.ts';
import { assertNoSideScroll, signIn } from './dashboard-pages.ts';
import { saveScreenshot } from './screenshots.ts';

const PASSWORD = 'correct horse battery staple';

test('an owner reads revenue, filters the ledger, records an outcome and a refund', { timeout: 600_000 }, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace('business');
  const db = harness.database.db;
  const now = new Date();
  const { links } = createMediaLinks('demo-secret-demo-secret-demo-secret-01', base);
  const { watchable } = await insertDemoLibrary(db, { workspaceId: ws.id, now, links });
  await playDemoViewing(db, watchable, now);
  await playDemoLeads(db, ws.id, watchable, now);
  await playDemoOutcomes(db, ws.id, now);
  const owner = await ws.addMember({ role: 'owner', name: 'Olive', password: PASSWORD });
  const chromium = await launchChromium(t);

  const context = await chromium.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  await signIn(page, base, owner.email);
  await page.getByRole('navigation', { name: 'Primary' }).getByRole('link', { name: 'Revenue' }).click();
  await page.getByRole('heading', { name: 'Revenue', level: 1 }).waitFor();
  await page.getByRole('heading', { name: 'Revenue by day' }).waitFor();
  await page.getByRole('heading', { name: 'Attribution' }).waitFor();
  assert.ok((await page.getByRole('img', { name: /^Net revenue in / }).count()) >= 1, 'a chart per currency');
  const whole = await harness.request('GET', '/v1/outcomes?limit=1', { token: ws.key });
  const currencies = whole.body.totals.by_currency.map((c: { currency: string }) => c.currency);
  assert.equal(await page.locator('ul.revenue-totals > li').count(), currencies.length, 'a total per currency');
  await assertAccessible(page, 'the revenue page');
  await saveScreenshot(page, 'revenue');

  // Filter the ledger: purchases only.
  await page.getByLabel('Kind').selectOption({ label: 'Purchase' });
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL(/kind=purchase/);
  const purchases = await harness.request('GET', '/v1/outcomes?kind=purchase&limit=50', { token: ws.key });
  assert.equal(await page.locator('table.ledger tbody tr').count(), purchases.body.outcomes.length);

  // Record an outcome by hand: a mistake first, kept and explained beside its field.
  await page.getByRole('link', { name: 'Record an outcome' }).click();
  await page.getByRole('heading', { name: 'Record an outcome' }).waitFor();
  await assertAccessible(page, 'the record form');
  await page.getByLabel('Amount').fill('49,99.999');
  await page.getByLabel('Currency').fill('EUR');
  await page.getByLabel('Lead email').fill('walk-in@example.com');
  await page.getByLabel('Description').fill('Workshop seat, paid at the door');
  await page.getByRole('button', { name: 'Record outcome' }).click();
  await page.getByText('Amount must be a number such as 49.00.').waitFor();
  assert.equal(await page.getByLabel('Description').inputValue(), 'Workshop seat, paid at the door');
  await assertAccessible(page, 'the record form with a problem');
  await saveScreenshot(page, 'revenue-record');
  await page.getByLabel('Amount').fill('240.00');
  await page.getByRole('button', { name: 'Record outcome' }).click();
  await page.getByText('Outcome recorded.').waitFor();
  const recorded = await harness.request('GET', '/v1/outcomes?limit=100', { token: ws.key });
  const entry = recorded.body.outcomes.find((o: { description: string | null }) => o.description === 'Workshop seat, paid at the door');
  assert.ok(entry, 'the entry is in the ledger');
  assert.deepEqual([entry.kind, entry.value, entry.currency, entry.status], ['purchase', 24000, 'EUR', 'succeeded']);

  // Refund part of it from its row.
  const row = page.locator('table.ledger tbody tr', { hasText: 'Workshop seat, paid at the door' });
  await row.getByRole('link', { name: /^Refund/ }).click();
  await page.getByRole('heading', { name: 'Record a refund' }).waitFor();
  await page.getByLabel('Amount').fill('40.00');
  await page.getByRole('button', { name: 'Record refund' }).click();
  await page.getByText('Refund recorded.').waitFor();
  const refunds = await harness.request('GET', `/v1/outcomes?kind=refund&limit=100`, { token: ws.key });
  const refund = refunds.body.outcomes.find((o: { refunded_outcome_id: string | null }) => o.refunded_outcome_id === entry.outcome_id);
  assert.deepEqual([refund?.value, refund?.currency], [4000, 'EUR']);
  await context.close();

  const phone = await chromium.newContext({ viewport: { width: 375, height: 812 }, bypassCSP: true });
  phone.setDefaultTimeout(60_000);
  const small = await phone.newPage();
  await signIn(small, base, owner.email);
  await small.goto(`${base}/app/revenue`);
  await saveScreenshot(small, 'revenue');
  await assertNoSideScroll(small, 'the revenue page');
  await assertAccessible(small, 'the revenue page at 375 px');
  await small.goto(`${base}/app/revenue/new`);
  await saveScreenshot(small, 'revenue-record');
  await assertNoSideScroll(small, 'the record form');
  await assertAccessible(small, 'the record form at 375 px');
  await phone.close();
});
