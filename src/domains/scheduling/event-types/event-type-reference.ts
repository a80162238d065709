/**
 * An event type a caller names by id or by exact name (get_scheduling_availability's `event_type`),
 * resolved as create_route resolves a video: what cannot be resolved is a problem of the field, so it
 * is listed with every other problem of the request. An id no event type of the workspace has reads
 * the same whoever owns it, and is a not_found once the request's shape is right (AppError.refusing);
 * a name several event types share is refused naming them with their ids, unless exactly one of them
 * is active (an inactive namesake is an old version kept for its bookings).
 */
import { type Kysely, sql } from 'kysely';
import { type FieldProblem, unknownId } from '../../../core/errors.ts';
import { isUuid } from '../../../core/values/real-instants.ts';
import type { Database, EventTypeRow } from '../../../db/tables/index.ts';

/** Candidates a problem names; beyond them it says how many more. */
const MAX_CANDIDATES = 5;
/** Namesakes read at most: enough to name the candidates and count them. */
const MAX_NAMESAKES = 50;

export type ResolvedEventType = { eventType: EventTypeRow; problems: [] } | { eventType: undefined; problems: FieldProblem[] };

const quote = (text: string) => `“${text}”`;

export async function resolveEventType(
  db: Kysely<Database>,
  workspaceId: string,
  reference: string,
  field = 'event_type',
): Promise<ResolvedEventType> {
  const wanted = reference.trim();
  const problem = (text: string): ResolvedEventType => ({ eventType: undefined, problems: [{ field, problem: text }] });
  if (isUuid(wanted)) {
    const row = await db
      .selectFrom('event_types')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', wanted.toLowerCase())
      .executeTakeFirst();
    return row ? { eventType: row, problems: [] } : { eventType: undefined, problems: [unknownId(field, 'event type', wanted)] };
  }
  // Case-insensitive here, so that "intro call" can point at "Intro call"; the match itself is exact.
  const namesakes = await db
    .selectFrom('event_types')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where(sql<string>`lower(name)`, '=', wanted.toLowerCase())
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(MAX_NAMESAKES)
    .execute();
  const exact = namesakes.filter((row) => row.name === wanted);
  const active = exact.filter((row) => row.active);
  if (exact.length === 1) return { eventType: exact[0] as EventTypeRow, problems: [] };
  if (active.length === 1) return { eventType: active[0] as EventTypeRow, problems: [] };
  if (exact.length > 1) {
    const among = active.length > 1 ? active : exact;
    return problem(`${among.length} event types are named ${quote(wanted)}: ${candidates(among)}; send the id of one`);
  }
  const hint = namesakes.length > 0 ? `; names differ only in case: ${candidates(namesakes)}` : '';
  return problem(`no event type is named exactly ${quote(wanted)}${hint}`);
}

function candidates(rows: readonly EventTypeRow[]): string {
  const named = rows.slice(0, MAX_CANDIDATES).map((row) => `${row.id} (${quote(row.name)}${row.active ? '' : ', inactive'})`);
  const more = rows.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}
