/**
 * What is wrong with a create_event_type or update_event_type call beyond its shape, every problem
 * at once: the scheduling rules it would give the event type (rules-problems.ts: times that are no
 * time, intervals that overlap, a date overridden twice…), and a name another active event type
 * already has. Names are unique among active event types, case aside, because availability and the
 * booking tools find an event type by its exact name as well as by id: two "Intro call"s would make
 * that lookup ambiguous. An inactive event type keeps its name and gives it up: reactivating it while
 * another active one has taken the name is refused the same way.
 *
 * Reads the input as sent, so the pipeline can ask it when the shape is wrong too
 * (Operation.databaseProblems); the handlers ask again on the valid input, in their transaction.
 */
import type { Kysely } from 'kysely';
import type { FieldProblem } from '../../../core/errors.ts';
import { isUuid } from '../../../core/values/real-instants.ts';
import type { Database, EventTypeRow } from '../../../db/tables/index.ts';
import { rulesOf } from '../availability/event-type-rules.ts';
import type { SchedulingRules } from '../availability/scheduling-rules.ts';
import { DEFAULT_WEEKLY_HOURS, rulesFromInput, rulesProblems } from './event-type-fields.ts';
import { activeEventTypeNamed } from './event-types.queries.ts';
import { DEFAULT_HORIZON_DAYS, EVENT_TYPE_LIMITS, EventTypeName } from './event-types.schemas.ts';

const SHOWN_NAME = new RegExp(String((EventTypeName as { pattern?: string }).pattern), 'u');

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};

/** The rules of an event type created with only a duration, in `timeZone`. */
export function defaultRules(durationMinutes: number, timeZone: string): SchedulingRules {
  return {
    durationMinutes,
    slotIntervalMinutes: durationMinutes,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    minimumNoticeMinutes: 0,
    horizonDays: DEFAULT_HORIZON_DAYS,
    dailyCap: null,
    timeZone,
    weeklyHours: DEFAULT_WEEKLY_HOURS,
    dateOverrides: [],
  };
}

/** The rules a create would store: the defaults (slot interval = duration, the workspace's zone) under what was sent. */
export function createdRules(input: unknown, workspaceZone: string): SchedulingRules {
  const duration = fieldsOf(input).duration_minutes;
  const base = defaultRules(30, workspaceZone);
  // The slot interval follows the duration, unless the duration is wrong: that is one problem, of duration_minutes.
  const usable = typeof duration === 'number' && rulesProblems({ ...base, slotIntervalMinutes: duration }).length === 0;
  return rulesFromInput(input, usable ? defaultRules(duration, workspaceZone) : base);
}

/** Why the name cannot be an active event type's, as a problem of `field`; none when it can. */
async function nameProblem(
  db: Kysely<Database>,
  workspaceId: string,
  name: unknown,
  field: string,
  exceptId?: string,
): Promise<FieldProblem[]> {
  // Only a name the schema accepts is looked up (a NUL, say, is the schema's to name, and no text column's).
  // Length in code points, as the schema counts it (an emoji is one character, two UTF-16 units).
  if (typeof name !== 'string' || [...name].length > EVENT_TYPE_LIMITS.name || !SHOWN_NAME.test(name)) return [];
  const holder = await activeEventTypeNamed(db, workspaceId, name, exceptId);
  if (!holder) return [];
  return [
    {
      field,
      problem: `is the name of active event type ${holder.id} (“${holder.name}”); active event types need different names (case aside): choose another, or deactivate that one`,
    },
  ];
}

export async function createProblems(db: Kysely<Database>, workspaceId: string, input: unknown, workspaceZone: string) {
  const fields = fieldsOf(input);
  const problems = rulesProblems(createdRules(input, workspaceZone));
  if (fields.active !== false) problems.push(...(await nameProblem(db, workspaceId, fields.name, 'name')));
  return problems;
}

/**
 * The problems of a patch of `current`: its rules as patched (only fields sent can be wrong: the
 * row's own were checked when written), and the name, when the patch renames an active event type
 * or makes one active.
 */
export async function updateProblems(db: Kysely<Database>, workspaceId: string, input: unknown, current: EventTypeRow) {
  const fields = fieldsOf(input);
  const problems = rulesProblems(rulesFromInput(input, rulesOf(current)));
  const active = typeof fields.active === 'boolean' ? fields.active : current.active;
  const renamed = typeof fields.name === 'string';
  if (active && (renamed || !current.active)) {
    const name = renamed ? fields.name : current.name;
    problems.push(...(await nameProblem(db, workspaceId, name, renamed ? 'name' : 'active', current.id)));
  }
  return problems;
}

/** The event type a patch names, when its id is well-formed and in the workspace. */
export async function patchedEventType(db: Kysely<Database>, workspaceId: string, input: unknown): Promise<EventTypeRow | undefined> {
  const id = fieldsOf(input).event_type_id;
  if (typeof id !== 'string' || !isUuid(id)) return undefined;
  return db
    .selectFrom('event_types')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id.toLowerCase())
    .selectAll()
    .executeTakeFirst();
}
