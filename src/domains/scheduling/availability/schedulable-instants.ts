/**
 * How late a time scheduling takes may be. Inputs are real instants up to the end of year 9999
 * (core/values/real-instants.ts), but judging a slot reads the bookings and busy times of the days around
 * it and a booking ends after it starts: near the end of 9999 those fall in year 10000, which the
 * database cannot store. So scheduling stops well before: a plain 400, not a 500.
 */
import { AppError, type FieldProblem } from '../../../core/errors.ts';

export const LATEST_SCHEDULABLE = new Date('9990-01-01T00:00:00.000Z');

/** The problem with `at` as a time to schedule at, if it is too late. */
export function tooLateToSchedule(field: string, at: Date): FieldProblem | undefined {
  return at.getTime() >= LATEST_SCHEDULABLE.getTime()
    ? { field, problem: `must be before ${LATEST_SCHEDULABLE.toISOString()} (scheduling reads the days around it)` }
    : undefined;
}

/** Throws `invalid_request` naming every field given whose time is too late. */
export function requireSchedulable(times: Record<string, Date>): void {
  const problems = Object.entries(times).flatMap(([field, at]) => tooLateToSchedule(field, at) ?? []);
  if (problems.length > 0) throw AppError.invalid(problems);
}
