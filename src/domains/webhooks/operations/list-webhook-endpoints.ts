/**
 * list_webhook_endpoints: the workspace's endpoints, newest first, with their events, whether they
 * are active and how many deliveries gave up. Secrets are never listed. Reads only.
 */
import { Type } from 'typebox';
import { ListOutput, PaginationInput, paginate } from '../../../core/lists/pagination.ts';
import { defineOperation } from '../../../core/operation.ts';
import { listEndpoints } from '../endpoints.queries.ts';
import { ListedWebhookEndpoint } from '../webhooks.schemas.ts';

export const listWebhookEndpoints = defineOperation({
  name: 'list_webhook_endpoints',
  summary: 'List webhook endpoints',
  description:
    'Lists the workspace’s webhook endpoints, newest first, with their URL, subscribed events and active flag ' +
    '(false: paused, by a person or because the endpoint answered 410 Gone; see disabled_reason), and how many ' +
    'deliveries gave up (exhausted_deliveries). Signing secrets are never shown here. Use it to find an endpoint_id.',
  method: 'GET',
  path: '/webhook-endpoints',
  group: 'Webhooks',
  scope: 'workspace:manage',
  write: false,
  entitlement: 'webhooks',
  errors: ['plan_limit'],
  input: Type.Object({ ...PaginationInput }, { additionalProperties: false }),
  output: ListOutput('webhook_endpoints', ListedWebhookEndpoint),
  example: { limit: 50 },
  async handler(ctx, input) {
    const page = await paginate(ctx.cursors, input, {}, (request) => listEndpoints(ctx.db, ctx.workspaceId, request));
    return { webhook_endpoints: page.items, pagination: page.pagination };
  },
});
