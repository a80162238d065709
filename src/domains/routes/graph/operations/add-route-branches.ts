/**
 * add_route_branches: wires a step's question and choices (the entry step unless from_step_id says
 * otherwise), replacing what it had: choices keeping a label keep their id, the others are retired.
 * On a live route, wiring that would give the route a new problem is refused (live-route-checks.ts).
 * A choice may open a booking page (event_type_id: an active event type of the workspace).
 * Writes the choices, the step, any new steps for to_video, and the route's updated_at; emits no
 * event. Every problem of the call is named in one answer (branch-checks.ts).
 */
import { Type } from 'typebox';
import { AppError } from '../../../../core/errors.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { ResourceId } from '../../../../core/schemas.ts';
import { isUuid } from '../../../../core/values/real-instants.ts';
import { ChoiceLabel, Question, ROUTE_LIMITS, RouteDetail, RouteId, StepId, VideoReference } from '../../routes.schemas.ts';
import { checkBranches } from '../branch-checks.ts';
import { keepLiveRouteSound } from '../live-route-checks.ts';
import { routeDetail } from '../route-detail.queries.ts';
import { loadRouteGraph, lockRoute } from '../route-graph.queries.ts';
import { graphProblems } from '../route-graph.ts';
import { wireStep } from '../route-writes.queries.ts';
import { textField } from '../step-video-checks.ts';

const Branch = Type.Object(
  {
    label: ChoiceLabel,
    to_step_id: Type.Optional(StepId('Plays this step.')),
    to_video: Type.Optional(VideoReference('Plays a new step of this video.')),
    url: Type.Optional(Type.String({ format: 'uri', maxLength: ROUTE_LIMITS.url, description: 'Opens this https link.' })),
    event_type_id: Type.Optional(ResourceId('event_type', 'Opens this active event type’s booking page.')),
    lead_form: Type.Optional(Type.Boolean({ description: 'true: the lead form; sending it completes the route.' })),
    end: Type.Optional(Type.Boolean({ description: 'true: the end card; completes the route.' })),
  },
  { additionalProperties: false, description: 'A label and exactly one target.' },
);

export const addRouteBranches = defineOperation({
  name: 'add_route_branches',
  summary: 'Wire a step’s question and choices',
  description:
    'Sets the question and choices of from_step_id (default the entry step), replacing current ones: a choice keeping ' +
    'its label keeps its numbers. Every problem is named in one answer.',
  method: 'POST',
  path: '/routes/{route_id}/branches',
  group: 'Routes',
  scope: 'routes:write',
  entitlement: 'interactive_routes',
  write: true,
  errors: ['not_found'],
  input: Type.Object(
    {
      route_id: RouteId,
      from_step_id: Type.Optional(StepId('The step asking; default the entry step.')),
      question: Type.Optional(Question),
      ask_at_second: Type.Optional(Type.Number({ minimum: 0, description: 'Pause the video here to ask; default at its end.' })),
      branches: Type.Array(Branch, { minItems: 1, maxItems: ROUTE_LIMITS.choices }),
    },
    { additionalProperties: false },
  ),
  async databaseProblems(db, workspaceId, input) {
    const routeId = textField(input, 'route_id');
    const steps = routeId && isUuid(routeId) ? (await loadRouteGraph(db, workspaceId, routeId.toLowerCase())).steps : [];
    return (await checkBranches(db, workspaceId, steps, input)).problems;
  },
  output: RouteDetail,
  example: {
    route_id: '5d0c1f8e-2b3a-4c7d-9e6f-1a2b3c4d5e6f',
    question: 'Which plan fits you?',
    branches: [
      { label: 'Starter', to_video: 'Starter plan tour' },
      { label: 'Talk to sales', lead_form: true },
      { label: 'Book a demo', event_type_id: '7b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e' },
      { label: 'Just looking', end: true },
    ],
  },
  async handler(ctx, input) {
    const route = await lockRoute(ctx.db, ctx.workspaceId, input.route_id);
    const graph = await loadRouteGraph(ctx.db, ctx.workspaceId, input.route_id);
    const { problems, fromStep, choices } = await checkBranches(ctx.db, ctx.workspaceId, graph.steps, input);
    if (problems.length > 0 || !fromStep) throw AppError.refusing(problems);
    await wireStep(ctx.db, {
      workspaceId: ctx.workspaceId,
      routeId: input.route_id,
      stepId: fromStep.id,
      question: input.question?.trim() ?? null,
      askAtSeconds: input.ask_at_second ?? null,
      choices,
      now: ctx.now,
    });
    if (route.status === 'live') {
      await keepLiveRouteSound(ctx.db, { workspaceId: ctx.workspaceId, routeId: route.id }, graphProblems(graph), 'branches');
    }
    return routeDetail(ctx.db, ctx.workspaceId, input.route_id, ctx.links);
  },
});
