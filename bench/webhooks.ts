/**
 * `npm run bench -- webhooks`: the webhook worker against a fast loopback
 * receiver (answers 204 at once), on PostgreSQL, with the production defaults for polling and
 * concurrency unless overridden. Two measurements:
 * - throughput: a backlog of BENCH_WEBHOOK_EVENTS events, already committed, fanned out and sent;
 *   deliveries per second from the first to the last arrival;
 * - latency: events committed one by one at BENCH_WEBHOOK_RATE per second for BENCH_WEBHOOK_SECONDS;
 *   time from each event's commit to its arrival at the receiver, p50, p99 and max.
 * Every request is checked against its signature. Writes bench/results/<date>-webhooks.json.
 *
 * Settings: BENCH_DATABASE_URL or DATABASE_URL, BENCH_WEBHOOK_EVENTS (default 3000),
 * BENCH_WEBHOOK_RATE (default 50), BENCH_WEBHOOK_SECONDS (default 10), and the service's own
 * CUEPOINT_WEBHOOK_POLL_MS and CUEPOINT_WEBHOOK_CONCURRENCY.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../src/config.ts';
import { createSealedBox } from '../src/core/secrets/sealed-box.ts';
import { recordEvent } from '../src/db/outbox.ts';
import { generateWebhookSecret, WEBHOOK_SECRET_PURPOSE } from '../src/domains/webhooks/index.ts';
import type { EventData } from '../src/event-catalog.ts';
import { parseCidr } from '../src/net/address-policy.ts';
import { startWebhookWorker } from '../src/workers/webhook-delivery.ts';
import { createBenchDatabase } from './bench-database.ts';
import { describeMachine } from './machine.ts';
import { writeResultFile } from './result-file.ts';

const SECRET = 'bench-secret-bench-secret-bench-secret-01';
const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const settings = {
  databaseUrl: process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  backlog: setting('BENCH_WEBHOOK_EVENTS', 3000),
  rate: setting('BENCH_WEBHOOK_RATE', 50),
  seconds: setting('BENCH_WEBHOOK_SECONDS', 10),
};
const webhooks = loadConfig(process.env).webhooks;
const log = (line: string) => process.stdout.write(`${line}\n`);

/** A `video.updated` of the shape real ones have (the whole video), so payload sizes are realistic. */
const BENCH_VIDEO_ID = '0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01';
const retitled = (n: number): EventData<'video.updated'> => ({
  video_id: BENCH_VIDEO_ID,
  changed: ['title'],
  video: {
    video_id: BENCH_VIDEO_ID,
    title: `Benchmark video ${n}`,
    description: 'A video whose title the benchmark keeps changing.',
    status: 'ready',
    archived: false,
    tags: ['benchmark'],
    folder_id: null,
    folder_name: null,
    duration_seconds: 93.4,
    views: 0,
    transcript: null,
    created_at: '2026-03-01T12:00:00.000Z',
    updated_at: '2026-03-01T12:00:00.000Z',
    source_url: null,
    file_name: 'benchmark.mp4',
    file_size: 12_345_678,
    width: 1920,
    height: 1080,
    failure_reason: null,
    poster_url: null,
    playback_url: `http://localhost:3000/media/${BENCH_VIDEO_ID}`,
    hls_url: null,
    renditions: [],
    watch_url: `http://localhost:3000/watch/${BENCH_VIDEO_ID}`,
    embed_url: `http://localhost:3000/embed/${BENCH_VIDEO_ID}`,
    stats: {
      views: 0,
      unique_viewers: 0,
      watch_time_seconds: 0,
      average_engagement: 0,
      completions: 0,
      completion_rate: 0,
      conversions: 0,
      leads: 0,
    },
    lead_form: null,
    booking_event_type_id: null,
    booking_url: null,
  },
});

// The receiver: notes when each webhook-id first arrived, and whether its signature verified.
const arrivals = new Map<string, number>();
let requests = 0;
let badSignatures = 0;
let verifier: Webhook | undefined;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    requests++;
    try {
      verifier?.verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>);
    } catch {
      badSignatures++;
    }
    const id = String(req.headers['webhook-id']);
    if (!arrivals.has(id)) arrivals.set(id, at);
    res.writeHead(204).end();
  });
});
await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
const port = (receiver.address() as { port: number }).port;

