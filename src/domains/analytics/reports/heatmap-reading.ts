/**
 * Reading a video's 100-slice heatmap: the retention curve, where viewers drop off, which parts they
 * play again, and where they click the call to action. Pure functions over the rollup, shared by
 * get_video_retention and get_video_key_moments, with every threshold named here and explained in
 * docs/analytics.md. The opening of a video is discounted: viewers leaving in the first seconds, and
 * the replays of its first slice (autoplay, restarts), say little about the content.
 */
import { SLICES } from '../../viewing/index.ts';

export interface Heatmap {
  views: number;
  durationSeconds: number;
  reach: readonly number[];
  plays: readonly number[];
  ctaClicks: readonly number[];
}

/** A fall counts as part of a drop-off when at least this share of views is lost across one slice boundary. */
export const DROP_STEP_SHARE = 0.02;
/** A slice is replayed notably when this share of views played it again … */
export const REPLAY_SHARE = 0.1;
/** … and at least this many times as often as the median slice is replayed. */
export const REPLAY_PEAK_FACTOR = 2;

/** A stretch of the video: its first and last slice, and the seconds it covers. */
export interface Stretch {
  firstSlice: number;
  lastSlice: number;
  startSeconds: number;
  endSeconds: number;
}

export interface DropOff extends Stretch {
  /** Retention before and after the fall. */
  from: number;
  to: number;
  /** Share of views lost: from − to. */
  fall: number;
}

export interface RewatchPeak extends Stretch {
  /** The highest plays per view in the stretch, and the median slice's. */
  rewatch: number;
  medianRewatch: number;
  /** The highest share of views that played a slice of the stretch again. */
  replayShare: number;
}

export interface CtaWindow extends Stretch {
  clicks: number;
}

export const sliceSeconds = (durationSeconds: number) => durationSeconds / SLICES;

function at(values: readonly number[], i: number): number {
  return values[i] ?? 0;
}

/** Share of views that watched each slice. */
export function retentionCurve(heatmap: Heatmap): number[] {
  return Array.from({ length: SLICES }, (_, i) => (heatmap.views > 0 ? Math.min(1, at(heatmap.reach, i) / heatmap.views) : 0));
}

/** Plays of each slice per view (rewatches count again). */
export function rewatchCurve(heatmap: Heatmap): number[] {
  return Array.from({ length: SLICES }, (_, i) => (heatmap.views > 0 ? at(heatmap.plays, i) / heatmap.views : 0));
}

/**
 * Drop-offs: runs of consecutive slice boundaries that each lose at least DROP_STEP_SHARE of views,
 * biggest fall first. The boundary into slice 1 (the opening dip) is left out. A run's seconds go
 * from the middle of its last slice before the fall to the middle of its first slice after it: the
 * viewers it lost stopped in between (a slice counts as watched when its middle was).
 */
export function findDropOffs(heatmap: Heatmap): DropOff[] {
  const curve = retentionCurve(heatmap);
  const width = sliceSeconds(heatmap.durationSeconds);
  const drops: DropOff[] = [];
  let runStart = -1;
  for (let boundary = 2; boundary <= SLICES; boundary++) {
    const steep = boundary < SLICES && at(curve, boundary - 1) - at(curve, boundary) >= DROP_STEP_SHARE;
    if (steep && runStart < 0) runStart = boundary;
    if (!steep && runStart >= 0) {
      const [before, after] = [runStart - 1, boundary - 1];
      const [from, to] = [at(curve, before), at(curve, after)];
      drops.push({
        firstSlice: before,
        lastSlice: after,
        startSeconds: (before + 0.5) * width,
        endSeconds: (after + 0.5) * width,
        from,
        to,
        fall: from - to,
      });
      runStart = -1;
    }
  }
  return drops.sort((a, b) => b.fall - a.fall || a.firstSlice - b.firstSlice);
}

/** Runs of consecutive slices passing `test`, as stretches. */
function runsWhere(durationSeconds: number, test: (slice: number) => boolean): Stretch[] {
  const width = sliceSeconds(durationSeconds);
  const runs: Stretch[] = [];
  for (let i = 0; i < SLICES; i++) {
    if (!test(i)) continue;
    const last = runs[runs.length - 1];
    if (last && last.lastSlice === i - 1) {
      last.lastSlice = i;
      last.endSeconds = (i + 1) * width;
    } else runs.push({ firstSlice: i, lastSlice: i, startSeconds: i * width, endSeconds: (i + 1) * width });
  }
  return runs;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1 ? at(sorted, Math.floor(middle)) : (at(sorted, middle - 1) + at(sorted, middle)) / 2;
}

/**
 * Rewatch peaks: runs of slices (the first slice left out) that at least REPLAY_SHARE of views played
 * again (plays beyond the views that reached the slice), and at least REPLAY_PEAK_FACTOR times as
 * often as the median slice is replayed. Counting replays rather than plays keeps the well-watched
 * opening of a video, and the thinly watched end of a declining one, from passing for or hiding a
 * peak; the median keeps a video people loop from being one long peak.
 */
export function findRewatchPeaks(heatmap: Heatmap): RewatchPeak[] {
  if (heatmap.views === 0) return [];
  const rewatch = rewatchCurve(heatmap);
  const replays = Array.from({ length: SLICES }, (_, i) => Math.max(0, at(heatmap.plays, i) - at(heatmap.reach, i)) / heatmap.views);
  const typicalReplays = median(replays);
  const peak = (i: number) => i > 0 && at(replays, i) >= REPLAY_SHARE && at(replays, i) >= REPLAY_PEAK_FACTOR * typicalReplays;
  const typical = median(rewatch);
  return runsWhere(heatmap.durationSeconds, peak)
    .map((run) => {
      const slices = Array.from({ length: run.lastSlice - run.firstSlice + 1 }, (_, k) => run.firstSlice + k);
      return {
        ...run,
        rewatch: Math.max(...slices.map((i) => at(rewatch, i))),
        medianRewatch: typical,
        replayShare: Math.max(...slices.map((i) => at(replays, i))),
      };
    })
    .sort((a, b) => b.replayShare - a.replayShare || a.firstSlice - b.firstSlice);
}

/** Runs of slices where the call to action was clicked, most clicks first. */
export function findCtaWindows(heatmap: Heatmap): CtaWindow[] {
  return runsWhere(heatmap.durationSeconds, (i) => at(heatmap.ctaClicks, i) > 0)
    .map((run) => {
      let clicks = 0;
      for (let i = run.firstSlice; i <= run.lastSlice; i++) clicks += at(heatmap.ctaClicks, i);
      return { ...run, clicks };
    })
    .sort((a, b) => b.clicks - a.clicks || a.firstSlice - b.firstSlice);
}
