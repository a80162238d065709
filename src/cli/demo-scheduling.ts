/**
 * The demo's scheduling: three event types (an intro call in New York hours with a closed day and a
 * short day ahead, a paid product demo in London hours, and inactive office hours), and calls booked
 * through bookSlot, the code create_booking and the booking page use: some of the demo's leads book
 * a call days after they were captured, each at an offered slot as it was then (so the ledger's
 * booked calls, the leads' histories and the lead statuses follow), and a few new invitees book
 * upcoming calls from the videos' pages. Two calls are canceled and one is moved, through the same
 * code as cancel_booking and reschedule_booking. Deterministic for a given set of leads, apart from ids.
 */
import type { Kysely } from 'kysely';
import { addDays } from '../core/calendar/calendar-days.ts';
import { localDay } from '../core/calendar/time-zone.ts';
import { AppError } from '../core/errors.ts';
import type { Database, NewEventType } from '../db/tables/index.ts';
import { leadsByCaptureTime } from '../domains/leads/index.ts';
import type { DateOverride, HoursInterval, WeeklyHours } from '../domains/scheduling/index.ts';
import {
  bookSlot,
  cancelBooking,
  findEventType,
  insertEventType,
  loadSlotContext,
  rescheduleBooking,
  rulesOf,
  schedulingRulesProblems,
  slotsInWindow,
} from '../domains/scheduling/index.ts';
import { prng } from './demo-library.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60_000;
/** Of the demo's leads, the share that book each kind of call. */
const INTRO_RATE = 0.2;
const DEMO_RATE = 0.1;
/** New invitees who book an upcoming call from a video's page in the last days. */
const WALK_INS = 8;

const weekdays = (hours: HoursInterval[], days: number[]): WeeklyHours => Object.fromEntries(days.map((day) => [day, hours]));

interface DemoEventType {
  name: string;
  active: boolean;
  fields: Omit<NewEventType, 'id' | 'workspace_id' | 'name' | 'active' | 'created_at' | 'updated_at' | 'weekly_hours' | 'date_overrides'>;
  weeklyHours: WeeklyHours;
  /** Overrides as days after today (local): closed all day, or other hours. */
  overrides: { inDays: number; hours: HoursInterval[] }[];
}

const EVENT_TYPES: DemoEventType[] = [
  {
    name: 'Intro call',
    active: true,
    fields: {
      duration_minutes: 30,
      slot_interval_minutes: 30,
      buffer_after_minutes: 10,
      minimum_notice_minutes: 240,
      horizon_days: 30,
      daily_cap: 6,
      value_amount: null,
      value_currency: null,
      location: 'https://meet.example.com/cuepoint-intro',
      time_zone: 'America/New_York',
    },
    weeklyHours: weekdays(
      [
        { start: '09:00', end: '12:00' },
        { start: '13:00', end: '17:00' },
      ],
      [1, 2, 3, 4, 5],
    ),
    overrides: [
      { inDays: 9, hours: [] },
      { inDays: 12, hours: [{ start: '10:00', end: '12:00' }] },
    ],
  },
  {
    name: 'Product demo for teams',
    active: true,
    fields: {
      duration_minutes: 45,
      slot_interval_minutes: 15,
      buffer_before_minutes: 15,
      buffer_after_minutes: 15,
      minimum_notice_minutes: 1440,
      horizon_days: 45,
      daily_cap: 4,
      value_amount: 15_000,
      value_currency: 'USD',
      location: 'https://meet.example.com/cuepoint-demo',
      time_zone: 'Europe/London',
    },
    weeklyHours: weekdays([{ start: '10:00', end: '16:00' }], [2, 3, 4]),
    overrides: [],
  },
  {
    name: 'Office hours',
    active: false,
    fields: {
      duration_minutes: 20,
      slot_interval_minutes: 20,
      horizon_days: 14,
      daily_cap: null,
      value_amount: null,
      value_currency: null,
      location: 'Cuepoint HQ, 5th floor',
      time_zone: 'UTC',
    },
    weeklyHours: weekdays([{ start: '15:00', end: '17:00' }], [5]),
    overrides: [],
  },
];

async function insertEventTypes(db: Kysely<Database>, workspaceId: string, now: Date): Promise<string[]> {
  const createdAt = new Date(now.getTime() - 95 * DAY_MS);
  const ids: string[] = [];
  for (const type of EVENT_TYPES) {
    const today = localDay(now, type.fields.time_zone);
    const dateOverrides: DateOverride[] = type.overrides.map(({ inDays, hours }) => ({ date: addDays(today, inDays), hours }));
    const id = await insertEventType(
      db,
      {
        workspace_id: workspaceId,
        name: type.name,
        active: type.active,
        ...type.fields,
        weekly_hours: JSON.stringify(type.weeklyHours),
        date_overrides: JSON.stringify(dateOverrides),
      },
      createdAt,
    );
    // The demo's rules are held to the operations' own checks, on the row as stored (with its defaults).
    const problems = schedulingRulesProblems(rulesOf(await findEventType(db, workspaceId, id)));
    if (problems.length > 0) throw new Error(`Demo event type ${type.name}: ${JSON.stringify(problems)}`);
    ids.push(id);
  }
  return ids;
}

