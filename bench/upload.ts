/**
 * `npm run bench -- upload [--store local|s3]`: a 1 GiB direct upload into `PUT /uploads/{token}` of
 * a real service process (`cuepoint start --role api`), created through the API like any client
 * would (`POST /v1/videos/uploads`), with bytes generated on the fly (no file). The media store is the
 * local folder in a temp dir (`local`, the default) or an S3-compatible bucket (`s3`: s3rver started in
 * this process as the tests start it, so its work is not counted in the server's memory; the server
 * sends 5 MiB parts, two at a time). While it streams, the server's resident memory is read from /proc
 * every few milliseconds, and the kernel's own high-water mark catches any spike between two
 * readings. Prints throughput, the server's idle, baseline and peak RSS with their deltas, and its
 * peak RSS in each tenth of the upload, so a body held in memory would show as growth with the bytes
 * received; writes bench/results/<date>-upload.json (`-upload-s3.json` for S3). Linux only (/proc).
 *
 * Settings (environment): BENCH_DATABASE_URL or DATABASE_URL (the server then runs on a throwaway
 * PostgreSQL database there; default: the embedded database, so nothing has to be running),
 * BENCH_UPLOAD_BYTES (default 1 GiB), BENCH_UPLOAD_CHUNK_KIB (size of each write by the client,
 * default 64), BENCH_UPLOAD_WARMUP_BYTES (a first, smaller upload, default 64 MiB), BENCH_SAMPLE_MS
 * (default 20), BENCH_UPLOAD_RATE_MBPS (pace the client to this many MB/s, as a slower link would;
 * default: as fast as loopback allows).
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { S3Settings } from '../src/storage/s3-clients.ts';
import { createS3MediaStore } from '../src/storage/s3-media-store.ts';
import { runS3Server } from '../test/helpers/s3-server.ts';
import { describeMachine } from './machine.ts';
import { writeResultFile } from './result-file.ts';
import { cpuSeconds, type Memory, readMemory, resetPeak, type ServiceProcess, startService } from './service-process.ts';

const MIB = 1024 * 1024;
const MB = 1_000_000;
/**
 * What "flat" means. A body held in memory, even in part, grows the RSS with the bytes received, up to
 * the body's size. Streaming costs the same whatever the size: socket and file-stream buffers, chunks
 * waiting for the collector, and a one-time step the first time a process receives a large body, when
 * V8's young generation grows to its maximum under the allocation rate (about 70 MiB with Node 24's
 * defaults; ~15 MiB with --max-semi-space-size=1, which is how it was told apart from the file). So:
 * no growth from the first half of the upload to the second, and a peak within a bound far below the
 * upload's size.
 */
const GROWTH_LIMIT = 8 * MIB;
const PEAK_LIMIT = 128 * MIB;
const PATTERN_BYTES = 4 * MIB;

const numberSetting = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

const settings = () => ({
  postgresUrl: process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined,
  bytes: Math.floor(numberSetting('BENCH_UPLOAD_BYTES', 1024 * MIB)),
  chunkBytes: Math.floor(numberSetting('BENCH_UPLOAD_CHUNK_KIB', 64) * 1024),
  warmupBytes: Math.floor(numberSetting('BENCH_UPLOAD_WARMUP_BYTES', 64 * MIB)),
  sampleMs: numberSetting('BENCH_SAMPLE_MS', 20),
  rateBytesPerSecond: process.env.BENCH_UPLOAD_RATE_MBPS ? numberSetting('BENCH_UPLOAD_RATE_MBPS', 0) * MB : undefined,
});

interface Sample {
  ms: number;
  /** Bytes the client had handed to the socket. */
  sent: number;
  rss: number;
  rssAnon: number;
}

interface Transfer {
  seconds: number;
  status: number;
  body: string;
  samples: Sample[];
}

export type UploadStore = 'local' | 's3';

