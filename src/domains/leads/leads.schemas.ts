/**
 * Shapes the lead operations share: the inputs a writer sends (custom fields, notes) and the answers
 * (a lead, its history, its journey). The lead itself is `LeadSnapshot` (domains/leads/leads.events.ts), so
 * an answer and a `lead.*` event show a lead the same way.
 */
import { Type } from 'typebox';
import { PersonalString } from '../../core/pii.ts';
import { describedPattern, Nullable, ResourceId, StringEnum, Timestamp, VideoRef } from '../../core/schemas.ts';
import { OUTCOME_KINDS, OUTCOME_STATUSES } from '../outcomes/index.ts';
import { LEAD_LIMITS } from './lead-records.queries.ts';
import { LEAD_STATUSES, LeadSnapshot } from './leads.events.ts';

export const LeadId = ResourceId('lead', 'The lead, as list_leads returns it.');

export const LeadStatus = StringEnum(LEAD_STATUSES, {
  description: 'new, engaged, qualified, customer or lost (docs/leads-and-outcomes.md, "Statuses").',
});

/** One note: appended to the lead's history, never replacing an earlier one. */
export const NoteText = Type.String({
  minLength: 1,
  maxLength: LEAD_LIMITS.note,
  ...describedPattern('\\S', 'must not be blank (spaces only)'),
  description: 'A note appended to the lead’s history with its time and author; earlier notes stay.',
});

/** Custom fields a writer sends: merged key by key, null removes a key. */
export const CustomFieldsInput = Type.Record(
  Type.String(),
  Type.Union([Type.String({ maxLength: LEAD_LIMITS.customFieldValue }), Type.Number(), Type.Boolean(), Type.Null()]),
  {
    maxProperties: LEAD_LIMITS.customFields,
    propertyNames: { minLength: 1, maxLength: LEAD_LIMITS.customFieldKey },
    description: `Merged key by key into the lead’s custom fields; a null value removes that key. Keys up to ${LEAD_LIMITS.customFieldKey} characters, values JSON scalars (strings up to ${LEAD_LIMITS.customFieldValue}), at most ${LEAD_LIMITS.customFields} keys.`,
  },
);

export const TIMELINE_KINDS = [
  'view',
  'cta_click',
  'form_submitted',
  'note',
  'status_changed',
  'outcome',
  'booking',
  'route_choice',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

const ViewFacts = Type.Object(
  {
    watched_seconds: Type.Number({ minimum: 0, description: 'Seconds played in the session, rewatches included.' }),
    watched_share: Type.Number({ minimum: 0, maximum: 1, description: 'Share of the video watched at least once, 0–1.' }),
    slices_reached: Type.Integer({ minimum: 0, maximum: 100, description: 'Of the video’s 100 equal slices, how many were watched.' }),
    furthest_seconds: Type.Number({ minimum: 0, description: 'The furthest point of the video reached.' }),
    completed: Type.Boolean({ description: 'Watched at least 90% of the video.' }),
    cta_clicks: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/** One step of a lead's story; `kind` says which one of the optional detail objects it carries. */
export const TimelineEntry = Type.Object(
  {
    kind: StringEnum(TIMELINE_KINDS),
    at: Timestamp('When it happened.'),
    video: Nullable(VideoRef),
    view: Type.Optional(ViewFacts),
    cta: Type.Optional(
      Type.Object(
        {
          label: Nullable(Type.String({ description: 'The button’s label, while the raw viewing data is kept.' })),
          position_seconds: Nullable(Type.Number({ minimum: 0 })),
        },
        { additionalProperties: false },
      ),
    ),
    form: Type.Optional(
      Type.Object({ fields: Type.Array(Type.String(), { description: 'The fields the form asked.' }) }, { additionalProperties: false }),
    ),
    note: Type.Optional(Type.Object({ body: Type.String(), author: Type.String() }, { additionalProperties: false })),
    status_change: Type.Optional(
      Type.Object(
        { from: LeadStatus, to: LeadStatus, author: Type.String({ description: 'A credential’s name, or Cuepoint (automatic).' }) },
        { additionalProperties: false },
      ),
    ),
    outcome: Type.Optional(
      Type.Object(
        {
          outcome_id: Type.String({ format: 'uuid' }),
          kind: StringEnum(OUTCOME_KINDS),
          status: StringEnum(OUTCOME_STATUSES),
          value: Type.Integer({ minimum: 0, description: 'Minor units of the currency.' }),
          currency: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), {
        description: 'Facts of a booking, or of a route choice: route_id, route (its name), choice (the label), target.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const LeadWithCreated = Type.Object(
  {
    ...LeadSnapshot.properties,
    created: Type.Boolean({ description: 'true when this call added the lead (201), false when it enriched one (200).' }),
  },
  { additionalProperties: false },
);

export const LeadDetail = Type.Object(
  {
    ...LeadSnapshot.properties,
    history: Type.Array(TimelineEntry, {
      description: 'Newest first: views, CTA clicks, route choices, form submissions, notes, status changes, outcomes.',
    }),
    history_total: Type.Integer({ minimum: 0, description: 'Entries in the whole history.' }),
    history_omitted: Type.Integer({ minimum: 0, description: 'Older entries not shown; get_lead_journey tells the whole story.' }),
  },
  { additionalProperties: false },
);

const Touch = Type.Object({ at: Timestamp('When.'), video: VideoRef }, { additionalProperties: false });

export const LeadJourney = Type.Object(
  {
    lead_id: Type.String({ format: 'uuid' }),
    email: PersonalString('email'),
    name: Nullable(PersonalString('name')),
    status: LeadStatus,
    entries: Type.Array(TimelineEntry, { description: 'Oldest first, across every video and browser of the lead.' }),
    total: Type.Integer({ minimum: 0 }),
    earlier_omitted: Type.Integer({ minimum: 0, description: 'Entries before the first one shown (the latest 500 are shown).' }),
    summary: Type.Object(
      {
        first_touch: Nullable(Touch),
        last_touch: Nullable(Touch),
        conversion: Nullable(
          Type.Object(
            {
              kind: StringEnum(['purchase', 'capture'] as const, {
                description: 'The first succeeded purchase, else the capture (when the lead was added).',
              }),
              at: Timestamp('When.'),
            },
            { additionalProperties: false },
          ),
        ),
        time_to_conversion_seconds: Nullable(
          Type.Integer({ minimum: 0, description: 'From the first touch to the conversion; null without a view before it.' }),
        ),
        sessions: Type.Integer({ minimum: 0, description: 'Views by the lead’s browsers.' }),
        videos_watched: Type.Integer({ minimum: 0 }),
        watched_seconds: Type.Number({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
