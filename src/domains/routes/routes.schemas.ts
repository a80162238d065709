/**
 * Shapes the route operations share: a route as every answer shows it (its graph, the problems in
 * it, and what viewers did in it), the list item, and the limits a graph is built within.
 */
import { Type } from 'typebox';
import { Id, NOT_BLANK, Nullable, ResourceId, ResourceReference, ShownText, StringEnum, Timestamp, Trimmed } from '../../core/schemas.ts';

export const ROUTE_STATUSES = ['draft', 'live', 'paused', 'archived'] as const;
export const CHOICE_TARGETS = ['step', 'url', 'lead_form', 'booking', 'end'] as const;

export const ROUTE_LIMITS = {
  name: 200,
  question: 300,
  label: 80,
  /** Choices a step offers: what fits over a phone-sized player. */
  choices: 6,
  /** Steps in one route: far more than a route viewers finish needs, few enough to check every write. */
  steps: 50,
  url: 2000,
  /** The most common paths get_route lists. */
  paths: 5,
} as const;

export const RouteId = ResourceId('route', 'The route, as list_routes returns it.');
export const StepId = (description: string) => ResourceId('route_step', description);

export const RouteStatus = StringEnum(ROUTE_STATUSES, {
  description: 'draft (new, not public), live, paused (the link shows a paused page) or archived (hidden; reversible).',
});

// Names and labels are stored trimmed (docs/operations.md), so they are trimmed before they are judged.
export const RouteName = Trimmed(ShownText('The route’s name.', ROUTE_LIMITS.name));
export const Question = ShownText('Asked over the player with the choices.', ROUTE_LIMITS.question);
export const ChoiceLabel = Trimmed(ShownText('The button’s text; unique in the step, case aside.', ROUTE_LIMITS.label));

/** A video named by a writer: its id, or its exact title. */
export const VideoReference = (description: string) =>
  ResourceReference('video', {
    minLength: 1,
    maxLength: 200,
    ...NOT_BLANK,
    description: `${description} A video id or exact title; ready, not archived.`,
  });

const Share = Type.Number({ minimum: 0, maximum: 1, description: 'Of the visits that reached the step, 0–1.' });

const Choice = Type.Object(
  {
    choice_id: Id('The choice.'),
    label: Type.String(),
    target: StringEnum(CHOICE_TARGETS, { description: 'step, url, lead_form, booking or end.' }),
    to_step_id: Nullable(Id('For target step: the step it plays.')),
    url: Nullable(Type.String({ description: 'For target url: the https link it opens.' })),
    event_type_id: Nullable(Id('For target booking: the event type whose booking page it opens.')),
    booking_url: Nullable(Type.String({ description: 'For target booking: that booking page.' })),
    chosen: Type.Integer({ minimum: 0, description: 'Visits that made this choice.' }),
    share: Share,
  },
  { additionalProperties: false },
);

const Step = Type.Object(
  {
    step_id: Id('The step.'),
    entry: Type.Boolean({ description: 'The step every visit starts with.' }),
    video: Type.Object(
      {
        video_id: Id('The step’s video.'),
        title: Type.String(),
        available: Type.Boolean({ description: 'false when the video is archived or not ready: the step is broken.' }),
      },
      { additionalProperties: false },
    ),
    question: Nullable(Type.String({ description: 'Asked with the choices; null on a step without choices, which ends the route.' })),
    ask_at_second: Nullable(Type.Number({ minimum: 0, description: 'When the question shows; null: when the video ends.' })),
    choices: Type.Array(Choice),
    reached: Type.Integer({ minimum: 0, description: 'Visits that reached the step.' }),
    finished: Type.Integer({ minimum: 0, description: 'Visits that ended the route here without a choice (a step without choices).' }),
    dropped_off: Type.Integer({ minimum: 0, description: 'Visits that reached the step and went no further.' }),
  },
  { additionalProperties: false },
);

export const ROUTE_PROBLEM_CODES = ['broken_video', 'inactive_event_type', 'unreachable_step', 'no_way_to_end', 'self_loop'] as const;
export type RouteProblemCode = (typeof ROUTE_PROBLEM_CODES)[number];

export const RouteProblem = Type.Object(
  {
    code: StringEnum(ROUTE_PROBLEM_CODES),
    step_id: Nullable(Id('The step it concerns.')),
    message: Type.String(),
  },
  { additionalProperties: false },
);

const Path = Type.Object(
  {
    step_ids: Type.Array(Id('A step.'), { minItems: 1, description: 'The steps, in the order visited.' }),
    choices: Type.Array(Type.String(), { description: 'The labels chosen between them.' }),
    visits: Type.Integer({ minimum: 1 }),
    completed: Type.Integer({ minimum: 0, description: 'Of those visits, how many reached an end.' }),
  },
  { additionalProperties: false },
);

const RouteFields = {
  route_id: Id('The route.'),
  name: Type.String(),
  status: RouteStatus,
  url: Type.String({ description: 'The public route player; it plays only while the route is live.' }),
  entry_video: Type.Object({ video_id: Id('The entry step’s video.'), title: Type.String() }, { additionalProperties: false }),
  step_count: Type.Integer({ minimum: 1 }),
  starts: Type.Integer({ minimum: 0, description: 'Visits that played the entry step.' }),
  completions: Type.Integer({ minimum: 0, description: 'Visits that reached an end.' }),
  completion_rate: Type.Number({ minimum: 0, maximum: 1, description: 'completions / starts; 0 without starts.' }),
  created_at: Timestamp('When it was created.'),
  updated_at: Timestamp('When its name, status or graph last changed.'),
};

export const RouteSummary = Type.Object(RouteFields, { additionalProperties: false });

export const RouteDetail = Type.Object(
  {
    ...RouteFields,
    entry_step_id: Id('The step every visit starts with.'),
    steps: Type.Array(Step, { description: 'In the order they were added; the entry step first.' }),
    problems: Type.Array(RouteProblem, { description: 'What keeps the route from going live; empty when it may.' }),
    paths: Type.Array(Path, { description: `The ${ROUTE_LIMITS.paths} most common paths, most visits first.` }),
  },
  { additionalProperties: false },
);
