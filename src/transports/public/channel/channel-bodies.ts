/**
 * What POST /c/{slug}/events accepts (docs/channel.md): the page view's id (made by the page), the
 * browser's viewer id, and up to 20 events: `view` (the page was shown) and `open` (an item was
 * opened from it, named by kind and id). An open needs its kind and id and a view has neither: that
 * rule is checked beside the schema, so one answer names every problem.
 */
import { type Static, Type } from 'typebox';
import type { FieldProblem } from '../../../core/errors.ts';
import { Id, Nullable, StringEnum } from '../../../core/schemas.ts';
import { CHANNEL_ITEM_KINDS } from '../../../domains/channel/index.ts';
import { ViewerIdField } from '../../../domains/viewing/index.ts';

export const CHANNEL_EVENTS_PER_REPORT = 20;
export const CHANNEL_EVENTS_BODY_LIMIT = 8 * 1024;

const ChannelEventItem = Type.Object(
  {
    type: StringEnum(['view', 'open'], { description: 'view: the page was shown; open: an item was opened from it.' }),
    kind: Type.Optional(StringEnum(CHANNEL_ITEM_KINDS)),
    id: Type.Optional(Id('For an open: the video or route opened.')),
  },
  { additionalProperties: false },
);

export const ChannelEventsBody = Type.Object(
  {
    view_id: Id('The page view, made by the page: one per page shown.'),
    viewer_id: Nullable(ViewerIdField),
    events: Type.Array(ChannelEventItem, { minItems: 1, maxItems: CHANNEL_EVENTS_PER_REPORT }),
  },
  { additionalProperties: false },
);
export type ChannelEventsBody = Static<typeof ChannelEventsBody>;

/** An open needs kind and id; a view takes neither. Reads no more events than a report holds. */
export function channelEventShapeProblems(body: unknown): FieldProblem[] {
  const events = typeof body === 'object' && body !== null ? (body as { events?: unknown }).events : undefined;
  if (!Array.isArray(events)) return [];
  return events.slice(0, CHANNEL_EVENTS_PER_REPORT).flatMap((event: unknown, i) => {
    if (typeof event !== 'object' || event === null) return [];
    const { type, kind, id } = event as { type?: unknown; kind?: unknown; id?: unknown };
    const problems: FieldProblem[] = [];
    for (const [name, value] of [
      ['kind', kind],
      ['id', id],
    ] as const) {
      if (type === 'open' && value === undefined) problems.push({ field: `events[${i}].${name}`, problem: 'is required for an open' });
      if (type === 'view' && value !== undefined) problems.push({ field: `events[${i}].${name}`, problem: 'is only for an open' });
    }
    return problems;
  });
}
