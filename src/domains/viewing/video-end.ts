/**
 * When a viewer reached the end of a video. The player measures the video itself (the browser's
 * length of the file or the stream) and the service probed it with ffprobe; the two differ by
 * rounding, a frame or an audio packet, and get_video reports the length to tenths. A viewer who
 * played to the player's end must count as watching to the end: a slice counts as watched when its
 * middle was, so a range stopping a few hundredths short of the probed end left the last slice
 * unwatched for everyone (issue 26) while every slice before it read as reached.
 *
 * Two signals, each extended to the end of the video in the session's watched ranges:
 * - an `ended` event, the player saying playback reached the end: believed within END_SLACK_SECONDS
 *   of the end, the same second POST /collect accepts past the end (checkBatchEvents);
 * - a played range ending near the end: within END_SLACK_SECONDS, and within two slices, so the
 *   viewer of a short clip who stopped early does not count as finishing it (a range ending short of
 *   the end may be a viewer who left; an `ended` event may not).
 */
import type { ViewingEvent } from './collect-batch.ts';
import { type Range, SLICES } from './watched-ranges.ts';

export const END_SLACK_SECONDS = 1;

/** How short of the end a played range may stop and still have reached it. */
export function rangeEndSlack(durationSeconds: number): number {
  return Math.min(END_SLACK_SECONDS, (2 * durationSeconds) / SLICES);
}

/** The played ranges (clipped to the video), each that reached the end extended to it. */
export function toTheEnd(ranges: readonly Range[], durationSeconds: number): Range[] {
  const from = durationSeconds - rangeEndSlack(durationSeconds);
  return ranges.map(([start, end]): Range => [start, end >= from ? durationSeconds : end]);
}

/**
 * What the batch's `ended` events say was watched: from each one's position to the end of the video.
 * Watched, not played: the seconds and the plays are the ranges', so an `ended` after a range that
 * already reached the end adds nothing, and a replay of the last slice is not invented.
 */
export function endedTails(events: readonly ViewingEvent[], durationSeconds: number): Range[] {
  return events
    .filter((event) => event.type === 'ended' && event.position !== undefined)
    .map((event) => Math.min(event.position as number, durationSeconds))
    .filter((position) => position >= durationSeconds - END_SLACK_SECONDS && position < durationSeconds)
    .map((position): Range => [position, durationSeconds]);
}
