/**
 * `cuepoint start`: serves the API (role api), runs background work (role worker), or both (all, the
 * default). With --processes N the API runs in N processes sharing the port (node:cluster); that
 * needs PostgreSQL, since an embedded database belongs to one process.
 */
import cluster from 'node:cluster';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { purgeExpiredKeys } from './core/idempotency.ts';
import { createRateLimiter } from './core/rate-limit.ts';
import type { DatabaseHandle } from './db/client.ts';
import { resolveSigningSecret } from './db/signing-secret.ts';
import { pruneViewingBatches } from './domains/analytics/raw-retention.queries.ts';
import { countWorkspaces, createWorkspace } from './domains/workspace/workspace.queries.ts';
import { type JobWorker, startJobWorker } from './jobs/worker.ts';
import { connectRedisReady, openConfiguredDatabase } from './runtime.ts';
import { createLocalMediaStore } from './storage/local-media-store.ts';
import { videoImportHandler } from './workers/video-import.ts';
import { videoProcessingHandler } from './workers/video-processing.ts';
import { startWebhookWorker, type WebhookWorker } from './workers/webhook-delivery.ts';

export type Role = 'api' | 'worker' | 'all';

const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;
/** A temporary media file nobody has written to for this long belongs to a killed process. */
const ABANDONED_WRITE_MS = 6 * 60 * 60 * 1000;

export async function start(config: Config, role: Role, processes: number): Promise<void> {
  if (processes > 1 && cluster.isPrimary) return startCluster(config, role, processes);
  const stop = await runProcess(config, cluster.isWorker ? 'api' : role, !cluster.isWorker);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop().then(() => process.exit(0)));
}

async function startCluster(config: Config, role: Role, processes: number): Promise<void> {
  const log = pino({ level: config.logLevel });
  // Migrate and create the first workspace once, before the API processes start.
  const database = await openConfiguredDatabase(config, { migrate: true });
  await announceFirstWorkspace(database, config.publicUrl);
  await database.close();
  for (let i = 0; i < processes; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (signal !== 'SIGTERM' && code !== 0) {
      log.warn({ pid: worker.process.pid, code, signal }, 'API process died; starting another');
      cluster.fork();
    }
  });
  const stopWorker = role === 'all' || role === 'worker' ? await runProcess(config, 'worker', false) : async () => {};
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
      void stopWorker().then(() => process.exit(0));
    });
  }
}

/** Runs one process's share of the work; resolves to a function that stops it gracefully. */
async function runProcess(config: Config, role: Role, isFirst: boolean): Promise<() => Promise<void>> {
  const log = pino({ level: config.logLevel });
  const database = await openConfiguredDatabase(config, { migrate: isFirst });
  if (isFirst && role !== 'worker') await announceFirstWorkspace(database, config.publicUrl);
  const redis: Redis | undefined = config.redisUrl ? await connectRedisReady(config.redisUrl) : undefined;
  let app: FastifyInstance | undefined;
  let timer: NodeJS.Timeout | undefined;
  let jobWorker: JobWorker | undefined;
  let webhookWorker: WebhookWorker | undefined;
  const outbound = { allowPrivateNetworks: config.allowPrivateNetworks, webhookTimeoutMs: config.webhooks.timeoutMs };
  const secret = await resolveSigningSecret(database.db, config.secret);
  const mediaStore = createLocalMediaStore(join(config.dataDir, 'media'));

  if (role === 'api' || role === 'all') {
    app = await buildApp({
      database,
      mediaStore,
      rateLimiter: createRateLimiter(redis, log),
      secret,
      publicUrl: config.publicUrl,
      rateLimitOverride: config.rateLimitOverride,
      maxUploadBytes: config.maxUploadBytes,
      logger: { level: config.logLevel },
      outbound,
    });
    await app.listen({ port: config.port, host: config.host });
  }
  if (role === 'worker' || role === 'all') {
    const maintain = async () => {
      try {
        await purgeExpiredKeys(database.db, new Date());
        const pruned = await pruneViewingBatches(database.db, config.viewingRetentionDays, new Date());
        if (pruned > 0) log.info({ pruned }, 'raw viewing batches past retention removed');
        const partials = await mediaStore.removeAbandonedWrites(new Date(Date.now() - ABANDONED_WRITE_MS));
        if (partials > 0) log.info({ partials }, 'files of interrupted uploads and imports removed');
      } catch (err) {
        log.warn({ err }, 'maintenance failed');
      }
    };
    void maintain();
    timer = setInterval(maintain, MAINTENANCE_INTERVAL_MS);
    timer.unref();
    announceMediaTools(config, log);
    jobWorker = startJobWorker({
      db: database.db,
      handlers: [
        videoProcessingHandler({ store: mediaStore, ffmpegPath: config.ffmpegPath, log }),
        videoImportHandler({
          store: mediaStore,
          ffmpegPath: config.ffmpegPath,
          log,
          allowPrivateNetworks: config.allowPrivateNetworks,
          maxBytes: config.maxUploadBytes,
        }),
      ],
      log,
      leaseMs: config.jobLeaseMs,
    });
    webhookWorker = startWebhookWorker({
      db: database.db,
      secret,
      log,
      outbound,
      retrySchedule: config.webhooks.retrySchedule,
      pollMs: config.webhooks.pollMs,
      concurrency: config.webhooks.concurrency,
    });
  }
  return async () => {
    clearInterval(timer);
    await app?.close();
    await jobWorker?.stop();
    await webhookWorker?.stop();
    redis?.disconnect();
    await database.close();
  };
}

async function announceFirstWorkspace(database: DatabaseHandle, publicUrl: string): Promise<void> {
  if ((await countWorkspaces(database.db)) > 0) return;
  const { workspace, apiKey } = await createWorkspace(database.db, { name: 'My workspace', plan: 'pro', now: new Date() });
  process.stdout.write(
    [
      '',
      'Created your first workspace. Its admin API key is shown this once; keep it somewhere safe:',
      '',
      `  workspace_id: ${workspace.id}`,
      `  api_key:      ${apiKey}`,
      '',
      `Try: curl -H "Authorization: Bearer ${apiKey}" ${publicUrl}/v1/workspace`,
      '',
    ].join('\n'),
  );
}

/** Says once, at start-up, what background work will and will not do with this configuration. */
function announceMediaTools(config: Config, log: pino.Logger): void {
  if (config.ffmpegPath)
    log.info({ ffmpeg: config.ffmpegPath }, 'ffmpeg found: processed videos get a poster and their embedded subtitles');
  else log.info('no ffmpeg (set CUEPOINT_FFMPEG or put ffmpeg on PATH): videos become ready without a poster or transcript');
  if (config.allowPrivateNetworks.length > 0) {
    log.warn(
      { allowed: config.allowPrivateNetworks.map((cidr) => cidr.text) },
      'CUEPOINT_ALLOW_PRIVATE_NETWORKS is set: video imports and webhooks may reach these non-public networks',
    );
  }
}
