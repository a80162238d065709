/**
 * What a public surface is: a folder of src/transports/public/ with a `surface.ts` naming it and
 * registering its routes on the app, from the dependencies every surface shares. The list of
 * surfaces is ./surfaces.ts, as src/catalog.ts lists the operations.
 */
import type { FastifyInstance } from 'fastify';
import type { DataAccess, OutboundSettings } from '../../core/context.ts';
import type { AnyOperation } from '../../core/operation.ts';
import type { Pipeline } from '../../core/pipeline/pipeline.ts';
import type { RateLimiter } from '../../core/pipeline/rate-limit.ts';
import type { ViewingTokens } from '../../domains/viewing/index.ts';
import type { MediaLinks, UploadTokenCheck } from '../../media/media-links.ts';
import type { MediaDelivery, MediaStore } from '../../storage/media-store.ts';
import type { AddressLimits } from './http/address-limits.ts';

export interface PublicSurfaceDeps {
  db: DataAccess;
  /** Signs the pages' tokens and opens sealed secrets (Stripe's). */
  secret: string;
  /** The service's public origin. */
  publicUrl: string;
  clock: () => Date;
  /** Milliseconds the forms that may create a lead answer no sooner than (http/answer-floor.ts). */
  answerFloorMs: number;
  /** The public writes' limits (shared through Redis when configured). */
  rateLimiter: RateLimiter;
  /** The limit per client address every public write draws from first. */
  addressLimits: AddressLimits;
  mediaStore: MediaStore;
  mediaDelivery: MediaDelivery;
  links: MediaLinks;
  checkUploadToken(token: string, now: Date): UploadTokenCheck;
  viewingTokens: ViewingTokens;
  /** The catalog's one path, which the dashboard calls with the signed-in person as the principal. */
  pipeline: Pipeline;
  /** Every operation by name, the dashboard's own (Operation.dashboardOnly) included. */
  operations: ReadonlyMap<string, AnyOperation>;
  /** What requests to URLs others name may reach (an assistant's client ID metadata document). */
  outbound: OutboundSettings;
}

export interface PublicSurface {
  /** The folder's name: watch, collect, route-player, booking, channel, media, uploads, stripe, sign-in, dashboard, oauth. */
  name: string;
  register(app: FastifyInstance, deps: PublicSurfaceDeps): Promise<void>;
}
