/**
 * What the player sends to POST /collect, and the checks that need the video: a batch of 1–50
 * events for one page view (the session its viewing token names), numbered by `sequence` so a resent
 * batch is recognised. Shape problems are found by the schema; the rest (fields each event type
 * needs, times inside the video) by `checkBatchEvents`, all reported together.
 */
import { type Static, Type } from 'typebox';
import type { FieldProblem } from '../../core/errors.ts';
import { StringEnum } from '../../core/schemas.ts';
import { ViewerIdField, ViewingTokenField } from './page-view-fields.ts';
import type { Range } from './watched-ranges.ts';

export const VIEWING_EVENT_TYPES = ['play', 'pause', 'seek', 'progress', 'ended', 'cta_click'] as const;
/** A batch may hold at most this much played time: the player reports every few seconds. */
export const MAX_PLAYED_PER_BATCH_SECONDS = 900;
/** Players report times a little past the end (rounding, the last frame); more than this is an error. */
const END_TOLERANCE_SECONDS = 1;

const Seconds = Type.Number({ minimum: 0, maximum: 1_000_000 });

export const CollectBatch = Type.Object(
  {
    token: ViewingTokenField,
    viewer_id: ViewerIdField,
    sequence: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'The batch number within the page view.' }),
    events: Type.Array(
      Type.Object(
        {
          type: StringEnum(VIEWING_EVENT_TYPES),
          position: Type.Optional(Seconds),
          from: Type.Optional(Seconds),
          to: Type.Optional(Seconds),
          ranges: Type.Optional(Type.Array(Type.Array(Seconds, { minItems: 2, maxItems: 2 }), { minItems: 1, maxItems: 20 })),
          label: Type.Optional(Type.String({ maxLength: 200 })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
  },
  { additionalProperties: false },
);

export type CollectBatch = Static<typeof CollectBatch>;
export type ViewingEvent = CollectBatch['events'][number];

const NEEDS: Record<ViewingEvent['type'], readonly (keyof ViewingEvent)[]> = {
  play: ['position'],
  pause: ['position'],
  ended: ['position'],
  cta_click: ['position'],
  seek: ['from', 'to'],
  progress: ['ranges'],
};

/** Problems with events the schema cannot see: missing fields for the type, times outside the video. */
export function checkBatchEvents(events: readonly ViewingEvent[], durationSeconds: number): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const latest = durationSeconds + END_TOLERANCE_SECONDS;
  let played = 0;
  events.forEach((event, i) => {
    const field = `events[${i}]`;
    for (const name of NEEDS[event.type]) {
      if (event[name] === undefined) problems.push({ field: `${field}.${name}`, problem: `is required for a ${event.type} event` });
    }
    for (const name of ['position', 'from', 'to'] as const) {
      const value = event[name];
      if (value !== undefined && value > latest)
        problems.push({ field: `${field}.${name}`, problem: `must be within the video's ${durationSeconds} seconds` });
    }
    // The schema guarantees two numbers per range.
    event.ranges?.forEach(([start = 0, end = 0], r) => {
      if (!(start < end)) problems.push({ field: `${field}.ranges[${r}]`, problem: 'must start before it ends' });
      else if (end > latest)
        problems.push({ field: `${field}.ranges[${r}]`, problem: `must be within the video's ${durationSeconds} seconds` });
      else played += end - start;
    });
  });
  if (played > MAX_PLAYED_PER_BATCH_SECONDS)
    problems.push({ field: 'events', problem: `report at most ${MAX_PLAYED_PER_BATCH_SECONDS} seconds of playing per batch` });
  return problems;
}

/** The played ranges of a batch, clipped to the video. */
export function playedRanges(events: readonly ViewingEvent[], durationSeconds: number): Range[] {
  return events.flatMap((event) =>
    (event.ranges ?? []).map(([start = 0, end = 0]): Range => [Math.min(start, durationSeconds), Math.min(end, durationSeconds)]),
  );
}
