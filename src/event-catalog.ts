/**
 * The events catalog: every event type the service records and delivers to webhooks, each with one
 * TypeBox schema for its `data`. Emitters are typed by it (a type cannot carry two shapes), payloads
 * are checked against it when recorded, webhook masking follows its personal-data markers, and the
 * OpenAPI document's `webhooks` section and docs/webhooks.md are generated from or tested against it.
 * Adding an event type = its schema in one of this folder's files and one entry here.
 */
import { type Static, type TObject, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { Id, Timestamp } from './core/schemas.ts';
import { LeadCreated, LeadUpdated } from './domains/leads/leads.events.ts';
import { OutcomeCreated } from './domains/outcomes/outcomes.events.ts';
import { RouteCompleted } from './domains/routes/routes.events.ts';
import { BookingCanceled, BookingCreated, BookingRescheduled } from './domains/scheduling/scheduling.events.ts';
import { VideoCreated, VideoFailed, VideoReady, VideoUpdated } from './domains/videos/videos.events.ts';
import { WebhookTest } from './domains/webhooks/webhooks.events.ts';

export interface EventDefinition {
  /** One line: the OpenAPI summary. */
  summary: string;
  /** When it is sent, for the OpenAPI description. */
  when: string;
  data: TObject;
}

export const EVENT_CATALOG = {
  'video.created': {
    summary: 'A video was created',
    when: 'import_video or create_video_upload created a video (so does the demo seed).',
    data: VideoCreated,
  },
  'video.ready': {
    summary: 'A video is ready',
    when: 'Processing finished: the video plays, with its duration, dimensions and URLs.',
    data: VideoReady,
  },
  'video.failed': {
    summary: 'A video failed',
    when: 'Processing or the import failed; `failure_reason` says why. The video stays, with status failed.',
    data: VideoFailed,
  },
  'video.updated': {
    summary: 'A video was changed',
    when: 'update_video, rename_tag or set_video_transcript changed the video; `changed` lists the fields, `video` is how it is now.',
    data: VideoUpdated,
  },
  'lead.created': {
    summary: 'A lead was captured',
    when: 'A new email became a lead: through upsert_lead, a watch or embed page’s lead form, or a ledger write (record_outcome, a Stripe payment) naming an unknown email.',
    data: LeadCreated,
  },
  'lead.updated': {
    summary: 'A lead was changed',
    when: 'upsert_lead, update_lead, rename_tag, a lead form’s enrichment or an automatic status change changed a lead; `changed` lists the fields, `lead` is how it is now.',
    data: LeadUpdated,
  },
  'booking.created': {
    summary: 'A call was booked',
    when: 'create_booking or the public booking page booked a call.',
    data: BookingCreated,
  },
  'booking.canceled': {
    summary: 'A booked call was canceled',
    when: 'cancel_booking, or the invitee through the cancel link, canceled a booked call.',
    data: BookingCanceled,
  },
  'booking.rescheduled': {
    summary: 'A booked call was moved',
    when: 'reschedule_booking moved a call to another time; the booking id stays, `previous_start` and `previous_end` say where it was.',
    data: BookingRescheduled,
  },
  'outcome.created': {
    summary: 'An outcome was recorded',
    when: 'A purchase, booked call or refund entered the revenue ledger: record_outcome, or a Stripe payment or refund event.',
    data: OutcomeCreated,
  },
  'route.completed': {
    summary: 'A route was completed',
    when: 'A viewer reached an end of an interactive route: an end choice, the lead form sent, or a last step played out.',
    data: RouteCompleted,
  },
  'webhook.test': {
    summary: 'The test event',
    when: 'Only sent by test_webhook_endpoint, to the endpoint tested, whatever it subscribes to.',
    data: WebhookTest,
  },
} as const satisfies Record<string, EventDefinition>;

export type EventType = keyof typeof EVENT_CATALOG;
export type EventData<T extends EventType> = Static<(typeof EVENT_CATALOG)[T]['data']>;

export const EVENT_TYPES = Object.keys(EVENT_CATALOG) as EventType[];

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(EVENT_CATALOG, type);
}

/** The whole body a webhook delivery sends for an event of this type (DESIGN §4). */
export function eventEnvelope(type: EventType): TObject {
  return Type.Object(
    {
      id: Id('The event id, also sent as the webhook-id header; the same on every retry, so deduplicate on it.'),
      type: Type.Literal(type),
      created_at: Timestamp('When it happened.'),
      workspace_id: Id('The workspace it happened in.'),
      data: EVENT_CATALOG[type].data,
    },
    { additionalProperties: false, description: EVENT_CATALOG[type].when },
  );
}

/** An event whose data does not match its type's schema: a bug in the emitter, refused before it is recorded or sent. */
export class EventShapeError extends Error {
  readonly type: EventType;
  readonly problems: string[];

  constructor(type: EventType, problems: string[]) {
    super(`The ${type} event does not match its schema: ${problems.join('; ')}`);
    this.type = type;
    this.problems = problems;
  }
}

const validators = new Map<EventType, ReturnType<typeof Compile>>();

/** Throws EventShapeError unless `data` matches the schema of `type` (a compiled check, built on first use). */
export function checkEventData<T extends EventType>(type: T, data: EventData<T>): void {
  let validator = validators.get(type);
  if (!validator) {
    validator = Compile(EVENT_CATALOG[type].data as TObject);
    validators.set(type, validator);
  }
  if (validator.Check(data)) return;
  const problems = validator
    .Errors(data)
    .filter((error) => error.keyword !== 'boolean')
    .slice(0, 5)
    .map((error) => {
      const extra = (error.params as { additionalProperties?: string[] }).additionalProperties;
      return `${error.instancePath || '/'} ${extra ? `has undeclared properties ${extra.join(', ')}` : error.message}`;
    });
  throw new EventShapeError(type, problems);
}
