/**
 * The slot engine's two questions (issue 14, get_scheduling_availability): every candidate in a
 * window with its verdict, and the verdict on one exact start. Pure: the caller hands in the rules,
 * the bookings, the calendars' busy times and `now`.
 */
import type { FieldProblem } from '../../../core/errors.ts';
import { clockText, ZoneClock } from './local-time.ts';
import { schedulingRulesProblems } from './rules-problems.ts';
import { SchedulingRulesError, SlotWindowError } from './scheduling-errors.ts';
import { MAX_WINDOW_DAYS, type SchedulingRules, type SlotContext } from './scheduling-rules.ts';
import { candidateStarts, onGrid } from './slot-candidates.ts';
import { reasonText, type SlotVerdict } from './slot-reasons.ts';
import { SlotJudge } from './slot-verdict.ts';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Around the instants asked about, the zone's offsets are read this far: a slot, its buffers and its local day fit inside. */
const CLOCK_MARGIN_MS = 3 * DAY_MS;

export interface SlotWindow extends SlotContext {
  from: Date;
  to: Date;
}

function usableRules(rules: SchedulingRules): void {
  const problems = schedulingRulesProblems(rules);
  if (problems.length > 0) throw new SchedulingRulesError(problems);
}

function windowProblems(from: Date, to: Date): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (Number.isNaN(from.getTime())) problems.push({ field: 'from', problem: 'must be a date-time' });
  if (Number.isNaN(to.getTime())) problems.push({ field: 'to', problem: 'must be a date-time' });
  if (problems.length > 0) return problems;
  if (to.getTime() <= from.getTime()) problems.push({ field: 'to', problem: 'must be after from' });
  else if (to.getTime() - from.getTime() > MAX_WINDOW_DAYS * DAY_MS) {
    problems.push({ field: 'to', problem: `must be at most ${MAX_WINDOW_DAYS} days after from` });
  }
  return problems;
}

/** Every candidate start in [from, to), earliest first, each offered or with all its reasons. Throws SlotWindowError or SchedulingRulesError. */
export function slotsInWindow(rules: SchedulingRules, window: SlotWindow): SlotVerdict[] {
  const problems = windowProblems(window.from, window.to);
  if (problems.length > 0) throw new SlotWindowError(problems);
  usableRules(rules);
  const from = window.from.getTime();
  const to = window.to.getTime();
  const range = { from: from - CLOCK_MARGIN_MS, to: to + CLOCK_MARGIN_MS };
  const clock = new ZoneClock(rules.timeZone, range.from, range.to);
  const judge = new SlotJudge(rules, window, clock, range);
  return candidateStarts(clock, rules.slotIntervalMinutes, from, to).map((start) => judge.judge(start));
}

/**
 * The verdict on one exact instant, as if it were a candidate, plus `off_interval` when it is not on
 * the grid of starts (09:10 with 30-minute slots): such a start is never offered.
 */
export function explainStart(rules: SchedulingRules, start: Date, context: SlotContext): SlotVerdict {
  if (Number.isNaN(start.getTime())) throw new SlotWindowError([{ field: 'start', problem: 'must be a date-time' }]);
  usableRules(rules);
  const at = start.getTime();
  const range = { from: at - CLOCK_MARGIN_MS, to: at + CLOCK_MARGIN_MS };
  const clock = new ZoneClock(rules.timeZone, range.from, range.to);
  const judge = new SlotJudge(rules, context, clock, range);
  const { msOfDay } = clock.wallClockAt(at);
  if (onGrid(msOfDay, rules.slotIntervalMinutes)) return judge.judge(at);
  const step = rules.slotIntervalMinutes * MINUTE_MS;
  const earlier = Math.floor(msOfDay / step) * step;
  const later = earlier + step < DAY_MS ? clockText(earlier + step) : undefined;
  const message = reasonText.offInterval(clock.label(at), rules.slotIntervalMinutes, clockText(earlier), later);
  return judge.judge(at, [{ code: 'off_interval', message }]);
}
