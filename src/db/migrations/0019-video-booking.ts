/**
 * A watch page's "Book a call" (issue 14): `videos.booking_event_type_id` names the event type whose
 * booking page the watch and embed pages offer (update_video sets it, get_video shows it). An event
 * type is never deleted while bookings point at it, but a workspace's deletion cascades through
 * both tables, so the reference clears itself rather than blocking anything.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table videos add column booking_event_type_id uuid references event_types(id) on delete set null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table videos drop column booking_event_type_id`.execute(db);
}
