/**
 * From rollup rows (one per video per local day) to the metrics every analytics answer reports, with
 * the definitions of docs/analytics.md: sums add up, rates divide by views (0 when there are none),
 * and distinct viewers over several rows come from merging their sketches, never from adding counts.
 * A conversion is a view that clicked the call to action or a lead the video's form captured
 * (docs/decisions.md): the rollups count both, and `conversions` adds them here, in one place.
 */

import { seconds, shareOf } from '../../../core/values/reported-numbers.ts';
import { conversionsOf, countViewers, mergeSketches } from '../../viewing/index.ts';

export interface RollupRow {
  day: string;
  views: number;
  watch_time_seconds: number;
  engagement_sum: number;
  completions: number;
  /** Views that clicked the call to action. */
  conversions: number;
  /** Leads the video's form captured (each lead once per video). */
  leads: number;
}

export interface Sums {
  views: number;
  watchTimeSeconds: number;
  engagementSum: number;
  completions: number;
  ctaConversions: number;
  leads: number;
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
  leads: number;
}

export function emptySums(): Sums {
  return { views: 0, watchTimeSeconds: 0, engagementSum: 0, completions: 0, ctaConversions: 0, leads: 0 };
}

export function addRow(sums: Sums, row: RollupRow): Sums {
  sums.views += row.views;
  sums.watchTimeSeconds += row.watch_time_seconds;
  sums.engagementSum += row.engagement_sum;
  sums.completions += row.completions;
  sums.ctaConversions += row.conversions;
  sums.leads += row.leads;
  return sums;
}

export function sumRows(rows: readonly RollupRow[]): Sums {
  return rows.reduce(addRow, emptySums());
}

export function metricsOf(sums: Sums, uniqueViewers: number): Metrics {
  const conversions = conversionsOf({ conversions: sums.ctaConversions, leads: sums.leads });
  return {
    views: sums.views,
    unique_viewers: uniqueViewers,
    watch_time_seconds: seconds(sums.watchTimeSeconds),
    average_engagement: shareOf(sums.engagementSum, sums.views),
    completions: sums.completions,
    completion_rate: shareOf(sums.completions, sums.views),
    conversions,
    // A share, so at most 1: a gate form can capture a lead from a visit too short to be a view.
    conversion_rate: shareOf(conversions, sums.views),
    leads: sums.leads,
  };
}

/** Distinct viewers across rollup rows: their sketches merged, then counted. */
export function distinctViewers(sketches: Iterable<Uint8Array | null | undefined>): number {
  return countViewers(mergeSketches(sketches));
}

/**
 * Distinct videos viewed across workspace day rows: their sketches of video ids merged, then counted
 * (the same sketch as viewers': exact up to 512 videos, estimated within about 2% beyond).
 */
export function distinctVideos(sketches: Iterable<Uint8Array>): number {
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
