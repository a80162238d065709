/**
 * How webhook endpoints and deliveries look to callers. The signing secret appears only in the
 * responses that make one (create, and update with rotate_secret).
 */
import { type Static, Type } from 'typebox';
import { Id, NOT_BLANK, Nullable, ResourceId, StringEnum, Timestamp } from '../../core/schemas.ts';
import { EVENT_TYPES } from '../../event-catalog.ts';
import { FAILURE_REASONS } from './send-attempt.ts';

export const ALL_EVENTS = '*';
export const SUBSCRIBABLE_EVENTS = [ALL_EVENTS, ...EVENT_TYPES] as const;

export const EndpointId = ResourceId('webhook_endpoint', 'The endpoint id, as returned by list_webhook_endpoints.');
export const DeliveryId = ResourceId('webhook_delivery', 'The delivery id, as returned by list_webhook_deliveries.');

export const EndpointName = Type.String({ minLength: 1, maxLength: 100, ...NOT_BLANK, description: 'What the endpoint is for.' });
export const EndpointUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Where events are POSTed: https (http only for hosts the operator allow-listed). Checked against private addresses.',
});
export const EventSubscription = Type.Array(StringEnum(SUBSCRIBABLE_EVENTS), {
  minItems: 1,
  maxItems: SUBSCRIBABLE_EVENTS.length,
  description: 'Event types to receive, or ["*"] for all of them. Duplicates are dropped; "*" with others means all.',
});

export const WebhookEndpoint = Type.Object(
  {
    endpoint_id: EndpointId,
    name: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String(), { description: 'Subscribed event types, or ["*"] for all.' }),
    active: Type.Boolean({ description: 'false: paused. Events keep being recorded and are sent when it is active again.' }),
    disabled_reason: Nullable(
      Type.String({ description: 'Why the service paused the endpoint itself (it answered 410 Gone); null otherwise.' }),
    ),
    previous_secret_expires_at: Nullable(
      Timestamp('After a rotation: until then, deliveries are signed with the previous secret too. Null otherwise.'),
    ),
    created_at: Timestamp('When the endpoint was registered.'),
    updated_at: Timestamp('When it last changed.'),
  },
  { additionalProperties: false },
);
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** An endpoint as list_webhook_endpoints shows it: with the count that tells whether it needs a person. */
export const ListedWebhookEndpoint = Type.Object(
  {
    ...WebhookEndpoint.properties,
    exhausted_deliveries: Type.Integer({
      minimum: 0,
      description:
        'Deliveries to this endpoint that used every attempt and gave up (status exhausted). Above 0: the endpoint ' +
        'needs attention; list them with list_webhook_deliveries status=exhausted and resend with retry_webhook_delivery.',
    }),
  },
  { additionalProperties: false },
);
export type ListedWebhookEndpoint = Static<typeof ListedWebhookEndpoint>;

export const SigningSecret = Type.String({
  description: 'The signing secret (whsec_…), for verifying the webhook-signature header. Shown in this response only: store it now.',
});

export const RotatedSecret = Type.String({
  description: 'Present only when rotate_secret was true: the new signing secret (whsec_…), shown in this response only.',
});

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'exhausted'] as const;

export const WebhookDelivery = Type.Object(
  {
    delivery_id: DeliveryId,
    endpoint_id: EndpointId,
    event_id: Id('The event: the payload’s id and the webhook-id header, the same on every attempt.'),
    event_type: Type.String(),
    status: StringEnum(DELIVERY_STATUSES, {
      description:
        'pending: not tried yet (or held while the endpoint is paused); failed: the last attempt failed, the next is at ' +
        'next_attempt_at (null for a test delivery, which is tried once); succeeded; exhausted: every attempt of the ' +
        'retry schedule failed.',
    }),
    attempts: Type.Integer({ minimum: 0, description: 'Attempts made so far.' }),
    max_attempts: Type.Integer({ minimum: 1 }),
    next_attempt_at: Nullable(Timestamp('When the next attempt is due; null when finished, or held while the endpoint is paused.')),
    last_attempt_at: Nullable(Timestamp('When the last attempt started.')),
    last_status_code: Nullable(Type.Integer({ description: 'HTTP status of the last answer; null if none came.' })),
    last_error: Nullable(Type.String({ description: 'Why the last attempt failed; null if it succeeded or none was made.' })),
    last_failure_reason: Nullable(StringEnum(FAILURE_REASONS)),
    last_duration_ms: Nullable(Type.Integer({ minimum: 0 })),
    last_response_excerpt: Nullable(Type.String({ description: 'The first 1 KiB of the last answer’s body.' })),
    delivered_at: Nullable(Timestamp('When a 2xx answer came.')),
    created_at: Timestamp('When the event happened (for a test delivery: when it was sent).'),
  },
  { additionalProperties: false },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;
