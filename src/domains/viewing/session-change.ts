/**
 * What one batch changes about a viewing session, and so about the rollups: a pure function, so the
 * definitions (docs/analytics.md) are tested here without a database. The rollups only ever receive
 * differences between the session before and after the batch, which is why a read never needs to
 * look at raw events and why counting stays right when a session reports in many small batches.
 */
import type { ViewingEvent } from './collect-batch.ts';
import { playedRanges } from './collect-batch.ts';
import { endedTails, toTheEnd } from './video-end.ts';
import { mergeRanges, type Range, SLICES, sliceAt, slicePlays, totalLength } from './watched-ranges.ts';

/** A view is a session that played at least this long. */
export const VIEW_MIN_SECONDS = 1;
/** A completion is a view that watched at least this share of the video. */
export const COMPLETION_SHARE = 0.9;

export interface SessionState {
  durationSeconds: number;
  watched: Range[];
  playedSeconds: number;
  isView: boolean;
  completed: boolean;
  ctaClicks: number;
}

export interface RollupDelta {
  views: number;
  watchTimeSeconds: number;
  engagement: number;
  completions: number;
  conversions: number;
  /** Per slice: views that newly watched it. */
  reach: number[];
  /** Per slice: plays added (rewatches count again). */
  plays: number[];
  /** Per slice: CTA clicks added. */
  ctaClicks: number[];
}

export function applyBatch(before: SessionState, events: readonly ViewingEvent[]): { after: SessionState; delta: RollupDelta } {
  const duration = before.durationSeconds;
  // Seconds played are as the player counted them; what was watched reaches the end of the video when
  // the viewer reached the player's (video-end.ts), so the last slice is not lost to a length mismatch.
  const reported = playedRanges(events, duration);
  const played = toTheEnd(reported, duration);
  const watched = mergeRanges([...before.watched, ...played, ...endedTails(events, duration)]);
  const playedSeconds = before.playedSeconds + totalLength(reported);
  const isView = before.isView || playedSeconds >= VIEW_MIN_SECONDS;
  const engagement = (ranges: Range[]) => Math.min(1, totalLength(ranges) / duration);
  const completed = isView && engagement(watched) >= COMPLETION_SHARE;
  const clicks = events.filter((event) => event.type === 'cta_click');
  const after: SessionState = {
    durationSeconds: duration,
    watched,
    playedSeconds,
    isView,
    completed,
    ctaClicks: before.ctaClicks + clicks.length,
  };

  // A session counts in engagement, completions and reach only once it is a view; when it becomes
  // one, everything it watched so far counts at once.
  const reachBefore = before.isView ? slicePlays(before.watched, duration) : zeros();
  const reachAfter = isView ? slicePlays(watched, duration) : zeros();
  const ctaClicks = zeros();
  for (const click of clicks) {
    const slice = sliceAt(click.position ?? 0, duration);
    ctaClicks[slice] = (ctaClicks[slice] as number) + 1;
  }
  return {
    after,
    delta: {
      views: Number(isView) - Number(before.isView),
      watchTimeSeconds: playedSeconds - before.playedSeconds,
      engagement: (isView ? engagement(watched) : 0) - (before.isView ? engagement(before.watched) : 0),
      completions: Number(completed) - Number(before.completed),
      // A conversion is a view that clicked the call to action, so the rate can never pass 100%.
      conversions: Number(isView && after.ctaClicks > 0) - Number(before.isView && before.ctaClicks > 0),
      reach: reachAfter.map((value, i) => value - (reachBefore[i] as number)),
      plays: slicePlays(played, duration),
      ctaClicks,
    },
  };
}

export function isEmptyDelta(delta: RollupDelta): boolean {
  return (
    delta.views === 0 &&
    delta.watchTimeSeconds === 0 &&
    delta.engagement === 0 &&
    delta.completions === 0 &&
    delta.conversions === 0 &&
    [delta.reach, delta.plays, delta.ctaClicks].every((slices) => slices.every((value) => value === 0))
  );
}

function zeros(): number[] {
  return new Array<number>(SLICES).fill(0);
}
