/**
 * retry_webhook_delivery: queues an exhausted (or failed) delivery to be sent again now, with the same
 * event id and payload. An exhausted delivery gets one more attempt. Writes the delivery row; the
 * background sender sends it (held until resumed if the endpoint is paused).
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { retryDelivery, toDelivery } from '../deliveries.queries.ts';
import { getEndpointRow } from '../endpoints.queries.ts';
import { DeliveryId, EndpointId, WebhookDelivery } from '../webhooks.schemas.ts';

export const retryWebhookDelivery = defineOperation({
  name: 'retry_webhook_delivery',
  summary: 'Send a failed or exhausted delivery again',
  description:
    'Queues a delivery that ran out of attempts (exhausted), or is waiting for its next retry (failed), to be ' +
    'sent again right away, with the same event id (webhook-id) and payload. An exhausted delivery gets one more ' +
    'attempt. Deliveries that succeeded or are still pending cannot be retried (409). Follow the result in ' +
    'list_webhook_deliveries.',
  method: 'POST',
  path: '/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/retry',
  group: 'Webhooks',
  scope: 'workspace:manage',
  write: true,
  entitlement: 'webhooks',
  errors: ['not_found', 'conflict', 'plan_limit'],
  input: Type.Object({ endpoint_id: EndpointId, delivery_id: DeliveryId }, { additionalProperties: false }),
  output: WebhookDelivery,
  example: { endpoint_id: '3f6d2a9e-8c41-4b7e-a0d5-6e2b9c1f7a30', delivery_id: '9c0e4b1a-7d2f-4e63-b8a5-1f3d6c2e9b74' },
  async handler(ctx, input) {
    const endpoint = await getEndpointRow(ctx.db, ctx.workspaceId, input.endpoint_id);
    const row = await retryDelivery(ctx.db, ctx.workspaceId, input.endpoint_id, input.delivery_id, ctx.now);
    return toDelivery(row, !endpoint.active);
  },
});
