/**
 * POST /collect: where players report viewing. No API credential: the viewing token of the page
 * names the video and the session, so a client can only report on what it was shown. The batch is
 * validated (shape, then times against the video), bots are answered 204 and dropped, a client
 * address past its generous ceiling is answered 429 (http/address-limits.ts), and the
 * answer comes only after the batch is durably stored, in a group with other requests' batches
 * (domains/viewing/batch-collector.ts): acknowledged means it will be counted, once. The worker folds
 * it into the sessions and rollups within seconds (domains/viewing/viewing-fold.ts).
 * sendBeacon cannot set JSON headers cross-browser, so text/plain bodies are read as JSON too.
 */
import type { FastifyInstance } from 'fastify';
import type { DataAccess } from '../../../core/context.ts';
import type { RateLimiter } from '../../../core/pipeline/rate-limit.ts';
import { validateInput } from '../../../core/pipeline/validation.ts';
import type { ViewingTokens } from '../../../domains/viewing/index.ts';
import { CollectBatch, createBatchCollector } from '../../../domains/viewing/index.ts';
import type { AddressLimits } from '../http/address-limits.ts';
import { acceptBeaconJson } from '../http/beacon-json-body.ts';
import { bodyTooLargeHandler, sendFailure } from '../http/error-reply.ts';
import { requireViewingToken } from '../http/viewing-token-check.ts';
import { limitedWrite } from '../http/write-limits.ts';

const BODY_LIMIT = 64 * 1024;
// Crawlers, link previews and scripted clients. Headless browsers are not filtered: a real person
// can use one, and our own browser test does.
const BOTS =
  /bot\b|bot\/|crawl|spider|slurp|facebookexternalhit|embedly|preview|curl\/|wget\/|python-requests|python-urllib|go-http-client|okhttp|java\/|libwww|httpclient|axios\/|node-fetch|undici/i;

/** Whether a request comes from a crawler or a script rather than a person's browser (none sent: a script). */
export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || BOTS.test(userAgent);
}

export interface CollectOptions {
  db: DataAccess;
  viewingTokens: ViewingTokens;
  rateLimiter: RateLimiter;
  addressLimits: AddressLimits;
  clock: () => Date;
}

export async function registerCollect(app: FastifyInstance, options: CollectOptions): Promise<void> {
  const collector = createBatchCollector(options.db);
  // Batches already handed over are answered before the database closes.
  app.addHook('onClose', () => collector.drain());
  await app.register(async (collect) => {
    // Replaces the API's JSON parser here: /collect reads text/plain as JSON too (sendBeacon).
    acceptBeaconJson(collect, BODY_LIMIT);
    collect.setErrorHandler(bodyTooLargeHandler('A batch', BODY_LIMIT));
    collect.post('/collect', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
      if (isBot(request.headers['user-agent'])) return reply.code(204).send();
      try {
        const batch = validateInput<CollectBatch>(CollectBatch, request.body, 'json');
        const now = options.clock();
        const token = requireViewingToken(options.viewingTokens, batch.token, now);
        const { duplicate } = await limitedWrite(options.rateLimiter, [options.addressLimits.of(request, 'viewing')], () =>
          collector.record({
            sessionId: token.sessionId,
            videoId: token.videoId,
            viewerId: batch.viewer_id,
            sequence: batch.sequence,
            events: batch.events,
            receivedAt: now,
          }),
        );
        return reply.code(200).header('Cache-Control', 'no-store').send({ accepted: true, duplicate });
      } catch (error) {
        // The player keeps the batch and sends it again with the same sequence.
        return sendFailure(request, reply, error, 'batch not recorded');
      }
    });
  });
}
