/**
 * The events catalog: every event type the service records and delivers to webhooks, each with one
 * TypeBox schema for its `data`. Emitters are typed by it (a type cannot carry two shapes), payloads
 * are checked against it when recorded, webhook masking follows its personal-data markers, and the
 * OpenAPI document's `webhooks` section and docs/webhooks.md are generated from or tested against it.
 * Each area declares its event types in its `<area>.events.ts`; this file only assembles them, as
 * src/catalog.ts assembles the operations. Adding an event type = one entry in its area's file.
 */
import { type Static, type TObject, Type } from 'typebox';
import { compileSchema } from './core/compile-schema.ts';
import type { EventDefinition } from './core/event-definition.ts';
import { Id, Timestamp } from './core/schemas.ts';
import { leadEvents } from './domains/leads/leads.events.ts';
import { outcomeEvents } from './domains/outcomes/outcomes.events.ts';
import { routeEvents } from './domains/routes/routes.events.ts';
import { bookingEvents } from './domains/scheduling/scheduling.events.ts';
import { videoEvents } from './domains/videos/videos.events.ts';
import { webhookEvents } from './domains/webhooks/webhooks.events.ts';

export const EVENT_CATALOG = {
  ...videoEvents,
  ...leadEvents,
  ...bookingEvents,
  ...outcomeEvents,
  ...routeEvents,
  ...webhookEvents,
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

const validators = new Map<EventType, ReturnType<typeof compileSchema>>();

/** Throws EventShapeError unless `data` matches the schema of `type` (a compiled check, built on first use). */
export function checkEventData<T extends EventType>(type: T, data: EventData<T>): void {
  let validator = validators.get(type);
  if (!validator) {
    validator = compileSchema(EVENT_CATALOG[type].data as TObject);
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
