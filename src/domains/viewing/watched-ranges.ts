/**
 * Watched time as ranges of the video's timeline, in seconds. A session keeps its ranges merged
 * (sorted, disjoint), so "distinct seconds watched" is their total length; played ranges as reported
 * (overlaps kept) measure watch time and rewatches. The video is cut into 100 equal slices; a range
 * covers a slice when it covers the slice's midpoint, so a range grazing a slice's edge does not count.
 */
export type Range = [start: number, end: number];

export const SLICES = 100;

/** Sorted, disjoint ranges covering the same time; touching ranges join. */
export function mergeRanges(ranges: readonly Range[]): Range[] {
  const sorted = ranges
    .filter(([start, end]) => end > start)
    .map(([start, end]): Range => [start, end])
    .sort((a, b) => a[0] - b[0]);
  const merged: Range[] = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1] + 1e-6) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

export function totalLength(ranges: readonly Range[]): number {
  return ranges.reduce((sum, [start, end]) => sum + (end - start), 0);
}

/** For each slice, how many of the ranges cover its midpoint (for merged ranges: 0 or 1). */
export function slicePlays(ranges: readonly Range[], durationSeconds: number): number[] {
  const plays = new Array<number>(SLICES).fill(0);
  if (durationSeconds <= 0) return plays;
  const width = durationSeconds / SLICES;
  for (const [start, end] of ranges) {
    // Slices whose midpoint (i + 0.5) * width lies in [start, end).
    const first = Math.max(0, Math.ceil(start / width - 0.5));
    const last = Math.min(SLICES - 1, Math.ceil(end / width - 0.5) - 1);
    for (let i = first; i <= last; i++) plays[i] = (plays[i] as number) + 1;
  }
  return plays;
}

/** The slice a moment of the video falls in. */
export function sliceAt(positionSeconds: number, durationSeconds: number): number {
  if (durationSeconds <= 0) return 0;
  return Math.min(SLICES - 1, Math.max(0, Math.floor((positionSeconds / durationSeconds) * SLICES)));
}