/** The offered starts of an event type in the two weeks after `at`, as they were at `at`. */
async function offeredStarts(db: Kysely<Database>, workspaceId: string, eventTypeId: string, at: Date): Promise<Date[]> {
  const row = await findEventType(db, workspaceId, eventTypeId);
  const window = { from: at, to: new Date(at.getTime() + 14 * DAY_MS) };
  const context = await loadSlotContext(db, { workspaceId, eventTypeId, ...window, now: at });
  return slotsInWindow(rulesOf(row), { ...window, ...context })
    .filter((slot) => slot.offered)
    .map((slot) => slot.start);
}

interface DemoBooker {
  email: string;
  name: string | null;
  videoId: string | null;
  /** When they book. */
  at: Date;
  /** The earliest start they take (walk-ins book the days ahead). */
  notBefore?: Date;
}

async function book(db: Kysely<Database>, workspaceId: string, eventTypeId: string, booker: DemoBooker, pick: number) {
  const notBefore = booker.notBefore?.getTime() ?? 0;
  const starts = (await offeredStarts(db, workspaceId, eventTypeId, booker.at)).filter((start) => start.getTime() >= notBefore);
  const start = starts[Math.min(starts.length - 1, Math.floor(pick * Math.min(12, starts.length)))];
  if (!start) return undefined;
  return db.transaction().execute((trx) =>
    bookSlot(trx, {
      workspaceId,
      eventTypeId,
      start,
      invitee: { email: booker.email, name: booker.name, timezone: null },
      from: { videoId: booker.videoId },
      now: booker.at,
      author: 'Demo',
    }),
  );
}

/** Creates the demo's event types and books its calls; returns how many of each. */
export async function playDemoScheduling(
  db: Kysely<Database>,
  workspaceId: string,
  videoIds: readonly string[],
  now: Date,
): Promise<{ eventTypes: number; bookings: number }> {
  const random = prng(14_2026);
  const [introId, demoId] = (await insertEventTypes(db, workspaceId, now)) as [string, string, string];
  const leads = await leadsByCaptureTime(db, workspaceId);

  const bookers: { eventTypeId: string; booker: DemoBooker; pick: number }[] = [];
  for (const lead of leads) {
    const roll = random();
    const at = new Date(Math.min(now.getTime() - 30 * MINUTE_MS, lead.created_at.getTime() + (0.5 + random() * 10) * DAY_MS));
    const pick = random();
    const eventTypeId = roll < INTRO_RATE ? introId : roll < INTRO_RATE + DEMO_RATE ? demoId : undefined;
    if (!eventTypeId) continue;
    const name = lead.name ?? ([lead.first_name, lead.last_name].filter(Boolean).join(' ') || null);
    bookers.push({ eventTypeId, booker: { email: lead.email, name, videoId: lead.source_video_id, at }, pick });
  }
  for (let i = 0; i < WALK_INS; i++) {
    const at = new Date(now.getTime() - (0.2 + random() * 3) * DAY_MS);
    const videoId = videoIds.length > 0 ? (videoIds[Math.floor(random() * videoIds.length)] as string) : null;
    const notBefore = new Date(now.getTime() + (1 + i) * DAY_MS);
    const booker = { email: `invitee${i + 1}@northwind.example`, name: `Guest ${i + 1}`, videoId, at, notBefore };
    bookers.push({ eventTypeId: i % 3 === 2 ? demoId : introId, booker, pick: random() });
  }
  // In the order they happened, so each books against the calendar as it was then.
  bookers.sort((a, b) => a.booker.at.getTime() - b.booker.at.getTime());

  const booked: { id: string; start: Date; at: Date }[] = [];
  for (const { eventTypeId, booker, pick } of bookers) {
    const result = await book(db, workspaceId, eventTypeId, booker, pick);
    if (result) booked.push({ id: result.booking.id, start: result.booking.starts_at, at: booker.at });
  }

  const upcoming = booked.filter((booking) => booking.start.getTime() > now.getTime());
  // The workspace cancels one upcoming call, an invitee another from the link, and a third is moved a day later.
  const [first, second, third] = upcoming;
  if (first) {
    await db
      .transaction()
      .execute((trx) =>
        cancelBooking(trx, { workspaceId, bookingId: first.id, by: 'workspace', reason: 'Customer asked to move to next quarter.', now }),
      );
  }
  if (second) {
    await db.transaction().execute((trx) => cancelBooking(trx, { workspaceId, bookingId: second.id, by: 'invitee', reason: null, now }));
  }
  if (third) {
    for (let days = 1; days <= 14; days++) {
      const start = new Date(third.start.getTime() + days * DAY_MS);
      try {
        await db.transaction().execute((trx) => rescheduleBooking(trx, { workspaceId, bookingId: third.id, start, now }));
        break;
      } catch (error) {
        // That day's time is not offered (a weekend, a closed day, taken): try the next day.
        if (!(error instanceof AppError && error.code === 'conflict')) throw error;
      }
    }
  }
  return { eventTypes: EVENT_TYPES.length, bookings: booked.length };
}