const startedAt = new Date();
const loadBefore = loadavg();
const bench = await createBenchDatabase(settings.databaseUrl, 1, webhooks.concurrency + 4);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void bench.drop().finally(() => process.exit(130)));
const db = bench.database.db;
let stopWorker: (() => Promise<void>) | undefined;
try {
  const secret = generateWebhookSecret();
  verifier = new Webhook(secret);
  const now = new Date();
  await db
    .insertInto('webhook_endpoints')
    .values({
      id: randomUUID(),
      workspace_id: bench.workspaceId,
      name: 'Benchmark receiver',
      url: `http://127.0.0.1:${port}/hooks`,
      events: ['*'],
      active: true,
      disabled_reason: null,
      secret_sealed: createSealedBox(SECRET, WEBHOOK_SECRET_PURPOSE).seal(secret),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();

  // Throughput: the backlog is committed before the worker starts.
  const backlogIds: string[] = [];
  const at = new Date();
  for (let i = 0; i < settings.backlog; i += 500) {
    const rows = Array.from({ length: Math.min(500, settings.backlog - i) }, (_, j) => {
      const id = randomUUID();
      backlogIds.push(id);
      return { id, workspace_id: bench.workspaceId, type: 'video.updated', data: JSON.stringify(retitled(i + j)), created_at: at };
    });
    await db.insertInto('events').values(rows).execute();
  }
  const throughputStart = performance.timeOrigin + performance.now();
  const worker = startWebhookWorker({
    db,
    secret: SECRET,
    log: { info() {}, warn() {}, error() {} },
    outbound: { allowPrivateNetworks: [parseCidr('127.0.0.0/8')], webhookTimeoutMs: webhooks.timeoutMs },
    retrySchedule: webhooks.retrySchedule,
    pollMs: webhooks.pollMs,
    concurrency: webhooks.concurrency,
  });
  stopWorker = () => worker.stop();
  await until(() => backlogIds.every((id) => arrivals.has(id)), 300_000, 'the backlog');
  const lastArrival = Math.max(...backlogIds.map((id) => arrivals.get(id) as number));
  const throughputSeconds = (lastArrival - throughputStart) / 1000;
  const deliveriesPerSecond = settings.backlog / throughputSeconds;
  log(`throughput: ${settings.backlog} deliveries in ${throughputSeconds.toFixed(2)} s = ${deliveriesPerSecond.toFixed(0)}/s`);

  // Latency: events committed at a steady rate while the worker runs.
  const committed = new Map<string, number>();
  const total = Math.round(settings.rate * settings.seconds);
  const interval = 1000 / settings.rate;
  const latencyStart = performance.now();
  for (let i = 0; i < total; i++) {
    const due = latencyStart + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const id = await recordEvent(db, { workspaceId: bench.workspaceId, type: 'video.updated', data: retitled(i), at: new Date() });
    committed.set(id, performance.timeOrigin + performance.now());
  }
  await until(() => [...committed.keys()].every((id) => arrivals.has(id)), 120_000, 'the paced events');
  const latencies = [...committed].map(([id, t]) => (arrivals.get(id) as number) - t).sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] as number;
  const latency = { p50: pct(50), p99: pct(99), max: latencies.at(-1) as number };
  log(
    `latency (event commit → arrival, ${total} events at ${settings.rate}/s): p50 ${latency.p50.toFixed(1)} ms, p99 ${latency.p99.toFixed(1)} ms, max ${latency.max.toFixed(1)} ms`,
  );
  log(`requests: ${requests} for ${arrivals.size} events (${requests - arrivals.size} repeats), bad signatures: ${badSignatures}`);

  const report = {
    benchmark: 'webhook delivery to a fast loopback receiver',
    date: startedAt.toISOString(),
    machine: describeMachine(),
    configuration: {
      database: 'postgresql',
      poll_ms: webhooks.pollMs,
      concurrency: webhooks.concurrency,
      timeout_ms: webhooks.timeoutMs,
      backlog_events: settings.backlog,
      paced_rate_per_second: settings.rate,
      paced_seconds: settings.seconds,
      load_average_before: loadBefore,
      load_average_after: loadavg(),
    },
    throughput: { deliveries: settings.backlog, seconds: round(throughputSeconds), deliveries_per_second: round(deliveriesPerSecond) },
    latency_ms: { events: total, p50: round(latency.p50), p99: round(latency.p99), max: round(latency.max) },
    requests,
    repeats: requests - arrivals.size,
    bad_signatures: badSignatures,
  };
  log(`report written to ${writeResultFile(report, startedAt, 'webhooks')}`);
} finally {
  await stopWorker?.();
  receiver.closeAllConnections();
  receiver.close();
  await bench.drop();
}

async function until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} was not delivered within ${timeoutMs / 1000} s`);
    await sleep(5);
  }
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
