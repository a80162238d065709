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
import { purgeExpiredKeys } from './core/pipeline/idempotency.ts';
import { createWorkspace } from './create-workspace.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { UpkeepReport } from './db/pglite-upkeep.ts';
import { buildDependencies } from './dependencies.ts';
import { sweepExpiredCodes, sweepExpiredRefreshTokens, sweepUnusedClients } from './domains/assistants/index.ts';
import { requeueStrandedFeeds } from './domains/scheduling/index.ts';
import { pruneViewingBatches } from './domains/viewing/index.ts';
import { countWorkspaces } from './domains/workspace/index.ts';
import { type JobWorker, startJobWorker } from './job-queue/worker.ts';
import { createMediaLinks, invitationUrl } from './media/media-links.ts';
import { speechEngineOf } from './media/speech/speech-engine.ts';
import { connectRedisReady, openConfiguredDatabase } from './runtime.ts';
import { stopOnSignals } from './shutdown.ts';
import { removeAbandonedWorkDirs } from './storage/work-dirs.ts';
import { calendarFeedFetchHandler } from './workers/calendar-feed-fetch.ts';
import { type EmailWorker, startEmailWorker } from './workers/email-delivery.ts';
import { videoFileRemovalHandler } from './workers/video-file-removal.ts';
import { videoImportHandler } from './workers/video-import.ts';
import { videoProcessingHandler } from './workers/video-processing.ts';
import { videoRenditionHandler } from './workers/video-renditions.ts';
import { videoSpeechToTextHandler } from './workers/video-speech-to-text.ts';
import { startViewingFolder, type ViewingFolder } from './workers/viewing-folder.ts';
import { startWebhookWorker, type WebhookWorker } from './workers/webhook-delivery.ts';

export type Role = 'api' | 'worker' | 'all';

const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;
/** How often the embedded database looks for tables to analyze or vacuum (autovacuum's naptime). */
const UPKEEP_INTERVAL_MS = 60 * 1000;
/** How long after the API listens a process that also runs background work starts it (role all). */
const BACKGROUND_START_DELAY_MS = 500;
/** A temporary media file nobody has written to for this long belongs to a killed process. */
const ABANDONED_WRITE_MS = 6 * 60 * 60 * 1000;
/** OAuth registration is open to anyone: a registered client no person ever connected is removed after this. */
const UNUSED_CLIENT_MS = 30 * 24 * 60 * 60 * 1000;

/** The embedded database's autovacuum (see pglite-upkeep.ts), every minute, one pass at a time. */
function startUpkeep(upkeep: () => Promise<UpkeepReport>, log: pino.Logger): NodeJS.Timeout {
  let running = false;
  const pass = async () => {
    if (running) return;
    running = true;
    try {
      const report = await upkeep();
      if (report.analyzed.length + report.vacuumed.length > 0) log.debug(report, 'embedded database upkeep');
    } catch (err) {
      log.warn({ err }, 'embedded database upkeep failed');
    } finally {
      running = false;
    }
  };
  void pass();
  const timer = setInterval(pass, UPKEEP_INTERVAL_MS);
  timer.unref();
  return timer;
}

export async function start(config: Config, role: Role, processes: number): Promise<void> {
  const log = pino({ level: config.logLevel });
  if (processes > 1 && cluster.isPrimary) return startCluster(config, role, processes, log);
  if (cluster.isWorker) {
    // Ctrl-C reaches every process of the terminal's group; the primary relays the stop as SIGTERM,
    // so an API process taking SIGINT as well would count it as a second signal and cut itself off.
    process.on('SIGINT', () => {});
  }
  const stop = await runProcess(config, cluster.isWorker ? 'api' : role, !cluster.isWorker, log);
  stopOnSignals(stop, { signals: cluster.isWorker ? ['SIGTERM'] : ['SIGINT', 'SIGTERM'], timeoutMs: config.shutdownTimeoutMs, log });
}

