/**
 * Erasing a lead (issue 27, GDPR Art. 17) keeps their bookings as anonymous blocked time: the call
 * still holds its slot and its booked_call entry stays in the ledger, but the invitee's contact fields
 * are emptied. The email was required; it may now be null, and is only for an erased invitee.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bookings alter column invitee_email drop not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update bookings set invitee_email = 'erased@invalid' where invitee_email is null`.execute(db);
  await sql`alter table bookings alter column invitee_email set not null`.execute(db);
}
