/**
 * The slot engine's typed errors. Both are `invalid_request` AppErrors listing every problem (the
 * same body as a schema failure), so an operation that lets one through still answers 400, never
 * 500; and callers can tell them apart by class.
 */
import { AppError, type FieldProblem } from '../../../core/errors.ts';

function invalidBody(problems: FieldProblem[]): { message: string; details: Record<string, unknown> | undefined } {
  const listed = AppError.invalid(problems);
  return { message: listed.message, details: listed.details };
}

/** The window asked for is unusable: not a real instant, `to` not after `from`, or longer than 31 days. */
export class SlotWindowError extends AppError {
  readonly problems: FieldProblem[];
  constructor(problems: FieldProblem[]) {
    const { message, details } = invalidBody(problems);
    super('invalid_request', message, details);
    this.name = 'SlotWindowError';
    this.problems = problems;
  }
}

/** Rules the engine cannot compute with (schedulingRulesProblems lists why). */
export class SchedulingRulesError extends AppError {
  readonly problems: FieldProblem[];
  constructor(problems: FieldProblem[]) {
    const { message, details } = invalidBody(problems);
    super('invalid_request', message, details);
    this.name = 'SchedulingRulesError';
    this.problems = problems;
  }
}
