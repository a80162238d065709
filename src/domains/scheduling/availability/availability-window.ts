/**
 * The span get_scheduling_availability answers about, from what the caller sent: one exact `start`,
 * or a window [from, to) that defaults to the next 7 days from now and may reach 31 days. Problems
 * are the window's own (`to` before `from`, too long, `start` sent with a window); a field that is
 * not a date-time at all is the schema's problem and is left alone here, so a caller's every problem
 * is named once.
 */
import type { FieldProblem } from '../../../core/errors.ts';
import { tooLateToSchedule } from './schedulable-instants.ts';
import { MAX_WINDOW_DAYS } from './scheduling-rules.ts';

const DAY_MS = 86_400_000;
export const DEFAULT_WINDOW_DAYS = 7;

export interface WindowInput {
  from?: unknown;
  to?: unknown;
  start?: unknown;
}

export type AvailabilitySpan = { kind: 'window'; from: Date; to: Date } | { kind: 'start'; start: Date };

const instant = (value: unknown): Date | undefined => {
  if (typeof value !== 'string') return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at;
};

export function availabilitySpan(input: WindowInput, now: Date): { span: AvailabilitySpan | undefined; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  if (input.start !== undefined) {
    for (const field of ['from', 'to'] as const) {
      if (input[field] !== undefined)
        problems.push({ field, problem: 'must be left out when start is sent: start asks about one instant' });
    }
    const start = instant(input.start);
    const late = start && tooLateToSchedule('start', start);
    if (late) problems.push(late);
    return { span: start && problems.length === 0 ? { kind: 'start', start } : undefined, problems };
  }
  const from = input.from === undefined ? now : instant(input.from);
  if (!from) return { span: undefined, problems };
  const to = input.to === undefined ? new Date(from.getTime() + DEFAULT_WINDOW_DAYS * DAY_MS) : instant(input.to);
  if (!to) return { span: undefined, problems };
  for (const [field, at] of [
    ['from', from],
    ['to', to],
  ] as const) {
    const late = tooLateToSchedule(field, at);
    if (late) problems.push(late);
  }
  if (problems.length > 0) return { span: undefined, problems };
  const fromText = input.from === undefined ? `from (now, ${now.toISOString()})` : 'from';
  if (to.getTime() <= from.getTime()) problems.push({ field: 'to', problem: `must be after ${fromText}` });
  else if (to.getTime() - from.getTime() > MAX_WINDOW_DAYS * DAY_MS) {
    problems.push({ field: 'to', problem: `must be at most ${MAX_WINDOW_DAYS} days after ${fromText}` });
  }
  return { span: problems.length === 0 ? { kind: 'window', from, to } : undefined, problems };
}
