/**
 * What `webhook.test` carries: the synthetic event test_webhook_endpoint sends to one endpoint.
 */
import { Type } from 'typebox';
import type { EventDefinition } from '../../core/event-definition.ts';
import { Id } from '../../core/schemas.ts';

export const WebhookTest = Type.Object(
  {
    endpoint_id: Id('The endpoint tested.'),
    message: Type.String(),
  },
  { additionalProperties: false },
);

/** The webhook event types this area emits, assembled with every other area's by src/event-catalog.ts. */
export const webhookEvents = {
  'webhook.test': {
    summary: 'The test event',
    when: 'Only sent by test_webhook_endpoint, to the endpoint tested, whatever it subscribes to.',
    data: WebhookTest,
  },
} as const satisfies Record<string, EventDefinition>;
