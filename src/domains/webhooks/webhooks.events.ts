/**
 * What `webhook.test` carries: the synthetic event test_webhook_endpoint sends to one endpoint.
 */
import { Type } from 'typebox';
import { Id } from '../../core/schemas.ts';

export const WebhookTest = Type.Object(
  {
    endpoint_id: Id('The endpoint tested.'),
    message: Type.String(),
  },
  { additionalProperties: false },
);
