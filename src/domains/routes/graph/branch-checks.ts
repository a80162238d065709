/**
 * What is wrong with an add_route_branches call, every problem at once, and, when nothing is, the
 * choices to wire. It reads the input as sent, so that the pipeline can ask it when the input's shape
 * is wrong too (Operation.databaseProblems), and the handler asks it again on the valid input inside
 * its transaction. So it trusts nothing about the input's shape, and bounds its work: it looks at the
 * first MAX_EXAMINED branches (a list longer than the schema allows is a shape problem already).
 *
 * A step id of another route of the workspace reads "is not a step of this route"; an id no step of
 * the workspace has, another workspace's included, is unknown (not_found once the shape is right,
 * AppError.refusing), named like any id the caller sent: an answer shows nothing of another workspace.
 */
import type { Kysely } from 'kysely';
import { type FieldProblem, unknownId } from '../../../core/errors.ts';
import { isUuid } from '../../../core/values/real-instants.ts';
import type { Database } from '../../../db/tables/index.ts';
import { ROUTE_LIMITS } from '../routes.schemas.ts';
import { checkBookingTargets } from './booking-targets.ts';
import { workspaceStepIds } from './route-graph.queries.ts';
import { type GraphStep, stepName } from './route-graph.ts';
import { labelKey, stepLimitProblem, type WiredChoice } from './route-writes.queries.ts';
import { isReferenceText } from './step-video-checks.ts';
import { resolveVideoReferences, type VideoReference } from './video-references.ts';

/** Branches looked at: beyond the 6 allowed, enough to name what is wrong in an overlong list too. */
const MAX_EXAMINED = 20;
const TARGETS = ['to_step_id', 'to_video', 'url', 'event_type_id', 'lead_form', 'end'] as const;
const NOT_A_STEP = 'is not a step of this route';

export interface BranchesCheck {
  problems: FieldProblem[];
  /** The step being wired, when from_step_id (or the entry step) is one of the route's. */
  fromStep: GraphStep | undefined;
  /** The choices in order, once there are no problems. */
  choices: WiredChoice[];
}

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};

/** `steps`: the route's steps (none when the route is not the caller's). */
export async function checkBranches(
  db: Kysely<Database>,
  workspaceId: string,
  steps: readonly GraphStep[],
  input: unknown,
): Promise<BranchesCheck> {
  const fields = fieldsOf(input);
  const problems: FieldProblem[] = [];
  const stepOf = (id: unknown) => (typeof id === 'string' ? steps.find((step) => step.id === id.toLowerCase()) : undefined);
  const branches = (Array.isArray(fields.branches) ? fields.branches : []).slice(0, MAX_EXAMINED).map(fieldsOf);
  const stepProblem = await stepProblems(db, workspaceId, [fields.from_step_id, ...branches.map((branch) => branch.to_step_id)], stepOf);
  const fromStep = fields.from_step_id === undefined ? steps.find((step) => step.position === 0) : stepOf(fields.from_step_id);
  if (fields.from_step_id !== undefined && !fromStep) problems.push(stepProblem('from_step_id', fields.from_step_id));
  const duration = fromStep?.video.durationSeconds;
  if (typeof fields.ask_at_second === 'number' && typeof duration === 'number' && fields.ask_at_second > duration) {
    problems.push({ field: 'ask_at_second', problem: `is past the end of the step’s video, which is ${duration} seconds long` });
  }

  const references: VideoReference[] = [];
  const labels = new Map<string, string>();
  branches.forEach((branch, i) => {
    const at = (name: string) => `branches[${i}]${name ? `.${name}` : ''}`;
    const label = labelProblem(branch.label);
    if (label) problems.push({ field: at('label'), problem: label });
    else {
      const first = labels.get(labelKey(branch.label as string));
      if (first) problems.push({ field: at('label'), problem: `repeats the label of ${first}; labels must differ (case aside)` });
      else labels.set(labelKey(branch.label as string), at('label'));
    }
    const targets = TARGETS.filter((name) => (name === 'lead_form' || name === 'end' ? branch[name] === true : branch[name] !== undefined));
    if (targets.length !== 1) {
      const has = targets.length === 0 ? 'it has none' : `it has ${targets.length}: ${targets.join(', ')}`;
      problems.push({
        field: at(''),
        problem: `needs exactly one target (to_step_id, to_video, url, event_type_id, lead_form or end); ${has}`,
      });
    }
    if (branch.to_step_id !== undefined && !stepOf(branch.to_step_id)) problems.push(stepProblem(at('to_step_id'), branch.to_step_id));
    if (branch.url !== undefined && !isHttpsLink(branch.url)) {
      problems.push({ field: at('url'), problem: 'must be an https link (https://…); plain http and other schemes are refused' });
    }
    if (branch.to_video !== undefined) {
      const reference = branch.to_video;
      if (isReferenceText(reference)) {
        references.push({ field: at('to_video'), reference });
      } else problems.push({ field: at('to_video'), problem: 'must be a video id or exact title' });
    }
  });
  const { videos, problems: videoProblems } = await resolveVideoReferences(db, workspaceId, references);
  problems.push(...videoProblems);
  const bookings = await checkBookingTargets(
    db,
    workspaceId,
    branches.map((branch) => branch.event_type_id),
  );
  problems.push(...bookings.problems);

  if (fromStep && branches.length > 0 && branches.every((branch) => stepOf(branch.to_step_id) === fromStep)) {
    problems.push({ field: 'branches', problem: `every choice plays ${stepName(fromStep)} again; add a way out` });
  }
  // A to_video step already there is played again rather than added twice (reusableStep).
  const reused = new Map<string, GraphStep>();
  branches.forEach((branch, i) => {
    const video = videos.get(`branches[${i}].to_video`);
    const step = video && fromStep ? reusableStep(steps, fromStep, branch.label, video.id) : undefined;
    if (step) reused.set(`branches[${i}].to_video`, step);
  });
  const newSteps = new Set([...videos].filter(([field]) => !reused.has(field)).map(([, video]) => video.id)).size;
  if (steps.length > 0 && steps.length + newSteps > ROUTE_LIMITS.steps) {
    problems.push({ field: 'branches', problem: stepLimitProblem(steps.length, newSteps) });
  }
  if (problems.length > 0 || !fromStep) return { problems: problems.sort(byField), fromStep, choices: [] };

  const choices = branches.map((branch, i): WiredChoice => {
    const label = (branch.label as string).trim();
    const again = reused.get(`branches[${i}].to_video`);
    if (again) return { label, target: 'step', toStepId: again.id };
    const video = videos.get(`branches[${i}].to_video`);
    if (video) return { label, target: 'new_step', videoId: video.id };
    if (typeof branch.to_step_id === 'string') return { label, target: 'step', toStepId: (stepOf(branch.to_step_id) as GraphStep).id };
    if (typeof branch.url === 'string') return { label, target: 'url', url: branch.url };
    const eventTypeId = bookings.eventTypeIds.get(i);
    if (eventTypeId) return { label, target: 'booking', eventTypeId };
    return { label, target: branch.lead_form === true ? 'lead_form' : 'end' };
  });
  return { problems, fromStep, choices };
}

