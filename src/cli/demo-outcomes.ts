/**
 * The demo's ledger: some of the demo's leads buy (a few in euros), days after they were captured,
 * and two purchases are refunded, one in full and one in part. (Booked calls come from real
 * bookings: demo-scheduling.ts.) Every entry goes
 * through recordLedgerEntry, as record_outcome's do, so it is attributed to the videos its lead
 * watched before it, moves the lead's status and records its events. Deterministic for a given
 * set of leads.
 */
import type { Kysely } from 'kysely';
import { outboxEmitter } from '../db/outbox.ts';
import type { Database } from '../db/tables/index.ts';
import { leadsByCaptureTime } from '../domains/leads/index.ts';
import { countLedgerEntries, type LedgerEntryRequest, recordLedgerEntry } from '../domains/outcomes/index.ts';
import { prng } from './demo-library.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const PRICES = [4900, 9900, 19_900, 49_900];
const PURCHASE_RATE = 0.25;

/** Records the demo's purchases, booked calls and refunds; returns how many entries the ledger holds. */
export async function playDemoOutcomes(db: Kysely<Database>, workspaceId: string, now: Date): Promise<number> {
  const random = prng(13_2026);
  const leads = await leadsByCaptureTime(db, workspaceId);
  const purchases: { id: string; amount: number; currency: string; at: Date }[] = [];
  for (const [i, lead] of leads.entries()) {
    const roll = random();
    const at = new Date(Math.min(now.getTime() - 60_000, lead.created_at.getTime() + (0.5 + random() * 14) * DAY_MS));
    if (roll < PURCHASE_RATE) {
      const currency = random() < 0.15 ? 'EUR' : 'USD';
      const amount = PRICES[Math.floor(random() * PRICES.length)] as number;
      const id = await record(db, {
        workspaceId,
        kind: 'purchase',
        amount,
        currency,
        leadId: lead.id,
        externalId: `demo-order-${i + 1}`,
        at,
      });
      purchases.push({ id, amount, currency, at });
    }
  }
  // A full refund of the first purchase and half of the third, a few days after each.
  for (const [n, share] of [
    [0, 1],
    [2, 0.5],
  ] as const) {
    const purchase = purchases[n];
    if (!purchase) continue;
    const at = new Date(Math.min(now.getTime() - 60_000, purchase.at.getTime() + 3 * DAY_MS));
    await record(db, {
      workspaceId,
      kind: 'refund',
      amount: Math.round(purchase.amount * share),
      currency: purchase.currency,
      refundsOutcomeId: purchase.id,
      externalId: `demo-refund-${n + 1}`,
      at,
    });
  }
  return countLedgerEntries(db, workspaceId);
}

async function record(
  db: Kysely<Database>,
  entry: {
    workspaceId: string;
    kind: LedgerEntryRequest['kind'];
    amount: number;
    currency: string;
    leadId?: string;
    refundsOutcomeId?: string;
    externalId: string;
    at: Date;
  },
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const { outcome } = await recordLedgerEntry(
      trx,
      {
        workspaceId: entry.workspaceId,
        kind: entry.kind,
        status: 'succeeded',
        amount: entry.amount,
        currency: entry.currency,
        lead: entry.leadId ? { leadId: entry.leadId } : null,
        videoId: null,
        refundsOutcomeId: entry.refundsOutcomeId ?? null,
        externalId: entry.externalId,
        source: 'api',
        description: null,
        occurredAt: entry.at,
        author: 'Demo',
        now: entry.at,
      },
      outboxEmitter(trx, entry.workspaceId, entry.at),
    );
    return outcome.outcome_id;
  });
}
