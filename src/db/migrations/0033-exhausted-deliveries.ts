/**
 * Deliveries that gave up, by endpoint (issue 28): list_webhook_endpoints counts each endpoint's
 * exhausted deliveries, so the dashboard's home asks once for every endpoint instead of once per
 * endpoint. Partial: a healthy log is almost all succeeded rows, which the count never reads.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index webhook_deliveries_exhausted_idx on webhook_deliveries (endpoint_id) where status = 'exhausted'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists webhook_deliveries_exhausted_idx`.execute(db);
}
