/**
 * Finding leads by text without reading every lead (issue 28): `search` and `list_leads`' `q` look
 * for the text in the lead's email and in its notes. Trigram indexes on both let each part of the
 * match be an index lookup; before them a search read every lead of the workspace and probed its
 * notes one lead at a time (47 ms over 50,000 leads, on PostgreSQL, for a word no lead has).
 * Names already have theirs (leads_name_trigrams, migration 0024). Notes only: the partial index
 * holds no other activity.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index leads_email_trigrams on leads using gin (email gin_trgm_ops)`.execute(db);
  await sql`create index lead_notes_trigrams on lead_activities using gin ((data ->> 'body') gin_trgm_ops) where kind = 'note'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists lead_notes_trigrams`.execute(db);
  await sql`drop index if exists leads_email_trigrams`.execute(db);
}
