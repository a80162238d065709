/**
 * New leads and succeeded revenue per workspace and local day (issue 17): with them the workspace
 * summary and daily series read one row per day (and currency) instead of every lead and ledger
 * entry of the period, so their cost no longer grows with the business's history. Kept by the
 * writers of leads and entries from now on (domains/viewing/workspace-day-counts.queries.ts);
 * filled here from what exists.
 *
 * Frozen (issue 25): this migration once called the application's rebuild
 * (domains/viewing/workspace-day-rebuild.ts as of commit e4ab10f), so it would have changed meaning
 * with that code. It now carries its own copy, which gives the same rows for any data
 * (frozen-migrations.test.ts compares the two):
 *
 * - each workspace's new leads per local day of `created_at`, on a row of its own day (empty sketches
 *   when there was no viewing that day);
 * - per local day of `occurred_at` and currency, the count and sum of the succeeded purchases and of
 *   the succeeded refunds (pending, failed and canceled entries and booked calls are not revenue).
 *
 * The sums and counts are SQL (amounts summed exactly; the application added them as doubles, the
 * same below 2^53 minor units a day). Only the local day is worked out here, with Intl, as the
 * application did and its writers still do (core/calendar/time-zone.ts localDay), rather than with
 * SQL's `at time zone`: PostgreSQL's zone data is its own (the system's, or PGlite's), and where it
 * differs from Node's (British Columbia's and Alberta's permanent daylight time from November 2026
 * are not in tzdata 2025b, for one) the same instant would fall on another day than the writers give
 * it; and PostgreSQL reads a zone named like an abbreviation ('CET') as a fixed offset.
 */
import { type Kysely, sql } from 'kysely';

const statements = [
  'alter table workspace_daily_stats add column new_leads integer not null default 0',
  `create table workspace_daily_revenue (
    workspace_id uuid not null references workspaces(id) on delete cascade,
    day date not null,
    currency text not null,
    purchases integer not null default 0,
    purchased bigint not null default 0,
    refunds integer not null default 0,
    refunded bigint not null default 0,
    primary key (workspace_id, day, currency)
  )`,
];

/** Instants given their local day a page at a time. */
const PAGE = 10_000;

/**
 * Every (zone, instant) the fill needs, numbered; `day` is filled in by localDay below. A temporary
 * table: migrations run in one transaction, so on one connection, and this one drops it when done
 * (a failure rolls its creation back).
 */
const INSTANTS = `
  create temporary table migration_0027_local_days as
  select (row_number() over ())::int as n, time_zone, at, null::date as day
  from (
    select distinct w.timezone as time_zone, x.at
    from (
      select workspace_id, created_at as at from leads
      union all
      select workspace_id, occurred_at from outcomes where status = 'succeeded' and kind in ('purchase', 'refund')
    ) x
    join workspaces w on w.id = x.workspace_id
  ) distinct_instants`;

const NEW_LEADS = `
  insert into workspace_daily_stats (workspace_id, day, viewer_sketch, video_sketch, new_leads)
  select l.workspace_id, d.day, '\\x01'::bytea, '\\x01'::bytea, count(*)
  from leads l
  join workspaces w on w.id = l.workspace_id
  join migration_0027_local_days d on d.time_zone = w.timezone and d.at = l.created_at
  group by l.workspace_id, d.day
  on conflict (workspace_id, day) do update set new_leads = excluded.new_leads`;

// The currency is its first word, as the application's "<day> <currency>" key split on spaces made it
// (a char(3) code has no other; trailing padding is not part of it).
const REVENUE = `
  insert into workspace_daily_revenue (workspace_id, day, currency, purchases, purchased, refunds, refunded)
  select o.workspace_id, d.day, split_part(o.currency::text, ' ', 1),
    count(*) filter (where o.kind = 'purchase'), coalesce(sum(o.amount) filter (where o.kind = 'purchase'), 0),
    count(*) filter (where o.kind = 'refund'), coalesce(sum(o.amount) filter (where o.kind = 'refund'), 0)
  from outcomes o
  join workspaces w on w.id = o.workspace_id
  join migration_0027_local_days d on d.time_zone = w.timezone and d.at = o.occurred_at
  where o.status = 'succeeded' and o.kind in ('purchase', 'refund')
  group by o.workspace_id, d.day, o.currency`;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
  await sql.raw(INSTANTS).execute(db);
  await sql`create unique index on migration_0027_local_days (n)`.execute(db);
  for (let after = 0; ; after += PAGE) {
    const { rows } = await sql<{ n: number; time_zone: string; at: Date }>`
      select n, time_zone, at from migration_0027_local_days where n > ${after} and n <= ${after + PAGE}`.execute(db);
    if (rows.length === 0) break;
    const days = rows.map((row) => ({ n: row.n, day: localDay(row.at, row.time_zone) }));
    await sql`
      update migration_0027_local_days t set day = v.day
      from jsonb_to_recordset(${JSON.stringify(days)}::jsonb) as v(n int, day date)
      where t.n = v.n`.execute(db);
  }
  await sql.raw(NEW_LEADS).execute(db);
  await sql.raw(REVENUE).execute(db);
  await sql`drop table migration_0027_local_days`.execute(db);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar day, 'YYYY-MM-DD', of an instant in an IANA zone, as core/calendar/time-zone.ts's
 * localDay gave it (an unknown zone throws, and failed the migration then too). Read from the parts
 * rather than from en-CA's pattern, so the copy keeps meaning the day if that locale's format changes.
 */
function localDay(at: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(at).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists workspace_daily_revenue`.execute(db);
  await sql`alter table workspace_daily_stats drop column if exists new_leads`.execute(db);
}
