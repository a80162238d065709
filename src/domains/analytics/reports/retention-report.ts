/**
 * The body of get_video_retention from a heatmap row: pure, so the shape of an empty answer and the
 * rounding live in one place. Seconds are rounded to tenths, shares to four decimals
 * (core/values/reported-numbers.ts); the slice width keeps thousandths, as a short video's slices are
 * hundredths of a second wide.
 */
import { Type } from 'typebox';
import { percent, round, seconds, share } from '../../../core/values/reported-numbers.ts';
import { SLICES } from '../../viewing/index.ts';
import { findDropOffs, findRewatchPeaks, type Heatmap, retentionCurve, rewatchCurve, sliceSeconds } from './heatmap-reading.ts';

export const RetentionPoint = Type.Object(
  {
    slice: Type.Integer({ minimum: 0, maximum: SLICES - 1 }),
    start_seconds: Type.Number({ minimum: 0 }),
    end_seconds: Type.Number({ minimum: 0 }),
    retention: Type.Number({ minimum: 0, maximum: 1, description: 'Share of views that watched this slice.' }),
    rewatch: Type.Number({ minimum: 0, description: 'Plays of this slice per view; above retention when people replay it.' }),
  },
  { additionalProperties: false },
);

export interface HeatmapRow {
  views: number;
  reach: number[];
  plays: number[];
  cta_clicks: number[];
  engagement_sum: number | null;
}

export function toHeatmap(durationSeconds: number, row: HeatmapRow): Heatmap {
  return { views: row.views, durationSeconds, reach: row.reach, plays: row.plays, ctaClicks: row.cta_clicks };
}

export function describeRetention(durationSeconds: number | null, row: HeatmapRow | null) {
  const empty = {
    views: 0,
    slices: SLICES,
    slice_seconds: durationSeconds ? round(sliceSeconds(durationSeconds), 3) : null,
    average_percentage_viewed: 0,
    curve: [],
    opening_drop: 0,
    drop_offs: [],
    rewatch_peaks: [],
  };
  if (!durationSeconds || !row || row.views <= 0) {
    return { ...empty, note: 'No views yet: the curve fills in once someone plays the video for at least 1 second.' };
  }
  const heatmap = toHeatmap(durationSeconds, row);
  const width = sliceSeconds(durationSeconds);
  const retention = retentionCurve(heatmap);
  const rewatch = rewatchCurve(heatmap);
  return {
    ...empty,
    views: row.views,
    average_percentage_viewed: percent(Math.min(100, ((row.engagement_sum ?? 0) / row.views) * 100)),
    curve: retention.map((reached, slice) => ({
      slice,
      start_seconds: seconds(slice * width),
      end_seconds: seconds((slice + 1) * width),
      retention: share(reached),
      // Plays per view: above 1 where people replay, so a ratio to four decimals, not a share.
      rewatch: round(rewatch[slice] ?? 0, 4),
    })),
    opening_drop: share((retention[0] ?? 0) - (retention[1] ?? 0)),
    drop_offs: findDropOffs(heatmap)
      .slice(0, 3)
      .map((drop) => ({
        start_seconds: seconds(drop.startSeconds),
        end_seconds: seconds(drop.endSeconds),
        from_retention: share(drop.from),
        to_retention: share(drop.to),
        fall: share(drop.fall),
      })),
    rewatch_peaks: findRewatchPeaks(heatmap)
      .slice(0, 3)
      .map((peak) => ({
        start_seconds: seconds(peak.startSeconds),
        end_seconds: seconds(peak.endSeconds),
        rewatch: round(peak.rewatch, 4),
        median_rewatch: round(peak.medianRewatch, 4),
        replay_share: share(peak.replayShare),
      })),
    note: null,
  };
}
