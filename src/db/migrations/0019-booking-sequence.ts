/**
 * `bookings.sequence`: how many times the invitee's calendar copy of the booking has changed (each
 * reschedule and the cancellation add one). It is the iCalendar SEQUENCE of the booking's `.ics`
 * file (RFC 5545 §3.8.7.4): a calendar that imported the file replaces its copy only with a higher
 * one, so a moved or canceled call shows as moved or canceled instead of as a second event.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table bookings add column sequence integer not null default 0 check (sequence >= 0)').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table bookings drop column sequence').execute(db);
}
