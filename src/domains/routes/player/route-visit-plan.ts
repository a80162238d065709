/**
 * What a batch of route player events (POST /r/{route_id}/events) changes in a visit, checked
 * against the route's current graph and the path the visit has so far. Pure: route-visits.ts loads
 * the state, plans, and applies the plan in one transaction.
 *
 * The rules (docs/viewer.md, "Route player"): index 0 is the entry step; the step at index n > 0 is
 * the one the choice at n − 1 led to; a choice is one of the step's current choices; a finish is
 * sent for a step without choices. Events already on record (the same step at an index, the same
 * choice) change nothing, so a batch sent twice counts once; every other problem is named by the
 * event it is in, and the whole batch is refused.
 */
import type { FieldProblem } from '../../../core/errors.ts';
import type { ChoiceTarget, VisitEnding } from '../../../db/tables/index.ts';
import type { RouteGraph } from '../graph/route-graph.ts';

export type RouteEvent =
  | { type: 'step'; index: number; step_id: string }
  | { type: 'choice'; index: number; step_id: string; choice_id: string }
  | { type: 'finish'; index: number; step_id: string };

/** A choice as a visit may have recorded it: current or since retired by re-wiring. */
export interface KnownChoice {
  id: string;
  label: string;
  target: ChoiceTarget;
  toStepId: string | null;
}

/** One step of the visit's path as stored (route_visit_steps). */
export interface PathStep {
  stepId: string;
  choiceId: string | null;
}

export interface VisitState {
  /** The path so far, by index (0, 1, 2… without gaps). */
  path: PathStep[];
  endedBy: VisitEnding | null;
}

export interface VisitPlan {
  problems: FieldProblem[];
  /** Steps reached for the first time, by index. */
  reached: { index: number; stepId: string }[];
  /** Choices made for the first time. */
  chosen: { index: number; choice: KnownChoice }[];
  /** How the visit ended in this batch, if it did. */
  ending: VisitEnding | null;
}

/**
 * How a choice of each target ends a visit: url leaves it, and so does booking (for the booking page: a link out,
 * not a completion), end completes it, lead_form waits for the form.
 */
const ENDING_OF: Record<ChoiceTarget, VisitEnding | null> = { step: null, url: 'url', lead_form: null, booking: 'url', end: 'end' };

export function planVisitEvents(
  graph: RouteGraph,
  choices: ReadonlyMap<string, KnownChoice>,
  state: VisitState,
  events: readonly RouteEvent[],
): VisitPlan {
  const steps = new Map(graph.steps.map((step) => [step.id, step]));
  const entry = graph.steps.find((step) => step.position === 0);
  const path: PathStep[] = state.path.map((step) => ({ ...step }));
  let endedBy = state.endedBy;
  const plan: VisitPlan = { problems: [], reached: [], chosen: [], ending: null };

  /** Applies one event to the path and the plan; what is wrong with it, if anything. */
  const apply = (event: RouteEvent): [field: string, problem: string] | undefined => {
    const problem = (field: string, text: string): [string, string] => [field, text];
    const step = steps.get(event.step_id);
    if (!step) return problem('.step_id', 'is not a step of this route');
    const at = path[event.index];
    const stepAt = `the visit is at another step at index ${event.index}`;

    if (event.type === 'step') {
      if (at) return at.stepId === event.step_id ? undefined : problem('.step_id', stepAt);
      if (event.index !== path.length) {
        return problem(
          '.index',
          `the visit has reached ${path.length} step${path.length === 1 ? '' : 's'}; the next is index ${path.length}`,
        );
      }
      if (endedBy) return problem('', 'the visit has ended; reload the page to start again');
      if (event.index === 0) {
        if (event.step_id !== entry?.id) return problem('.step_id', 'index 0 is the entry step, and this is another step');
        // The player never starts a visit it cannot play: the page shows the step as not available.
        if (entry.video.state !== 'ready') return problem('.step_id', 'the entry step’s video is not available, so no visit can start');
      } else {
        const before = path[event.index - 1] as PathStep;
        const led = before.choiceId ? choices.get(before.choiceId) : undefined;
        if (!led) return problem('.index', `no choice was made at index ${event.index - 1} yet`);
        if (led.target !== 'step' || led.toStepId !== event.step_id) {
          return problem('.step_id', `the choice made at index ${event.index - 1} does not lead to this step`);
        }
      }
      path.push({ stepId: event.step_id, choiceId: null });
      plan.reached.push({ index: event.index, stepId: event.step_id });
      return undefined;
    }

    if (!at) return problem('.index', `the visit has not reached index ${event.index}`);
    if (at.stepId !== event.step_id) return problem('.step_id', stepAt);

    if (event.type === 'choice') {
      if (at.choiceId === event.choice_id) return undefined;
      if (at.choiceId) return problem('.choice_id', `another choice was already made at index ${event.index}`);
      if (endedBy) return problem('', 'the visit has ended; reload the page to start again');
      const current = step.choices.find((choice) => choice.id === event.choice_id);
      if (!current) return problem('.choice_id', 'is not one of the step’s current choices');
      const choice = { id: current.id, label: current.label, target: current.target, toStepId: current.toStepId };
      at.choiceId = choice.id;
      plan.chosen.push({ index: event.index, choice });
      const ending = ENDING_OF[choice.target];
      if (ending) plan.ending = endedBy = ending;
      return undefined;
    }

    // finish: the last step, one without choices, played to its end.
    if (endedBy === 'last_step') return undefined;
    if (step.choices.length > 0) return problem('.step_id', 'the step has choices; a visit goes on from it by choosing');
    if (event.index !== path.length - 1) return problem('.index', 'only the last step reached can be finished');
    if (endedBy) return problem('', 'the visit has ended; reload the page to start again');
    plan.ending = endedBy = 'last_step';
    return undefined;
  };

  events.forEach((event, i) => {
    const wrong = apply(event);
    if (wrong) plan.problems.push({ field: `events[${i}]${wrong[0]}`, problem: wrong[1] });
  });
  return plan;
}