async function startCluster(config: Config, role: Role, processes: number, log: pino.Logger): Promise<void> {
  // Migrate and create the first workspace once, before the API processes start.
  const database = await openConfiguredDatabase(config, { migrate: true });
  await announceFirstWorkspace(database, config.publicUrl);
  await database.close();
  let stopping = false;
  for (let i = 0; i < processes; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping && signal !== 'SIGTERM' && code !== 0) {
      log.warn({ pid: worker.process.pid, code, signal }, 'API process died; starting another');
      cluster.fork();
    }
  });
  const stopWorker = role === 'all' || role === 'worker' ? await runProcess(config, 'worker', false, log) : async () => {};
  const children = () => Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
  const stop = async () => {
    stopping = true;
    // Each API process stops gracefully on SIGTERM, under the same deadline; the primary waits for them.
    const exited = children().map((worker) => new Promise<void>((resolve) => worker.once('exit', () => resolve())));
    for (const worker of children()) worker.process.kill('SIGTERM');
    await Promise.all([...exited, stopWorker()]);
  };
  stopOnSignals(stop, {
    signals: ['SIGINT', 'SIGTERM'],
    timeoutMs: config.shutdownTimeoutMs,
    log,
    onForce: () => {
      for (const worker of children()) worker.process.kill('SIGKILL');
    },
  });
}

