/**
 * POST /stripe/webhooks/{workspace_id}: where a workspace's Stripe account sends its events (the URL
 * get_workspace shows). No API credential: the Stripe-Signature header, made with the signing secret
 * the workspace set through update_workspace, is the proof. The body is kept as raw bytes, since the
 * signature covers exactly those. A delivery that does not verify gets 400 and writes nothing;
 * events the ledger does not take get 200 so Stripe stops sending them again.
 */
import type { FastifyInstance } from 'fastify';
import type { DataAccess } from '../../../core/context.ts';
import { AppError } from '../../../core/errors.ts';
import { createSealedBox } from '../../../core/secrets/sealed-box.ts';
import { acceptStripeDelivery, STRIPE_SECRET_PURPOSE, TOLERANCE_SECONDS } from '../../../domains/outcomes/index.ts';
import { bodyTooLargeHandler, sendFailure } from '../http/error-reply.ts';

/** Stripe events are a few KiB; a Checkout session with many line items stays well under this. */
const BODY_LIMIT = 256 * 1024;

export interface StripeWebhookOptions {
  db: DataAccess;
  secret: string;
  clock: () => Date;
}

export async function registerStripeWebhooks(app: FastifyInstance, options: StripeWebhookOptions): Promise<void> {
  const box = createSealedBox(options.secret, STRIPE_SECRET_PURPOSE);
  await app.register(async (stripe) => {
    stripe.removeContentTypeParser('application/json');
    stripe.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
      done(null, body);
    });
    stripe.setErrorHandler(bodyTooLargeHandler('A Stripe event', BODY_LIMIT));
    stripe.post<{ Params: { workspace_id: string } }>(
      '/stripe/webhooks/:workspace_id',
      { bodyLimit: BODY_LIMIT },
      async (request, reply) => {
        try {
          const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const signature = request.headers['stripe-signature'];
          const result = await acceptStripeDelivery(options.db, box, {
            workspaceId: request.params.workspace_id,
            rawBody,
            signature: typeof signature === 'string' ? signature : undefined,
            now: options.clock(),
          });
          if (result.kind === 'rejected') {
            throw new AppError(
              'invalid_request',
              `The Stripe-Signature header does not verify with this endpoint's signing secret, or is more than ${TOLERANCE_SECONDS / 60} minutes old.`,
            );
          }
          if (result.kind === 'malformed') throw AppError.invalid([{ field: '', problem: result.problem }]);
          return reply
            .code(200)
            .header('Cache-Control', 'no-store')
            .send(
              result.kind === 'ignored'
                ? { received: true, recorded: false }
                : { received: true, recorded: true, outcome_id: result.outcomeId },
            );
        } catch (error) {
          // Stripe sends it again later.
          return sendFailure(request, reply, error, 'Stripe event not recorded');
        }
      },
    );
  });
}
