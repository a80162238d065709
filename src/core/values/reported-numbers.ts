/**
 * How numbers leave the API, in one place, so get_video, list_videos, the analytics operations and
 * anything built from them report the same figure the same way: seconds to tenths, shares (0–1) to
 * four decimals, percentages to one decimal. Sums of floating-point deltas carry noise
 * (26630.999000000007 seconds, 0.40067587008759004); these functions take it off at the edge, where
 * a figure is reported, never in stored or intermediate values.
 */

/** `value` to `digits` decimals. */
export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** A duration or a position in a video, in seconds: to tenths. */
export function seconds(value: number): number {
  return round(value, 1);
}

/** Like `seconds`, keeping null (a duration not known yet). */
export function secondsOrNull(value: number | null): number | null {
  return value === null ? null : seconds(value);
}

/** A share, between 0 and 1 (a rate, a retention): to four decimals, clamped into 0–1. */
export function share(value: number): number {
  return round(Math.min(1, Math.max(0, value)), 4);
}

/** part / whole as a share; 0 when the whole is 0 (no views: no rate). */
export function shareOf(part: number, whole: number): number {
  return whole > 0 ? share(part / whole) : 0;
}

/** A percentage (a change, a score out of 100): to one decimal. */
export function percent(value: number): number {
  return round(value, 1);
}

/** (value − previous) / previous in percent, to one decimal; null when there is nothing to compare with. */
export function changePercent(value: number, previous: number): number | null {
  return previous > 0 ? percent(((value - previous) / previous) * 100) : null;
}