/** Runs one process's share of the work; resolves to a function that stops it gracefully. */
async function runProcess(config: Config, role: Role, isFirst: boolean, log: pino.Logger): Promise<() => Promise<void>> {
  const database = await openConfiguredDatabase(config, { migrate: isFirst });
  if (isFirst && role !== 'worker') await announceFirstWorkspace(database, config.publicUrl);
  const redis: Redis | undefined = config.redisUrl ? await connectRedisReady(config.redisUrl) : undefined;
  let app: FastifyInstance | undefined;
  let timer: NodeJS.Timeout | undefined;
  let upkeepTimer: NodeJS.Timeout | undefined;
  let jobWorker: JobWorker | undefined;
  let feedWorker: JobWorker | undefined;
  let speechWorker: JobWorker | undefined;
  let renditionWorker: JobWorker | undefined;
  let webhookWorker: WebhookWorker | undefined;
  let emailWorker: EmailWorker | undefined;
  let viewingFolder: ViewingFolder | undefined;
  const dependencies = await buildDependencies(config, { database, redis, log });
  const { mediaStore, secret, outbound } = dependencies;
  announceMediaStorage(config, log);

  if (role === 'api' || role === 'all') {
    app = await buildApp({ ...dependencies, logger: { level: config.logLevel } });
    await app.listen({ port: config.port, host: config.host });
  }
  const startBackgroundWork = () => {
    const maintain = async () => {
      try {
        await purgeExpiredKeys(database.db, new Date());
        const pruned = await pruneViewingBatches(database.db, config.viewingRetentionDays, new Date());
        if (pruned > 0) log.info({ pruned }, 'raw viewing batches past retention removed');
        const partials = await mediaStore.removeAbandonedWrites(new Date(Date.now() - ABANDONED_WRITE_MS));
        if (partials > 0) log.info({ partials }, 'files of interrupted uploads and imports removed');
        const scratch = await removeAbandonedWorkDirs(new Date(Date.now() - ABANDONED_WRITE_MS));
        if (scratch > 0) log.info({ scratch }, 'scratch folders of interrupted renditions and speech-to-text removed');
        const stranded = await requeueStrandedFeeds(database.db, new Date());
        if (stranded > 0) log.info({ stranded }, 'calendar feeds without a queued fetch queued again');
        const unusedClients = await sweepUnusedClients(database.db, new Date(Date.now() - UNUSED_CLIENT_MS));
        if (unusedClients > 0) log.info({ unusedClients }, 'OAuth clients registered and never used removed');
        // A redeemed code is kept a day past its minute, so a replay is still recognised as one.
        await sweepExpiredCodes(database.db, new Date(Date.now() - 24 * 60 * 60 * 1000));
        // Likewise a refresh token a day past its end: presented late, it is still told apart from a forged one.
        await sweepExpiredRefreshTokens(database.db, new Date(Date.now() - 24 * 60 * 60 * 1000));
      } catch (err) {
        log.warn({ err }, 'maintenance failed');
      }
    };
    void maintain();
    timer = setInterval(maintain, MAINTENANCE_INTERVAL_MS);
    timer.unref();
    if (database.upkeep) upkeepTimer = startUpkeep(database.upkeep, log);
    const { links } = createMediaLinks(secret, config.publicUrl);
    const speech = config.speechToText.engine === 'off' ? null : config.speechToText;
    jobWorker = startJobWorker({
      db: database.db,
      handlers: [
        videoProcessingHandler({ store: mediaStore, ffmpegPath: config.ffmpegPath, log, links, speechToText: speech !== null }),
        videoImportHandler({
          store: mediaStore,
          ffmpegPath: config.ffmpegPath,
          log,
          links,
          speechToText: speech !== null,
          allowPrivateNetworks: config.allowPrivateNetworks,
          maxBytes: config.maxUploadBytes,
        }),
        videoFileRemovalHandler({ store: mediaStore, log }),
      ],
      log,
      leaseMs: config.jobLeaseMs,
    });
    // A loop of its own, so calendar refreshes never wait behind a video being processed for minutes.
    feedWorker = startJobWorker({
      db: database.db,
      handlers: [calendarFeedFetchHandler({ secret, outbound, log })],
      log,
      leaseMs: config.jobLeaseMs,
    });
    // Its own loop too: recognising an hour of speech takes minutes, and uploads must not wait behind it.
    // (Configuration refuses speech-to-text without ffmpeg.)
    if (speech && config.ffmpegPath) {
      speechWorker = startJobWorker({
        db: database.db,
        handlers: [
          videoSpeechToTextHandler({
            store: mediaStore,
            ffmpegPath: config.ffmpegPath,
            engine: speechEngineOf(speech, outbound),
            maxSeconds: speech.maxSeconds,
            log,
          }),
        ],
        log,
        leaseMs: config.jobLeaseMs,
      });
    }
    // The higher renditions of ready videos, in a loop of their own: a new upload's processing (which
    // makes its first rendition) never waits behind another video's 1080p.
    if (config.ffmpegPath) {
      renditionWorker = startJobWorker({
        db: database.db,
        handlers: [videoRenditionHandler({ store: mediaStore, ffmpegPath: config.ffmpegPath, log })],
        log,
        leaseMs: config.jobLeaseMs,
      });
    }
    viewingFolder = startViewingFolder({ db: database.db, log, intervalMs: config.viewingFoldMs });
    webhookWorker = startWebhookWorker({
      db: database.db,
      secret,
      log,
      outbound,
      retrySchedule: config.webhooks.retrySchedule,
      pollMs: config.webhooks.pollMs,
      concurrency: config.webhooks.concurrency,
    });
    emailWorker = startEmailWorker({ db: database.db, log, smtp: config.email.smtp, from: config.email.from });
  };
  let backgroundStart: NodeJS.Timeout | undefined;
  if (role === 'worker' || role === 'all') announceMediaTools(config, log);
  if (role === 'worker') startBackgroundWork();
  // With the API in the same process, background work begins a moment after it listens: its first
  // pass touches a dozen tables, and on the embedded database, which runs one statement at a time,
  // the first requests would wait behind it (about a tenth of a second of the first answer).
  if (role === 'all') backgroundStart = setTimeout(startBackgroundWork, BACKGROUND_START_DELAY_MS);
  return async () => {
    clearTimeout(backgroundStart);
    clearInterval(timer);
    clearInterval(upkeepTimer);
    // The server stops accepting and lets in-flight requests finish while the workers finish their
    // current jobs and deliveries; the database closes only once nothing uses it.
    // Viewing stored but not folded yet is folded by the next worker to start: nothing is lost.
    await Promise.all([
      app?.close(),
      jobWorker?.stop(),
      feedWorker?.stop(),
      speechWorker?.stop(),
      renditionWorker?.stop(),
      webhookWorker?.stop(),
      emailWorker?.stop(),
      viewingFolder?.stop(),
    ]);
    redis?.disconnect();
    await database.close();
  };
}

