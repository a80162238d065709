/**
 * Shapes the analytics operations share: calendar dates, the metric set every series and total
 * reports (definitions in docs/analytics.md), and a value compared with the period before.
 */
import { Type } from 'typebox';
import { Id, Nullable, StringEnum, Timestamp, VideoRefProperties } from '../../core/schemas.ts';
import { ChannelItemKind } from '../channel/index.ts';
import { RouteStatus } from '../routes/index.ts';

export const IsoDate = (description: string) => Type.String({ format: 'date', description });

export const WorkspaceTimeZone = Type.String({
  description: "The workspace's IANA time zone: every day here is a calendar day there (a view counts on the day its session started).",
});

const Share = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const MetricProperties = {
  views: Type.Integer({ minimum: 0, description: 'Sessions that played at least 1 second.' }),
  unique_viewers: Type.Integer({
    minimum: 0,
    description: 'Distinct viewer ids among those views (not a sum of days: a viewer seen on two days counts once).',
  }),
  watch_time_seconds: Type.Number({ minimum: 0, description: 'Seconds played, rewatches included.' }),
  average_engagement: Share('Average share of the video a view watched (distinct seconds / duration); 0 without views.'),
  completions: Type.Integer({ minimum: 0, description: 'Views that watched at least 90% of the video.' }),
  completion_rate: Share('completions / views; 0 without views.'),
  conversions: Type.Integer({
    minimum: 0,
    description: 'Views that clicked the call to action plus leads captured by the video’s form (each lead once per video).',
  }),
  conversion_rate: Share('conversions / views, at most 1; 0 without views.'),
};

const Currency = Type.String({ description: 'ISO 4217 code, upper case.' });

/** Net revenue per currency (docs/analytics.md, "Revenue"). */
export const NetRevenue = (description: string) =>
  Type.Array(
    Type.Object(
      {
        currency: Currency,
        value: Type.Integer({
          description: 'Net: purchased − refunded, in the currency’s minor unit (cents); negative when refunds outweigh sales.',
        }),
        purchased: Type.Integer({ minimum: 0, description: 'Succeeded purchases, minor units.' }),
        refunded: Type.Integer({ minimum: 0, description: 'Succeeded refunds, minor units.' }),
      },
      { additionalProperties: false },
    ),
    { description: `${description} One entry per currency, by code; empty without sales. Currencies are never added together.` },
  );

/** Net revenue per currency against the period before. */
export const RevenueComparison = (description: string) =>
  Type.Array(
    Type.Object(
      {
        currency: Currency,
        value: Type.Integer({ description: 'Net revenue this period (purchases − refunds), minor units.' }),
        previous: Type.Integer({ description: 'The same in the period of the same length just before.' }),
        change_percent: Nullable(
          Type.Number({ description: '(value − previous) / previous × 100, to one decimal; null unless previous is above 0.' }),
        ),
      },
      { additionalProperties: false },
    ),
    { description: `${description} Every currency with a succeeded purchase or refund in either period, by code.` },
  );

/** What get_analytics_daily adds to the metrics: the workspace's new leads and its revenue. */
export const WorkspaceLedgerProperties = {
  leads: Type.Integer({ minimum: 0, description: 'New leads: created that day (totals: in the window), whatever their source.' }),
  revenue: NetRevenue('Succeeded purchases minus succeeded refunds, with or without a video.'),
};

/** What get_video_analytics adds to the metrics: the video's leads and the revenue it brought. */
export const VideoLedgerProperties = {
  leads: Type.Integer({ minimum: 0, description: 'Leads captured by the video’s form (each lead once per video).' }),
  revenue: NetRevenue('Succeeded purchases minus succeeded refunds attributed to the video by last touch.'),
};

export const Metrics = Type.Object(MetricProperties, { additionalProperties: false });

export const DayMetrics = Type.Object(
  { date: IsoDate('The calendar day, in the workspace time zone.'), ...MetricProperties },
  { additionalProperties: false },
);