export async function runUploadBenchmark(log: (line: string) => void, store: UploadStore = 'local'): Promise<void> {
  const config = settings();
  if (config.chunkBytes > PATTERN_BYTES) throw new Error(`BENCH_UPLOAD_CHUNK_KIB must be at most ${PATTERN_BYTES / 1024}`);
  const startedAt = new Date();
  const loadBefore = loadavg();
  const s3 = store === 's3' ? await runS3Server() : undefined;
  const service = await startService({
    args: ['--role', 'api'],
    env: {
      CUEPOINT_RATE_LIMIT: '100000',
      CUEPOINT_MAX_UPLOAD_BYTES: String(Math.max(config.bytes, config.warmupBytes)),
      ...(s3 ? s3Environment(s3.settings) : {}),
    },
    postgresUrl: config.postgresUrl,
  }).catch(async (error: unknown) => {
    await s3?.close();
    throw error;
  });
  const storedSize = async (videoId: string): Promise<number | undefined> => {
    const key = { workspaceId: service.workspaceId, videoId, file: 'source' as const };
    if (s3) return (await createS3MediaStore(s3.settings).stat(key))?.size;
    return statSync(join(service.dataDir, 'media', key.workspaceId, key.videoId, key.file)).size;
  };
  try {
    log(`\nupload benchmark: server pid ${service.pid} (cuepoint start --role api, ${service.database})`);
    const idle = await settle(service.pid);
    log(`idle server: ${mib(idle.rss)} MiB RSS; warm-up upload of ${mib(config.warmupBytes)} MiB`);
    const warmup = await upload(service, config.warmupBytes, config);
    if (warmup.status !== 200) throw new Error(`the warm-up upload failed: ${warmup.status} ${warmup.body}`);
    const baseline = await settle(service.pid);
    const peakResettable = resetPeak(service.pid);
    const cpuBefore = cpuSeconds(service.pid);
    log(`baseline: ${mib(baseline.rss)} MiB RSS; uploading ${mib(config.bytes)} MiB…`);

    const transfer = await upload(service, config.bytes, config);
    const cpu = cpuSeconds(service.pid) - cpuBefore;
    const after = readMemory(service.pid);
    if (transfer.status !== 200)
      throw new Error(`the upload failed after ${transfer.seconds.toFixed(1)} s: ${transfer.status} ${transfer.body}`);
    const stored = await storedSize(JSON.parse(transfer.body).video_id);
    if (stored !== config.bytes) throw new Error(`stored ${stored} bytes, sent ${config.bytes}`);

    const sampledPeak = Math.max(...transfer.samples.map((s) => s.rss));
    // The kernel's high-water mark since the reset sees spikes between samples; without the reset it
    // covers the whole life of the process, so only the samples can speak for the upload.
    const peak = peakResettable ? Math.max(after.peakRss, sampledPeak) : sampledPeak;
    const peakAnon = Math.max(...transfer.samples.map((s) => s.rssAnon));
    const byTenth = tenths(transfer.samples, config.bytes);
    const growth = Math.max(...byTenth.slice(5)) - Math.max(...byTenth.slice(0, 5));
    const floor = Math.min(idle.rss, baseline.rss);
    const flat = growth <= GROWTH_LIMIT && peak - floor <= PEAK_LIMIT;
    const result = {
      benchmark: 'direct upload: throughput and server memory',
      date: startedAt.toISOString(),
      machine: describeMachine(),
      configuration: {
        route: 'PUT /uploads/{token}',
        server: `cuepoint start --role api, separate process, ${service.database}, ${
          s3 ? 'S3 media store (5 MiB parts, 2 in flight)' : 'local media store in a temp dir'
        }`,
        store: s3 ? 's3rver 3.7.1 in the benchmark process, path-style, on loopback' : 'local folder',
        client: `node:http in the benchmark process, ${config.chunkBytes / 1024} KiB writes of generated bytes`,
        upload_bytes: config.bytes,
        warmup_bytes: config.warmupBytes,
        sample_interval_ms: config.sampleMs,
        client_pace_mb_per_second: config.rateBytesPerSecond === undefined ? null : config.rateBytesPerSecond / MB,
        peak_source: peakResettable ? 'max of samples and VmHWM reset before the upload' : 'samples only (VmHWM reset not permitted)',
        load_average_before: loadBefore,
        load_average_after: loadavg(),
      },
      throughput: {
        seconds: round(transfer.seconds),
        mb_per_second: round(config.bytes / MB / transfer.seconds),
        mib_per_second: round(config.bytes / MIB / transfer.seconds),
        server_cpu_seconds: round(cpu),
      },
      memory_bytes: {
        idle_rss: idle.rss,
        warmup_peak_rss: Math.max(...warmup.samples.map((s) => s.rss)),
        baseline_rss: baseline.rss,
        peak_rss: peak,
        peak_rss_anon: peakAnon,
        delta_from_baseline: peak - baseline.rss,
        delta_from_idle: peak - idle.rss,
        growth_second_half_over_first: growth,
        rss_after: after.rss,
        samples: transfer.samples.length,
        peak_rss_by_tenth_of_upload: byTenth,
      },
      limits_bytes: { growth: GROWTH_LIMIT, peak_over_idle: PEAK_LIMIT },
      verdict: flat ? 'flat' : 'not flat',
    };
    print(log, result);
    log(`report written to ${writeResultFile(result, startedAt, s3 ? 'upload-s3' : 'upload')}`);
  } finally {
    await service.stop();
    await s3?.close();
  }
}

function s3Environment(settings: S3Settings): Record<string, string> {
  return {
    CUEPOINT_S3_BUCKET: settings.bucket,
    CUEPOINT_S3_ENDPOINT: settings.endpoint ?? '',
    CUEPOINT_S3_ACCESS_KEY_ID: settings.credentials?.accessKeyId ?? '',
    CUEPOINT_S3_SECRET_ACCESS_KEY: settings.credentials?.secretAccessKey ?? '',
    CUEPOINT_S3_FORCE_PATH_STYLE: String(settings.forcePathStyle),
  };
}

