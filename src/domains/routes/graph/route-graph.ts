/**
 * A route's graph as the domain reasons about it, and what is wrong with one. Pure: the queries
 * (route-graph.queries.ts) load it, get_route reports the problems, and update_route refuses to put
 * a route live while there are any.
 *
 * A visit ends well at an `end` choice, at the lead form, or at a step without choices (its video is
 * the last one); following an https link, or a booking choice to a booking page, leaves the route, which is a way out too. The problems:
 * - broken_video: the step's video is archived or not ready, so the player cannot play it;
 * - inactive_event_type: a choice opens the booking page of an event type since deactivated, which books nothing;
 * - unreachable_step: no chain of choices from the entry step leads to it;
 * - self_loop: every choice of the step plays the step again;
 * - no_way_to_end: from the step, no chain of choices reaches a way out (a loop between steps).
 */
import type { ChoiceTarget } from '../../../db/tables/index.ts';
import type { RouteProblemCode } from '../routes.schemas.ts';

export type VideoState = 'ready' | 'archived' | 'waiting_upload' | 'processing' | 'failed';

export interface GraphChoice {
  id: string;
  label: string;
  target: ChoiceTarget;
  toStepId: string | null;
  url: string | null;
  /** For a booking choice: the event type whose booking page it opens, with its name and whether it is active. */
  eventType: { id: string; name: string; active: boolean } | null;
}

export interface GraphStep {
  id: string;
  /** Order of addition; 0 is the entry step. */
  position: number;
  video: { id: string; title: string; state: VideoState; durationSeconds: number | null };
  question: string | null;
  askAtSeconds: number | null;
  /** The current choices, in order. */
  choices: GraphChoice[];
}

export interface RouteGraph {
  steps: GraphStep[];
}

export interface GraphProblem {
  code: RouteProblemCode;
  stepId: string | null;
  message: string;
}

/** How messages name a step: its number in the order of addition and its video's title. */
export function stepName(step: GraphStep): string {
  return `step ${step.position + 1} (“${step.video.title}”)`;
}

export function entryStep(graph: RouteGraph): GraphStep {
  const entry = graph.steps.find((step) => step.position === 0);
  if (!entry) throw new Error('A route always has its entry step');
  return entry;
}

/** Whether a visit at this step can leave it without playing another step. */
function hasWayOut(step: GraphStep): boolean {
  return step.choices.length === 0 || step.choices.some((choice) => choice.target !== 'step');
}

/** Every problem of the graph, in step order. */
export function graphProblems(graph: RouteGraph): GraphProblem[] {
  const byId = new Map(graph.steps.map((step) => [step.id, step]));
  const next = (step: GraphStep) =>
    step.choices.flatMap((choice) => (choice.toStepId && byId.has(choice.toStepId) ? [choice.toStepId] : []));

  const reachable = new Set<string>();
  const queue = [entryStep(graph).id];
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (reachable.has(id)) continue;
    reachable.add(id);
    queue.push(...next(byId.get(id) as GraphStep));
  }

  // Steps that can reach a way out: start from the steps that have one and walk choices backwards.
  const previous = new Map<string, string[]>();
  for (const step of graph.steps) {
    for (const to of next(step)) previous.set(to, [...(previous.get(to) ?? []), step.id]);
  }
  const canEnd = new Set<string>();
  const back = graph.steps.filter(hasWayOut).map((step) => step.id);
  while (back.length > 0) {
    const id = back.pop() as string;
    if (canEnd.has(id)) continue;
    canEnd.add(id);
    back.push(...(previous.get(id) ?? []));
  }

  const problems: GraphProblem[] = [];
  for (const step of [...graph.steps].sort((a, b) => a.position - b.position)) {
    const name = stepName(step);
    if (step.video.state !== 'ready') {
      const why = step.video.state === 'archived' ? 'is archived' : `is not ready (${step.video.state.replace('_', ' ')})`;
      problems.push({ code: 'broken_video', stepId: step.id, message: `${name}: its video ${why}; unarchive it or wire the step out` });
    }
    for (const choice of step.choices) {
      if (choice.eventType && !choice.eventType.active) {
        problems.push({
          code: 'inactive_event_type',
          stepId: step.id,
          message: `${name}: the choice “${choice.label}” opens the booking page of “${choice.eventType.name}”, which is inactive; reactivate it or wire the choice elsewhere`,
        });
      }
    }
    if (!reachable.has(step.id)) {
      problems.push({ code: 'unreachable_step', stepId: step.id, message: `${name}: no choice leads to it from the entry step` });
    } else if (!canEnd.has(step.id)) {
      const selfLoop = step.choices.every((choice) => choice.toStepId === step.id);
      problems.push(
        selfLoop
          ? { code: 'self_loop', stepId: step.id, message: `${name}: every choice plays the step again; add a way out` }
          : { code: 'no_way_to_end', stepId: step.id, message: `${name}: no chain of choices from it reaches an end` },
      );
    }
  }
  return problems;
}
