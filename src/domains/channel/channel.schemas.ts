/** Shapes the channel operations share: an item, the featured item, the channel as get_channel answers it. */
import { Type } from 'typebox';
import { Id, Nullable, NullableStringEnum, ShownText, StringEnum, Timestamp, Trimmed } from '../../core/schemas.ts';

export const CHANNEL_ITEM_KINDS = ['video', 'route'] as const;
export const ChannelItemKind = StringEnum(CHANNEL_ITEM_KINDS, { description: 'What the id names: a video or an interactive route.' });

export const CHANNEL_LIMITS = { headline: 120, dek: 300, visibleItems: 200 } as const;
/** Days of visitor activity get_channel reports. */
export const CHANNEL_ACTIVITY_DAYS = 30;

/** Why an item the workspace chose is not on the page now; null while it is. */
export const NOT_SHOWN_REASONS = ['hidden', 'archived', 'not_ready', 'not_live', 'entry_video_unavailable', 'plan_without_routes'] as const;
export type NotShownReason = (typeof NOT_SHOWN_REASONS)[number];

const NotShownReason = NullableStringEnum(NOT_SHOWN_REASONS, {
  description:
    'Why it is not on the page now: hidden (visible is false), archived, not_ready (the video is still processing or ' +
    'failed), not_live (the route is a draft, paused or archived), entry_video_unavailable (the route’s first video ' +
    'cannot play), plan_without_routes (the plan has no interactive routes). Null while it is shown.',
});

const ItemFields = {
  kind: ChannelItemKind,
  id: Id('The video or route id.'),
  title: Type.String({ description: 'The video’s title or the route’s name.' }),
  shown: Type.Boolean({ description: 'Whether a visitor sees it on the page now.' }),
  not_shown_reason: NotShownReason,
  url: Type.String({ description: 'Where it plays: the video’s watch page or the route player.' }),
  poster_url: Nullable(Type.String({ description: 'The poster image (a route’s is its first video’s).' })),
};

export const FeaturedItem = Nullable(
  Type.Object(ItemFields, {
    additionalProperties: false,
    description: 'What leads the page, with a player; shown whether or not it is also in the grid. Null: none.',
  }),
);

export const ChannelItem = Type.Object(
  {
    ...ItemFields,
    visible: Type.Boolean({ description: 'Whether the workspace put it on the page (set_channel_item).' }),
    position: Type.Integer({ minimum: 0, description: 'Its place in the grid, from 0.' }),
    duration_seconds: Nullable(Type.Number({ description: 'A video’s length; null for a route or a video not yet processed.' })),
    steps: Nullable(Type.Integer({ minimum: 0, description: 'A route’s number of steps; null for a video.' })),
    opens: Type.Integer({ minimum: 0, description: `Times visitors opened it from the page in the last ${CHANNEL_ACTIVITY_DAYS} days.` }),
  },
  { additionalProperties: false },
);

// Stored trimmed (docs/channel.md), so trimmed before they are judged: a pasted dek with a line break around it is kept.
export const ChannelHeadline = Trimmed(ShownText('The page’s heading. Null: the workspace’s name.', CHANNEL_LIMITS.headline));
export const ChannelDek = Trimmed(ShownText('The intro line under the heading. Null: none.', CHANNEL_LIMITS.dek));

export const ChannelDetail = Type.Object(
  {
    slug: Type.String({ description: 'The channel’s address, changed with update_workspace.' }),
    published: Type.Boolean({
      description: 'Whether the page is public: false until the channel is first set up (any channel write); until then it answers 404.',
    }),
    url: Type.String({ description: 'The public page.' }),
    markdown_url: Type.String({ description: 'The same page as Markdown, for AI assistants and crawlers.' }),
    headline: Nullable(Type.String({ description: 'The heading as set; null shows the workspace’s name.' })),
    dek: Nullable(Type.String({ description: 'The intro line; null for none.' })),
    title: Type.String({ description: 'The heading the page shows now.' }),
    featured: FeaturedItem,
    items: Type.Array(ChannelItem, { description: 'Every video and route put on the channel, in grid order, shown or not.' }),
    showing: Type.Array(
      Type.Object(
        { kind: ChannelItemKind, id: Id('The video or route id.'), title: Type.String(), url: Type.String() },
        { additionalProperties: false },
      ),
      { description: 'What a visitor sees in the grid now: visible, playable items in order.' },
    ),
    activity: Type.Object(
      {
        days: Type.Integer({ description: 'How many days back these numbers count.' }),
        views: Type.Integer({ minimum: 0, description: 'Page views (bots left out).' }),
        visitors: Type.Integer({ minimum: 0, description: 'Distinct browsers among them.' }),
        opens: Type.Integer({ minimum: 0, description: 'Items opened from the page.' }),
      },
      { additionalProperties: false, description: 'What visitors did on the page.' },
    ),
    updated_at: Nullable(Timestamp('When the channel’s settings or items last changed; null if never.')),
  },
  { additionalProperties: false },
);
