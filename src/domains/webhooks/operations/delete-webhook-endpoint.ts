/**
 * delete_webhook_endpoint: removes an endpoint and its whole delivery history (SPEC §6). Deliveries
 * not yet sent are dropped with it; an attempt already in flight finishes, and its result is
 * discarded. Cannot be undone.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { deleteEndpoint, toEndpoint } from '../endpoints.queries.ts';
import { EndpointId, WebhookEndpoint } from '../webhooks.schemas.ts';

export const deleteWebhookEndpoint = defineOperation({
  name: 'delete_webhook_endpoint',
  summary: 'Delete a webhook endpoint and its delivery history',
  description:
    'Removes a webhook endpoint: no more events are sent to it, pending deliveries are dropped, and its delivery ' +
    'history is deleted. This cannot be undone; to stop deliveries for a while, pause it with ' +
    'update_webhook_endpoint (active=false) instead.',
  method: 'DELETE',
  path: '/webhook-endpoints/{endpoint_id}',
  group: 'Webhooks',
  scope: 'workspace:manage',
  write: true,
  destructive: true,
  entitlement: 'webhooks',
  errors: ['not_found', 'plan_limit'],
  input: Type.Object({ endpoint_id: EndpointId }, { additionalProperties: false }),
  output: Type.Object(
    {
      ...WebhookEndpoint.properties,
      deleted: Type.Literal(true),
      deliveries_deleted: Type.Integer({ minimum: 0, description: 'Delivery log entries removed with it.' }),
    },
    { additionalProperties: false },
  ),
  example: { endpoint_id: '3f6d2a9e-8c41-4b7e-a0d5-6e2b9c1f7a30' },
  async handler(ctx, input) {
    const { endpoint, deliveries } = await deleteEndpoint(ctx.db, ctx.workspaceId, input.endpoint_id);
    return { ...toEndpoint(endpoint), deleted: true as const, deliveries_deleted: deliveries };
  },
});
