/** The webhooks area's operations, in the order the catalog (src/catalog.ts) lists them. */
import { createWebhookEndpoint } from './operations/create-webhook-endpoint.ts';
import { deleteWebhookEndpoint } from './operations/delete-webhook-endpoint.ts';
import { listWebhookDeliveries } from './operations/list-webhook-deliveries.ts';
import { listWebhookEndpoints } from './operations/list-webhook-endpoints.ts';
import { retryWebhookDelivery } from './operations/retry-webhook-delivery.ts';
import { testWebhookEndpoint } from './operations/test-webhook-endpoint.ts';
import { updateWebhookEndpoint } from './operations/update-webhook-endpoint.ts';

export const webhookOperations = [
  listWebhookEndpoints,
  createWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  testWebhookEndpoint,
  listWebhookDeliveries,
  retryWebhookDelivery,
];
