/**
 * A message may carry a calendar invitation (issue 30): the iTIP method and the iCalendar object,
 * sent as the message's `text/calendar; method=…` part, so calendars offer to add, move or remove the
 * event. Both or neither.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table email_outbox
      add column calendar_method text check (calendar_method in ('REQUEST', 'CANCEL')),
      add column calendar_body text,
      add constraint email_outbox_calendar_whole check ((calendar_method is null) = (calendar_body is null))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table email_outbox
      drop constraint if exists email_outbox_calendar_whole,
      drop column if exists calendar_method,
      drop column if exists calendar_body
  `.execute(db);
}