export const Comparison = (description: string) =>
  Type.Object(
    {
      value: Type.Number({ description: 'This period.' }),
      previous: Type.Number({ description: 'The period of the same length just before.' }),
      change_percent: Nullable(
        Type.Number({ description: '(value − previous) / previous × 100, to one decimal; null when the previous value is 0.' }),
      ),
    },
    { additionalProperties: false, description },
  );

export const Period = Type.Object(
  {
    from_date: IsoDate('First day, included.'),
    to_date: IsoDate('Last day, included.'),
    days: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);

/** A moment of a video: where it starts and ends, in seconds. */
export const Seconds = (description: string) => Type.Number({ minimum: 0, description });

const Rate = (description: string) =>
  Type.Object(
    {
      value: Type.Number({ minimum: 0, maximum: 1, description: 'The video’s own rate.' }),
      adjusted: Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'Bayesian average: pulled toward the workspace average, less so with more views.',
      }),
      cautious: Type.Number({ minimum: 0, maximum: 1, description: 'adjusted minus two standard errors: what the score uses.' }),
      workspace_average: Type.Number({ minimum: 0, maximum: 1 }),
      index: Nullable(Type.Number({ description: 'cautious / workspace_average; null when the average is 0.' })),
    },
    { additionalProperties: false, description },
  );

/** One video as compare_videos ranks it. */
export const ComparedVideo = Type.Object(
  {
    rank: Type.Integer({ minimum: 1 }),
    ...VideoRefProperties,
    views: Type.Integer({ minimum: 0, description: 'Lifetime views.' }),
    score: Type.Number({
      minimum: 0,
      description: '100 × (0.4 × engagement index + 0.3 × completion index + 0.3 × conversion index).',
    }),
    evidence_weight: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'views / (views + prior_views): how much the video’s own rates count.',
    }),
    metrics: Type.Object(
      {
        average_engagement: Rate('Average share of the video a view watched.'),
        completion_rate: Rate('Share of views that watched at least 90%.'),
        conversion_rate: Rate('Conversions (call-to-action clicks and leads captured) per view.'),
      },
      { additionalProperties: false },
    ),
    why: Type.String({ description: 'Why this rank, in plain sentences with the numbers.' }),
  },
  { additionalProperties: false },
);

/** A video whose views moved between two periods (list_changes). */
export const Mover = Type.Object(
  {
    ...VideoRefProperties,
    views: Type.Integer({ description: 'Views in this period.' }),
    previous_views: Type.Integer({ description: 'Views in the period before.' }),
    change: Type.Integer(),
    change_percent: Nullable(Type.Number({ description: 'null when the video had no views before.' })),
  },
  { additionalProperties: false },
);

/** A video that became ready or failed processing (list_changes). */
export const StatusChange = Type.Object(
  {
    video_id: Type.String({ format: 'uuid' }),
    title: Nullable(Type.String({ description: 'null if the video is no longer in the library.' })),
    at: Timestamp('When it happened.'),
    reason: Nullable(Type.String({ description: 'Why processing failed; null for videos that became ready.' })),
  },
  { additionalProperties: false },
);

/** Something that fell unusually (list_changes). */
export const UnusualDrop = Type.Object(
  {
    kind: StringEnum(['quiet_day', 'rate_drop'], {
      description: 'quiet_day: the workspace had far fewer views than usual that day; rate_drop: a video’s rate fell.',
    }),
    video_id: Nullable(Type.String({ format: 'uuid' })),
    title: Nullable(Type.String()),
    date: Nullable(IsoDate('The quiet day.')),
    metric: StringEnum(['views', 'average_engagement', 'completion_rate', 'conversion_rate']),
    value: Type.Number({ description: 'Now: views that day, or the video’s rate this period.' }),
    baseline: Type.Number({ description: 'What it is compared with: the previous period’s daily average, or the rate then.' }),
    change_percent: Type.Number(),
    description: Type.String({ description: 'The drop in a sentence.' }),
  },
  { additionalProperties: false },
);

