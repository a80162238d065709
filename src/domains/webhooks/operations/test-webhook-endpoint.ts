/**
 * test_webhook_endpoint: sends one synthetic `webhook.test` event to the endpoint now, signed and
 * checked like any delivery, and answers how it went. Logged as a delivery with a single attempt:
 * succeeded, or failed with no next attempt (retry_webhook_delivery sends it again). Sent even while the endpoint is
 * paused, to check it before resuming. Runs outside a transaction, so no database connection waits on
 * the receiver.
 */
import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import { AppError } from '../../../core/errors.ts';
import { defineOperation } from '../../../core/operation.ts';
import { Id, Nullable, StringEnum } from '../../../core/schemas.ts';
import { checkEventData, type EventData } from '../../../event-catalog.ts';
import { type AttemptOutcome, insertTestDelivery, recordAttempt } from '../delivery-queue.ts';
import { getEndpointRow } from '../endpoints.queries.ts';
import { eventPayload } from '../event-payload.ts';
import { FAILURE_REASONS, RESPONSE_EXCERPT_BYTES, sendAttempt } from '../send-attempt.ts';
import { signingSecretsAt, UnreadableSecretError, WEBHOOK_SECRET_PURPOSE } from '../webhook-secrets.ts';
import { EndpointId } from '../webhooks.schemas.ts';

export const testWebhookEndpoint = defineOperation({
  name: 'test_webhook_endpoint',
  summary: 'Send a test event to a webhook endpoint',
  description:
    'Sends one synthetic webhook.test event to the endpoint right away and reports the result: whether a 2xx ' +
    'came back, the HTTP status, how long it took, the start of the response body, and when it failed, why ' +
    '(dns, refused, timeout, tls, non_2xx, blocked, connection). Works while the endpoint is paused. The attempt ' +
    'appears in list_webhook_deliveries.',
  method: 'POST',
  path: '/webhook-endpoints/{endpoint_id}/test',
  group: 'Webhooks',
  scope: 'workspace:manage',
  write: true,
  transactional: false,
  entitlement: 'webhooks',
  errors: ['not_found', 'conflict', 'plan_limit'],
  input: Type.Object({ endpoint_id: EndpointId }, { additionalProperties: false }),
  output: Type.Object(
    {
      delivery_id: Id('The logged delivery, in list_webhook_deliveries.'),
      event_id: Id('The test event’s id, sent as webhook-id and as the payload’s id.'),
      succeeded: Type.Boolean({ description: 'true when the endpoint answered 2xx.' }),
      status_code: Nullable(Type.Integer({ description: 'The HTTP status; null when no answer came.' })),
      duration_ms: Type.Integer({ minimum: 0 }),
      response_body_excerpt: Nullable(Type.String({ description: `The first ${RESPONSE_EXCERPT_BYTES} bytes of the response body.` })),
      failure_reason: Nullable(StringEnum(FAILURE_REASONS, { description: 'Why it failed; null when it succeeded.' })),
      error: Nullable(Type.String({ description: 'What went wrong, in words; null when it succeeded.' })),
    },
    { additionalProperties: false },
  ),
  example: { endpoint_id: '3f6d2a9e-8c41-4b7e-a0d5-6e2b9c1f7a30' },
  async handler(ctx, input) {
    const endpoint = await getEndpointRow(ctx.db, ctx.workspaceId, input.endpoint_id);
    let secrets: string[];
    try {
      secrets = signingSecretsAt(endpoint, ctx.sealedBox(WEBHOOK_SECRET_PURPOSE), ctx.now);
    } catch (error) {
      if (!(error instanceof UnreadableSecretError)) throw error;
      throw new AppError('conflict', error.message, { reason: 'secret_unreadable' });
    }
    const eventId = randomUUID();
    const data: EventData<'webhook.test'> = {
      endpoint_id: endpoint.id,
      message: 'A test event from Cuepoint. Answer 2xx once the signature checks out.',
    };
    // Sent directly rather than through the outbox, so it is checked here as recordEvent checks the others.
    checkEventData('webhook.test', data);
    const body = eventPayload({ id: eventId, type: 'webhook.test', workspaceId: ctx.workspaceId, createdAt: ctx.now, data }, false);
    // Leased for longer than the attempt can take, so no background sender sends it too.
    const leaseMs = 2 * ctx.outbound.webhookTimeoutMs + 1000;
    const delivery = await insertTestDelivery(
      ctx.db,
      { workspaceId: ctx.workspaceId, endpointId: endpoint.id, eventId, payload: body, leaseMs },
      ctx.now,
    );
    const result = await sendAttempt({ url: endpoint.url, messageId: eventId, body, secrets }, { outbound: ctx.outbound, now: ctx.now });
    // A test is tried once and never retried on the schedule: a failure is `failed` with no next attempt,
    // not `exhausted`, which is kept for real events that ran out of attempts (the ones to worry about).
    const outcome: AttemptOutcome = { status: result.succeeded ? 'succeeded' : 'failed', nextAttemptAt: null };
    await recordAttempt(ctx.db, delivery, result, outcome, ctx.now);
    return {
      delivery_id: delivery.id,
      event_id: eventId,
      succeeded: result.succeeded,
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      response_body_excerpt: result.excerpt,
      failure_reason: result.failureReason,
      error: result.error,
    };
  },
});
