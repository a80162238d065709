/**
 * Erasing a lead (issue 27, GDPR Art. 17; domains/leads/operations/erase-lead.ts).
 *
 * - Their bookings stay as anonymous blocked time: the call still holds its slot and its booked_call
 *   entry stays in the ledger, but the invitee's contact fields are emptied. The email was required;
 *   it may now be null, and is only for an erased invitee.
 * - The rows of the person that an erasure finds by lead or browser get indexes where none led to
 *   them, so an erasure in a workspace with millions of route visits or channel views is a few index
 *   lookups rather than a scan that outlasts the statement timeout: route visits by lead (partial:
 *   most visits have none), channel views by browser.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bookings alter column invitee_email drop not null`.execute(db);
  await sql`create index route_visits_lead_idx on route_visits (lead_id) where lead_id is not null`.execute(db);
  await sql`create index channel_views_viewer_idx on channel_views (workspace_id, viewer_id) where viewer_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists channel_views_viewer_idx`.execute(db);
  await sql`drop index if exists route_visits_lead_idx`.execute(db);
  await sql`update bookings set invitee_email = 'erased@invalid' where invitee_email is null`.execute(db);
  await sql`alter table bookings alter column invitee_email set not null`.execute(db);
}