/** A video whose form captured leads (list_changes). */
export const LeadVideo = Type.Object(
  {
    ...VideoRefProperties,
    leads: Type.Integer({ minimum: 1, description: 'Leads its form captured in this period.' }),
    previous_leads: Type.Integer({ minimum: 0, description: 'In the period before.' }),
  },
  { additionalProperties: false },
);

/** The biggest purchase of a currency (list_changes). */
export const NotablePurchase = Type.Object(
  {
    outcome_id: Type.String({ format: 'uuid' }),
    lead_id: Nullable(Type.String({ format: 'uuid', description: 'The buyer; get_lead tells more.' })),
    value: Type.Integer({ minimum: 0, description: 'Minor units (cents).' }),
    currency: Type.String({ description: 'ISO 4217 code, upper case.' }),
    video_id: Nullable(Type.String({ format: 'uuid', description: 'The video it is attributed to by last touch.' })),
    title: Nullable(Type.String()),
    occurred_at: Timestamp('When it happened.'),
  },
  { additionalProperties: false },
);

const RouteNumbers = {
  starts: Type.Integer({ minimum: 0, description: 'Visits that started in the period (each played the entry step).' }),
  completions: Type.Integer({
    minimum: 0,
    description: 'Of those visits, how many reached an end (an end choice, the lead form sent, or a last step played out).',
  }),
  completion_rate: Share('completions / starts; 0 without starts.'),
};

/** Interactive routes in a period (get_analytics_summary). */
export const RoutesSection = Type.Object(
  {
    ...RouteNumbers,
    top: Type.Array(
      Type.Object(
        { route_id: Id('The route; get_route tells its steps and paths.'), name: Type.String(), status: RouteStatus, ...RouteNumbers },
        { additionalProperties: false },
      ),
      { description: 'Up to 5 routes with the most starts in the period, most first; empty without starts.' },
    ),
  },
  {
    additionalProperties: false,
    description: 'Interactive routes in the period, whatever their status now: visits counted in the period they started in.',
  },
);

export const ChannelSection = Type.Object(
  {
    views: Type.Integer({ minimum: 0, description: 'Views of the public channel page (bots left out).' }),
    visitors: Type.Integer({ minimum: 0, description: 'Distinct browsers among them.' }),
    opens: Type.Integer({ minimum: 0, description: 'Videos and routes opened from the page.' }),
    top: Type.Array(
      Type.Object(
        {
          kind: ChannelItemKind,
          id: Id('The video or route.'),
          title: Type.String({ description: 'Its title or name now.' }),
          opens: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
      { description: 'Up to 5 items opened most from the page in the period, most first.' },
    ),
  },
  { additionalProperties: false, description: 'The public channel page in the period (get_channel has its items).' },
);

/** A route whose completion rate moved between two periods (list_changes). */
export const RouteChange = Type.Object(
  {
    route_id: Id('The route; get_route tells its steps and paths.'),
    name: Type.String(),
    status: RouteStatus,
    completion_rate: Share('This period: completions / starts.'),
    previous_completion_rate: Share('The period before.'),
    change: Type.Number({ minimum: -1, maximum: 1, description: 'completion_rate − previous_completion_rate.' }),
    change_percent: Nullable(Type.Number({ description: 'The change relative to the previous rate; null when that was 0.' })),
    starts: Type.Integer({ minimum: 0, description: 'Visits started this period.' }),
    previous_starts: Type.Integer({ minimum: 0 }),
    completions: Type.Integer({ minimum: 0, description: 'Of those visits, how many reached an end.' }),
    previous_completions: Type.Integer({ minimum: 0 }),
    description: Type.String({ description: 'The change in a sentence.' }),
  },
  { additionalProperties: false },
);
