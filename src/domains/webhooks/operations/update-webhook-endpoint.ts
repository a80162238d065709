/**
 * update_webhook_endpoint: renames, re-points (the new URL checked like a new one), changes events,
 * pauses or resumes, or rotates the signing secret. Resuming makes every delivery held while paused
 * due at once. Rotating returns the new secret, once, and keeps signing with the old one as well for
 * 24 hours. Writes the endpoint row (and, on resume, its held deliveries).
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { releaseHeldDeliveries } from '../deliveries.queries.ts';
import { checkEndpointUrl } from '../endpoint-url.ts';
import { type EndpointChanges, lockEndpoint, normaliseEvents, toEndpoint, updateEndpoint } from '../endpoints.queries.ts';
import { generateWebhookSecret, ROTATION_OVERLAP_MS, WEBHOOK_SECRET_PURPOSE } from '../webhook-secrets.ts';
import { EndpointId, EndpointName, EndpointUrl, EventSubscription, RotatedSecret, WebhookEndpoint } from '../webhooks.schemas.ts';

export const updateWebhookEndpoint = defineOperation({
  name: 'update_webhook_endpoint',
  summary: 'Rename, re-point, pause, resume or rotate the secret of a webhook endpoint',
  description:
    'Changes an endpoint’s name, url, events or active flag. active=false pauses it: events keep being recorded ' +
    'as pending deliveries and are all sent when active is set back to true. rotate_secret=true issues a new ' +
    'signing secret, returned in this response only; deliveries are signed with both the new and the previous ' +
    'secret for 24 hours, then with the new one alone. Only the fields sent change.',
  method: 'PATCH',
  path: '/webhook-endpoints/{endpoint_id}',
  group: 'Webhooks',
  scope: 'workspace:manage',
  write: true,
  entitlement: 'webhooks',
  errors: ['not_found', 'plan_limit'],
  input: Type.Object(
    {
      endpoint_id: EndpointId,
      name: Type.Optional(EndpointName),
      url: Type.Optional(EndpointUrl),
      events: Type.Optional(EventSubscription),
      active: Type.Optional(Type.Boolean({ description: 'false pauses the endpoint; true resumes it and sends what it held.' })),
      rotate_secret: Type.Optional(
        Type.Boolean({ description: 'true: issue a new signing secret (shown once); the old one keeps signing too for 24 hours.' }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ ...WebhookEndpoint.properties, secret: Type.Optional(RotatedSecret) }, { additionalProperties: false }),
  example: { endpoint_id: '3f6d2a9e-8c41-4b7e-a0d5-6e2b9c1f7a30', active: false },
  async handler(ctx, input) {
    const { endpoint_id, ...fields } = input;
    const current = await lockEndpoint(ctx.db, ctx.workspaceId, endpoint_id);
    const changes: EndpointChanges = {};
    if (fields.name !== undefined && fields.name.trim() !== current.name) changes.name = fields.name.trim();
    if (fields.url !== undefined) {
      const url = await checkEndpointUrl(fields.url, ctx.outbound);
      if (url !== current.url) changes.url = url;
    }
    if (fields.events !== undefined) {
      const events = normaliseEvents(fields.events);
      if (events.join(' ') !== current.events.join(' ')) changes.events = events;
    }
    const resuming = fields.active === true && !current.active;
    if (fields.active !== undefined && fields.active !== current.active) {
      changes.active = fields.active;
      changes.disabled_reason = null;
    }
    let secret: string | undefined;
    if (fields.rotate_secret) {
      secret = generateWebhookSecret();
      changes.secret_sealed = ctx.sealedBox(WEBHOOK_SECRET_PURPOSE).seal(secret);
      // A second rotation within the overlap drops the oldest: at most two secrets ever sign.
      changes.previous_secret_sealed = current.secret_sealed;
      changes.previous_secret_expires_at = new Date(ctx.now.getTime() + ROTATION_OVERLAP_MS);
    }
    if (Object.keys(changes).length === 0) return toEndpoint(current);
    const row = await updateEndpoint(ctx.db, ctx.workspaceId, endpoint_id, changes, ctx.now);
    if (resuming) await releaseHeldDeliveries(ctx.db, ctx.workspaceId, endpoint_id, ctx.now);
    return secret === undefined ? toEndpoint(row) : { ...toEndpoint(row), secret };
  },
});
