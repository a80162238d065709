/**
 * create_webhook_endpoint: registers a URL to receive events, after checking it against the SSRF
 * guard. Writes one endpoint row with a new signing secret, sealed; the secret is in this response and
 * will not be shown again (only replaced, with update_webhook_endpoint's rotate_secret).
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { checkEndpointUrl } from '../endpoint-url.ts';
import { insertEndpoint, normaliseEvents, toEndpoint } from '../endpoints.queries.ts';
import { generateWebhookSecret, WEBHOOK_SECRET_PURPOSE } from '../webhook-secrets.ts';
import { ALL_EVENTS, EndpointName, EndpointUrl, EventSubscription, SigningSecret, WebhookEndpoint } from '../webhooks.schemas.ts';

export const createWebhookEndpoint = defineOperation({
  name: 'create_webhook_endpoint',
  summary: 'Register a webhook endpoint',
  description:
    'Registers an https URL to receive events as signed POST requests (Standard Webhooks: webhook-id, ' +
    'webhook-timestamp and webhook-signature headers). `events` lists the event types to receive, or ["*"] for ' +
    'all (the default). The signing secret (whsec_…) is returned in this response only: store it to verify ' +
    'deliveries. Use test_webhook_endpoint to try it.',
  method: 'POST',
  path: '/webhook-endpoints',
  group: 'Webhooks',
  scope: 'workspace:manage',
  write: true,
  entitlement: 'webhooks',
  status: 201,
  errors: ['plan_limit'],
  input: Type.Object(
    {
      name: EndpointName,
      url: EndpointUrl,
      events: Type.Optional({ ...EventSubscription, default: [ALL_EVENTS] }),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ ...WebhookEndpoint.properties, secret: SigningSecret }, { additionalProperties: false }),
  example: { name: 'CRM sync', url: 'https://hooks.example.com/cuepoint', events: ['video.ready', 'video.failed'] },
  async handler(ctx, input) {
    const url = await checkEndpointUrl(input.url, ctx.outbound);
    const secret = generateWebhookSecret();
    const row = await insertEndpoint(
      ctx.db,
      ctx.workspaceId,
      {
        name: input.name.trim(),
        url,
        events: normaliseEvents(input.events ?? [ALL_EVENTS]),
        secretSealed: ctx.sealedBox(WEBHOOK_SECRET_PURPOSE).seal(secret),
      },
      ctx.now,
    );
    return { ...toEndpoint(row), secret };
  },
});
