/**
 * list_webhook_deliveries: what was sent to one endpoint and how it went, newest first: each event
 * with its status, attempts, last answer or error, and when the next attempt is due. Reads only.
 */
import { Type } from 'typebox';
import { ListOutput, PaginationInput, paginate } from '../../../core/lists/pagination.ts';
import { defineOperation } from '../../../core/operation.ts';
import { StringEnum } from '../../../core/schemas.ts';
import { listDeliveries, toDelivery } from '../deliveries.queries.ts';
import { getEndpointRow } from '../endpoints.queries.ts';
import { DELIVERY_STATUSES, EndpointId, WebhookDelivery } from '../webhooks.schemas.ts';

export const listWebhookDeliveries = defineOperation({
  name: 'list_webhook_deliveries',
  summary: 'List the deliveries to a webhook endpoint',
  description:
    'Lists what was sent to a webhook endpoint, newest first: each event’s id and type, the delivery status ' +
    '(pending, succeeded, failed = will be retried, exhausted = out of attempts), attempts made, the last HTTP ' +
    'status and error, and when the next attempt is due. Filter by status, e.g. exhausted to find deliveries to ' +
    'resend with retry_webhook_delivery.',
  method: 'GET',
  path: '/webhook-endpoints/{endpoint_id}/deliveries',
  group: 'Webhooks',
  scope: 'workspace:manage',
  write: false,
  entitlement: 'webhooks',
  errors: ['not_found', 'plan_limit'],
  input: Type.Object(
    {
      endpoint_id: EndpointId,
      status: Type.Optional(StringEnum(DELIVERY_STATUSES, { description: 'Only deliveries in this state.' })),
      ...PaginationInput,
    },
    { additionalProperties: false },
  ),
  output: ListOutput('deliveries', WebhookDelivery),
  example: { endpoint_id: '3f6d2a9e-8c41-4b7e-a0d5-6e2b9c1f7a30', status: 'exhausted', limit: 20 },
  async handler(ctx, input) {
    const { endpoint_id, limit, cursor, ...filters } = input;
    const endpoint = await getEndpointRow(ctx.db, ctx.workspaceId, endpoint_id);
    const page = await paginate(ctx.cursors, input, { endpoint_id, ...filters }, (request) =>
      listDeliveries(ctx.db, ctx.workspaceId, endpoint_id, filters, request),
    );
    return { deliveries: page.items.map((row) => toDelivery(row, !endpoint.active)), pagination: page.pagination };
  },
});
