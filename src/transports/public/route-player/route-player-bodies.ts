/**
 * What the route player's two endpoints accept (docs/viewer.md, "Route player"): POST
 * /r/{route_id}/events, the visit's steps, choices and finish in order; POST /r/{route_id}/lead, the
 * route's lead form. Both carry the page's route token and the browser's viewer id. A choice names
 * its choice_id and the other events must not: that rule is checked after the schema, so every
 * problem is listed in one answer.
 */
import { type Static, Type } from 'typebox';
import type { FieldProblem } from '../../../core/errors.ts';
import { Email, Id, PersonName, Phone, StringEnum } from '../../../core/schemas.ts';
import { ViewerIdField } from '../../../domains/viewing/index.ts';

export const ROUTE_EVENTS_PER_BATCH = 20;
/** The longest path a visit may report: far beyond a person going round a route's loops. */
export const MAX_VISIT_INDEX = 999;

const RouteTokenField = Type.String({ minLength: 1, maxLength: 200, description: 'The route token of the page.' });
const Index = Type.Integer({ minimum: 0, maximum: MAX_VISIT_INDEX, description: 'The position in the visit’s path; 0 is the entry step.' });

const RouteEventItem = Type.Object(
  {
    type: StringEnum(['step', 'choice', 'finish'], { description: 'step: reached; choice: chose at it; finish: a last step played out.' }),
    index: Index,
    step_id: Id('The step at that index.'),
    choice_id: Type.Optional(Id('For a choice: the choice made.')),
  },
  { additionalProperties: false },
);

export const RouteEventsBody = Type.Object(
  {
    token: RouteTokenField,
    viewer_id: ViewerIdField,
    events: Type.Array(RouteEventItem, { minItems: 1, maxItems: ROUTE_EVENTS_PER_BATCH }),
  },
  { additionalProperties: false },
);
export type RouteEventsBody = Static<typeof RouteEventsBody>;

/**
 * A choice needs its choice_id; a step or a finish has none. Read from the body as sent (it runs
 * beside the schema's checks, so one answer names both), looking at no more events than a batch holds.
 */
export function eventShapeProblems(body: unknown): FieldProblem[] {
  const events = typeof body === 'object' && body !== null ? (body as { events?: unknown }).events : undefined;
  if (!Array.isArray(events)) return [];
  return events.slice(0, ROUTE_EVENTS_PER_BATCH).flatMap((event: unknown, i) => {
    if (typeof event !== 'object' || event === null) return [];
    const { type, choice_id: choiceId } = event as { type?: unknown; choice_id?: unknown };
    if (type === 'choice' && choiceId === undefined) return [{ field: `events[${i}].choice_id`, problem: 'is required for a choice' }];
    if ((type === 'step' || type === 'finish') && choiceId !== undefined) {
      return [{ field: `events[${i}].choice_id`, problem: `is only for a choice, not a ${type}` }];
    }
    return [];
  });
}

export const RouteLeadBody = Type.Object(
  {
    token: RouteTokenField,
    viewer_id: ViewerIdField,
    index: Index,
    step_id: Id('The step whose lead_form choice showed the form.'),
    email: Email('The viewer’s email address.'),
    first_name: Type.Optional(PersonName('First name.')),
    last_name: Type.Optional(PersonName('Last name.')),
    phone: Type.Optional(Phone('Phone number.')),
  },
  { additionalProperties: false },
);
export type RouteLeadBody = Static<typeof RouteLeadBody>;