/**
 * The step a `to_video` choice plays when the route has it already, so that sending the same wiring
 * twice, or naming the video of a step added earlier, adds no step nothing leads to: the step the
 * same-labelled choice of this step plays now, when it plays that video; else a step of that video
 * that no other step's choice leads to (one add_route_step made, or one this step's choices being
 * replaced led to). Never the entry step or the step being wired.
 */
function reusableStep(steps: readonly GraphStep[], fromStep: GraphStep, label: unknown, videoId: string): GraphStep | undefined {
  const candidate = (step: GraphStep | undefined) => step && step.position !== 0 && step.id !== fromStep.id && step.video.id === videoId;
  if (typeof label === 'string') {
    const same = fromStep.choices.find((choice) => choice.toStepId && labelKey(choice.label) === labelKey(label));
    const current = steps.find((step) => step.id === same?.toStepId);
    if (candidate(current)) return current;
  }
  const ledToElsewhere = new Set(
    steps.filter((step) => step.id !== fromStep.id).flatMap((step) => step.choices.map((choice) => choice.toStepId)),
  );
  return steps.find((step) => candidate(step) && !ledToElsewhere.has(step.id));
}

/**
 * What is wrong with a step id that is not one of the route's: unknown when no step of the workspace
 * has it (one query for all the ids sent), else a step of another route.
 */
async function stepProblems(
  db: Kysely<Database>,
  workspaceId: string,
  sent: readonly unknown[],
  stepOf: (id: unknown) => GraphStep | undefined,
): Promise<(field: string, id: unknown) => FieldProblem> {
  const elsewhere = sent.filter((id): id is string => typeof id === 'string' && isUuid(id) && !stepOf(id)).map((id) => id.toLowerCase());
  const known = await workspaceStepIds(db, workspaceId, [...new Set(elsewhere)]);
  return (field, id) =>
    typeof id === 'string' && isUuid(id) && !known.has(id.toLowerCase())
      ? unknownId(field, 'route step', id)
      : { field, problem: NOT_A_STEP };
}

/** In the order of the input: the step's fields, each branch's, then the list's as a whole. */
function byField(a: FieldProblem, b: FieldProblem): number {
  const rank = (field: string) => {
    const branch = /^branches\[(\d+)\]/.exec(field);
    if (branch) return 2 + Number(branch[1]);
    return field === 'branches' ? MAX_EXAMINED + 2 : field === 'from_step_id' ? 0 : 1;
  };
  return rank(a.field) - rank(b.field);
}

function labelProblem(label: unknown): string | undefined {
  if (label === undefined) return 'is required';
  if (typeof label !== 'string') return 'must be text';
  if (label.trim() === '') return 'must not be empty or blank';
  if (label.length > ROUTE_LIMITS.label) return `must be at most ${ROUTE_LIMITS.label} characters`;
  return undefined;
}

/** An absolute https URL with a host, no longer than the limit. */
function isHttpsLink(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > ROUTE_LIMITS.url || !URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && url.hostname !== '';
}
