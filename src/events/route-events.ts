/**
 * What `route.completed` carries: a viewer reached the end of an interactive route, and the path
 * they took through it. Routes have no operations yet; the schema is fixed now.
 */
import { Type } from 'typebox';
import { Id, Nullable } from '../core/schemas.ts';

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
          choice: Nullable(Type.String({ description: 'The choice made after this step; null on the last.' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, description: 'The steps watched, in order.' },
    ),
  },
  { additionalProperties: false },
);
