/**
 * What operation handlers and the public routes depend on, built in one place from the
 * configuration and the opened database: the server (`buildApp`, the workers) and `mcp --stdio` use
 * the same builder, and tests override what they need on top of it. A new dependency is one field
 * of PipelineDeps (or below) and one line in buildDependencies; nothing else passes it along.
 */
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Log, OutboundSettings } from './core/context.ts';
import type { PipelineDeps } from './core/pipeline/pipeline.ts';
import { createRateLimiter } from './core/pipeline/rate-limit.ts';
import type { DatabaseHandle } from './db/client.ts';
import { outboxEmitter } from './db/outbox.ts';
import { resolveSigningSecret } from './db/signing-secret.ts';
import type { Cidr } from './net/address-policy.ts';
import { createLocalMediaStore } from './storage/local-media-store.ts';
import type { MediaDelivery, MediaStore } from './storage/media-store.ts';

/** The pipeline's dependencies, less what is taken from the database handle and the transport's logger. */
type HandlerDependencies = Omit<PipelineDeps, 'db' | 'findCredential' | 'log' | 'outbox'>;

export interface Dependencies extends HandlerDependencies {
  database: DatabaseHandle;
  /** Where uploaded and imported media files are kept and served from. */
  mediaStore: MediaStore;
  /** Whether /media streams files or redirects to the store's presigned URLs (CUEPOINT_MEDIA_DELIVERY). */
  mediaDelivery: MediaDelivery;
  /** The largest upload or import accepted (CUEPOINT_MAX_UPLOAD_BYTES). */
  maxUploadBytes: number;
  /** What outbound requests to user-supplied URLs may reach, and for how long. */
  outbound: OutboundSettings;
  /** The proxies whose X-Forwarded-For names the client of a public write (CUEPOINT_TRUSTED_PROXIES). */
  trustedProxies: readonly Cidr[];
  clock: () => Date;
}

export async function buildDependencies(
  config: Config,
  opened: { database: DatabaseHandle; redis?: Redis | undefined; log?: Log | undefined },
): Promise<Dependencies> {
  return {
    database: opened.database,
    mediaStore: await configuredMediaStore(config),
    mediaDelivery: config.mediaDelivery,
    rateLimiter: createRateLimiter(opened.redis, opened.log, { timeoutMs: config.redisTimeoutMs }),
    secret: await resolveSigningSecret(opened.database.db, config.secret),
    publicUrl: config.publicUrl,
    rateLimitOverride: config.rateLimitOverride,
    maxUploadBytes: config.maxUploadBytes,
    outbound: { allowPrivateNetworks: config.allowPrivateNetworks, webhookTimeoutMs: config.webhooks.timeoutMs },
    trustedProxies: config.trustedProxies,
    clock: () => new Date(),
  };
}

/**
 * Where this configuration keeps media files: the server serves them from there, and `seed --demo`
 * stores its clips there. The S3 store is loaded only when configured: the AWS SDK takes about 130 ms
 * of every start to load, which a service on local disk would pay for nothing.
 */
export async function configuredMediaStore(config: Config): Promise<MediaStore> {
  const { mediaStorage } = config;
  if (mediaStorage.kind !== 's3') return createLocalMediaStore(join(config.dataDir, 'media'));
  const { createS3MediaStore } = await import('./storage/s3-media-store.ts');
  return createS3MediaStore(mediaStorage);
}

/** The pipeline's share, with the logger of the transport that runs it. */
export function pipelineDeps(dependencies: Dependencies, log: Log): PipelineDeps {
  const { database, ...handlers } = dependencies;
  return { ...handlers, db: database.db, findCredential: database.findCredential, log, outbox: outboxEmitter };
}