/** Creates an upload through the API and streams `bytes` generated bytes into its URL, sampling the server's memory. */
async function upload(service: ServiceProcess, bytes: number, config: ReturnType<typeof settings>): Promise<Transfer> {
  const created = await fetch(`${service.url}/v1/videos/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ file_name: 'bench.mp4', file_size: bytes, title: 'Upload benchmark' }),
  });
  const answer = (await created.json()) as { upload_url: string; upload_headers: Record<string, string> };
  if (created.status !== 201) throw new Error(`create_video_upload answered ${created.status}: ${JSON.stringify(answer)}`);
  // The URL is on PUBLIC_URL's origin; send it to the port this server listens on.
  const target = new URL(new URL(answer.upload_url).pathname, service.url);

  let sent = 0;
  const samples: Sample[] = [];
  const began = performance.now();
  const sample = () => {
    const memory: Memory = readMemory(service.pid);
    samples.push({ ms: performance.now() - began, sent, rss: memory.rss, rssAnon: memory.rssAnon });
  };
  sample();
  const sampler = setInterval(sample, config.sampleMs);
  try {
    const pattern = randomBytes(PATTERN_BYTES);
    async function* generate() {
      while (sent < bytes) {
        const size = Math.min(config.chunkBytes, bytes - sent);
        const offset = sent % (PATTERN_BYTES - config.chunkBytes + 1);
        sent += size;
        yield pattern.subarray(offset, offset + size);
        if (config.rateBytesPerSecond !== undefined) {
          const ahead = (sent / config.rateBytesPerSecond) * 1000 - (performance.now() - began);
          if (ahead > 0) await sleep(ahead);
        }
      }
    }
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(target, { method: 'PUT', headers: answer.upload_headers, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      });
      req.on('error', reject);
      // The server may answer (and close) before the body is through; the answer is what counts.
      pipeline(Readable.from(generate(), { objectMode: false }), req).catch(() => {});
    });
    const { status, body } = await response;
    const seconds = (performance.now() - began) / 1000;
    sample();
    return { seconds, status, body, samples };
  } finally {
    clearInterval(sampler);
  }
}

/** Waits for the server's RSS to stop moving (or 3 s), and answers the last reading. */
async function settle(pid: number): Promise<Memory> {
  let last = readMemory(pid);
  for (let i = 0; i < 15; i++) {
    await sleep(200);
    const now = readMemory(pid);
    if (Math.abs(now.rss - last.rss) < 256 * 1024) return now;
    last = now;
  }
  return last;
}

/** The highest RSS seen while each tenth of the bytes went out. */
function tenths(samples: Sample[], bytes: number): number[] {
  return Array.from({ length: 10 }, (_, i) => {
    const inTenth = samples.filter((s) => s.sent > (bytes * i) / 10 && s.sent <= (bytes * (i + 1)) / 10);
    return inTenth.length > 0 ? Math.max(...inTenth.map((s) => s.rss)) : 0;
  });
}

const mib = (bytes: number) => (bytes / MIB).toFixed(1);
const signed = (bytes: number) => (bytes >= 0 ? `+${mib(bytes)}` : mib(bytes));
const round = (value: number) => Math.round(value * 1000) / 1000;

function print(
  log: (line: string) => void,
  result: {
    configuration: { upload_bytes: number; warmup_bytes: number };
    throughput: { seconds: number; mb_per_second: number; mib_per_second: number; server_cpu_seconds: number };
    memory_bytes: {
      idle_rss: number;
      warmup_peak_rss: number;
      baseline_rss: number;
      peak_rss: number;
      peak_rss_anon: number;
      growth_second_half_over_first: number;
      peak_rss_by_tenth_of_upload: number[];
    };
    verdict: string;
  },
): void {
  const { configuration: c, throughput: t, memory_bytes: m } = result;
  log('');
  log(`PUT /uploads/{token}, ${mib(c.upload_bytes)} MiB`);
  log(`  throughput          ${t.mb_per_second.toFixed(1)} MB/s (${t.mib_per_second.toFixed(1)} MiB/s), ${t.seconds.toFixed(1)} s`);
  log(`  server CPU          ${t.server_cpu_seconds.toFixed(1)} s`);
  log(`  server RSS, idle    ${mib(m.idle_rss)} MiB`);
  log(`  peak in warm-up     ${mib(m.warmup_peak_rss)} MiB (${mib(c.warmup_bytes)} MiB upload)`);
  log(`  baseline            ${mib(m.baseline_rss)} MiB (after the warm-up)`);
  log(`  peak                ${mib(m.peak_rss)} MiB (anonymous part ${mib(m.peak_rss_anon)} MiB)`);
  log(`  delta               ${signed(m.peak_rss - m.baseline_rss)} MiB over baseline, ${signed(m.peak_rss - m.idle_rss)} MiB over idle`);
  log(`  peak by tenth (MiB) ${m.peak_rss_by_tenth_of_upload.map(mib).join(', ')}`);
  log(`  second half vs first: ${signed(m.growth_second_half_over_first)} MiB`);
  log(
    `  memory: ${result.verdict} (flat: at most ${signed(GROWTH_LIMIT)} MiB from the first half to the second, peak within ${mib(PEAK_LIMIT)} MiB of idle)`,
  );
  log('');
}