async function announceFirstWorkspace(database: DatabaseHandle, publicUrl: string): Promise<void> {
  if ((await countWorkspaces(database.db)) > 0) return;
  const { workspace, apiKey, ownerInviteUrl } = await createWorkspace(database.db, {
    name: 'My workspace',
    plan: 'pro',
    now: new Date(),
    owner: { email: null, invitationUrl: (secret) => invitationUrl(publicUrl, secret) },
  });
  process.stdout.write(
    [
      '',
      'Created your first workspace. Its admin API key is shown this once; keep it somewhere safe:',
      '',
      `  workspace_id: ${workspace.id}`,
      `  api_key:      ${apiKey}`,
      '',
      'Open this link to create your owner account and sign in to the dashboard (it works once, for 7 days):',
      '',
      `  ${ownerInviteUrl}`,
      '',
      `Try: curl -H "Authorization: Bearer ${apiKey}" ${publicUrl}/v1/workspace`,
      '',
    ].join('\n'),
  );
}

/** Says at start-up where media files are kept and how /media serves them (never the credentials). */
function announceMediaStorage(config: Config, log: pino.Logger): void {
  const storage = config.mediaStorage;
  const { mode, urlSeconds } = config.mediaDelivery;
  if (storage.kind === 'local') {
    const dir = join(config.dataDir, 'media');
    log.info({ store: 'local', dir, delivery: mode }, `media files are kept in ${dir}; /media streams them`);
    return;
  }
  log.info(
    {
      store: 's3',
      bucket: storage.bucket,
      endpoint: storage.endpoint ?? 'AWS',
      region: storage.region,
      prefix: storage.prefix,
      path_style: storage.forcePathStyle,
      credentials: storage.credentials ? 'CUEPOINT_S3_ACCESS_KEY_ID' : 'the default AWS chain',
      delivery: mode,
    },
    mode === 'redirect'
      ? `media files are kept in S3 bucket ${storage.bucket}; /media redirects to presigned URLs valid ${urlSeconds} s (playlists are streamed)`
      : `media files are kept in S3 bucket ${storage.bucket}; /media streams them`,
  );
}

/** Says once, at start-up, what background work will and will not do with this configuration. */
function announceMediaTools(config: Config, log: pino.Logger): void {
  const bundled = config.ffmpegBundledProblem;
  if (config.ffmpegPath) {
    const from = { CUEPOINT_FFMPEG: 'from CUEPOINT_FFMPEG', bundled: 'bundled with @ffmpeg-installer', PATH: 'on PATH' };
    log.info(
      { ffmpeg: config.ffmpegPath, source: config.ffmpegSource, ...(bundled ? { bundled_not_used: bundled } : {}) },
      `ffmpeg found (${config.ffmpegSource ? from[config.ffmpegSource] : 'configured'}): processed videos get a poster, their embedded subtitles and an HLS ladder`,
    );
  } else if (bundled) {
    log.warn(
      `no ffmpeg (${bundled}, and none on PATH; or set CUEPOINT_FFMPEG): videos become ready without a poster, transcript or HLS ladder (they play their original file)`,
    );
  } else {
    log.info(
      'no ffmpeg (CUEPOINT_FFMPEG is off): videos become ready without a poster, transcript or HLS ladder (they play their original file)',
    );
  }
  if (config.speechToText.engine === 'off') {
    log.info('speech-to-text is off (CUEPOINT_SPEECH_TO_TEXT): videos without captions or subtitles get no transcript');
  } else {
    const engine = speechEngineOf(config.speechToText, { allowPrivateNetworks: config.allowPrivateNetworks });
    log.info(
      { engine: engine.description, max_seconds: config.speechToText.maxSeconds },
      'speech-to-text is on: videos ready without a transcript get one from their speech',
    );
  }
  if (config.allowPrivateNetworks.length > 0) {
    log.warn(
      { allowed: config.allowPrivateNetworks.map((cidr) => cidr.text) },
      'CUEPOINT_ALLOW_PRIVATE_NETWORKS is set: video imports and webhooks may reach these non-public networks',
    );
  }
}
