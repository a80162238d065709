/**
 * From rollup rows (one per video per local day) to the metrics every analytics answer reports, with
 * the definitions of docs/analytics.md: sums add up, rates divide by views (0 when there are none),
 * and distinct viewers over several rows come from merging their sketches, never from adding counts.
 */
import { countViewers, mergeSketches } from './viewer-sketch.ts';

export interface RollupRow {
  day: string;
  views: number;
  watch_time_seconds: number;
  engagement_sum: number;
  completions: number;
  conversions: number;
}

export interface Sums {
  views: number;
  watchTimeSeconds: number;
  engagementSum: number;
  completions: number;
  conversions: number;
}

export interface Metrics {
  views: number;
  unique_viewers: number;
  watch_time_seconds: number;
  average_engagement: number;
  completions: number;
  completion_rate: number;
  conversions: number;
  conversion_rate: number;
}

export function emptySums(): Sums {
  return { views: 0, watchTimeSeconds: 0, engagementSum: 0, completions: 0, conversions: 0 };
}

export function addRow(sums: Sums, row: RollupRow): Sums {
  sums.views += row.views;
  sums.watchTimeSeconds += row.watch_time_seconds;
  sums.engagementSum += row.engagement_sum;
  sums.completions += row.completions;
  sums.conversions += row.conversions;
  return sums;
}

export function sumRows(rows: readonly RollupRow[]): Sums {
  return rows.reduce(addRow, emptySums());
}

/** Rounds away the noise that summing floating-point deltas leaves (0.30000000000000004). */
export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** (value − previous) / previous in percent, to one decimal; null when there is nothing to compare with. */
export function changePercent(value: number, previous: number): number | null {
  return previous > 0 ? round(((value - previous) / previous) * 100, 1) : null;
}

/** part / whole as a share 0–1 to four decimals; 0 when the whole is 0. */
export function share(part: number, whole: number): number {
  return whole > 0 ? round(Math.min(1, Math.max(0, part / whole)), 4) : 0;
}

export function metricsOf(sums: Sums, uniqueViewers: number): Metrics {
  return {
    views: sums.views,
    unique_viewers: uniqueViewers,
    watch_time_seconds: round(sums.watchTimeSeconds, 2),
    average_engagement: share(sums.engagementSum, sums.views),
    completions: sums.completions,
    completion_rate: share(sums.completions, sums.views),
    conversions: sums.conversions,
    conversion_rate: share(sums.conversions, sums.views),
  };
}

/** Distinct viewers across rollup rows: their sketches merged, then counted. */
export function distinctViewers(sketches: Iterable<Uint8Array | null | undefined>): number {
  return countViewers(mergeSketches(sketches));
}

/** Rows grouped by day, for zero-filled series. */
export function byDay<T extends { day: string }>(rows: readonly T[]): Map<string, T[]> {
  const days = new Map<string, T[]>();
  for (const row of rows) {
    const list = days.get(row.day);
    if (list) list.push(row);
    else days.set(row.day, [row]);
  }
  return days;
}
