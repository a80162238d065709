/**
 * The video a new step plays (create_route's entry_video, add_route_step's video), checked the same
 * way by the pipeline on an input whose shape is wrong (Operation.databaseProblems) and by the
 * handler on a valid one: the reference must name one ready, non-archived video of the workspace,
 * and the route must have room for one more step. It reads the input as sent, trusting nothing.
 */
import type { Kysely } from 'kysely';
import type { FieldProblem } from '../../../core/errors.ts';
import { isUuid } from '../../../core/values/real-instants.ts';
import type { Database } from '../../../db/tables/index.ts';
import { ROUTE_LIMITS } from '../routes.schemas.ts';
import { countSteps, stepLimitProblem } from './route-writes.queries.ts';
import { type ResolvedVideo, resolveVideoReferences } from './video-references.ts';

export interface StepVideoCheck {
  problems: FieldProblem[];
  video: ResolvedVideo | undefined;
}

/** A field of the input as sent, when it is text. */
export function textField(input: unknown, name: string): string | undefined {
  const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Text that can name a video, as the schema (VideoReference) accepts it; the database is asked about
 * nothing else, so no input as sent reaches a query it would fail (PostgreSQL text holds no U+0000).
 */
export function isReferenceText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= 200 && !value.includes('\u0000');
}

/**
 * `field` names the video reference in `input`; `routeId`, when given, the route the step joins (the
 * route's steps are counted within the workspace: another workspace's route has none).
 */
export async function checkStepVideo(
  db: Kysely<Database>,
  workspaceId: string,
  input: unknown,
  field: string,
  routeId?: string,
): Promise<StepVideoCheck> {
  const problems: FieldProblem[] = [];
  if (routeId !== undefined && isUuid(routeId)) {
    const steps = await countSteps(db, workspaceId, routeId.toLowerCase());
    if (steps >= ROUTE_LIMITS.steps) problems.push({ field, problem: stepLimitProblem(steps, 1) });
  }
  const reference = textField(input, field);
  // Anything else is a shape problem, which the schema names.
  if (!isReferenceText(reference)) return { problems, video: undefined };
  const resolved = await resolveVideoReferences(db, workspaceId, [{ field, reference }]);
  return { problems: [...problems, ...resolved.problems], video: resolved.videos.get(field) };
}
