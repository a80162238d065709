/**
 * What `route.completed` carries: a viewer reached an end of an interactive route (an `end` choice,
 * the lead form sent, or a step without choices played out), the path they took through it, and
 * the lead their browser is known as (docs/routes.md).
 */
import { Type } from 'typebox';
import type { EventDefinition } from '../../core/event-definition.ts';
import { Id, Nullable } from '../../core/schemas.ts';

const RouteId = Id('The route id.');

export const RouteCompleted = Type.Object(
  {
    route_id: RouteId,
    route: Type.Object({ route_id: RouteId, name: Type.String() }, { additionalProperties: false }),
    lead_id: Nullable(Id('The lead the viewer is known as, if any.')),
    path: Type.Array(
      Type.Object(
        {
          video_id: Id('A step’s video.'),
          title: Type.String(),
          choice: Nullable(
            Type.String({ description: 'The choice made at this step; null on a last step played out (one without choices).' }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, description: 'The steps watched, in order.' },
    ),
  },
  { additionalProperties: false },
);

/** The route event types this area emits, assembled with every other area's by src/event-catalog.ts. */
export const routeEvents = {
  'route.completed': {
    summary: 'A route was completed',
    when: 'A viewer reached an end of an interactive route: an end choice, the lead form sent, or a last step played out.',
    data: RouteCompleted,
  },
} as const satisfies Record<string, EventDefinition>;
