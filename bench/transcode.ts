/**
 * `npm run bench -- transcode`: how fast the HLS ladder is made, on this machine, with the ffmpeg the
 * service uses (the bundled static build unless CUEPOINT_FFMPEG says otherwise).
 *
 * 1. A 60 s 1080p30 H.264/AAC source (ffmpeg's moving test pattern and a tone; made once and kept in
 *    the OS temp dir, as making it costs about a minute of CPU).
 * 2. Each rung of its ladder made by the service's own code (makeRendition), one after the other: wall
 *    time and ffmpeg's CPU time (the CPU of the children this process has waited for, from
 *    /proc/self/stat), as seconds of video per CPU second and times real time.
 * 3. A real service (`cuepoint start --role all`: API and worker; the embedded database, or a throwaway
 *    one on BENCH_DATABASE_URL): the clip is uploaded through the API, then the time from the end of the
 *    upload to the video being ready with its first rendition (`hls_url` set), and to the whole ladder.
 *
 * A test pattern is not camera footage: it is sharp-edged and moves little, so real footage at the same
 * rates costs somewhat more per second. Prints a table with the load average and writes
 * bench/results/<date>-transcode.json. Linux only (/proc). Settings: BENCH_TRANSCODE_SECONDS (default 60),
 * BENCH_TRANSCODE_WIDTH and BENCH_TRANSCODE_HEIGHT (the source's size, default 1920 × 1080; smaller
 * sources get a shorter ladder, which is how the smoke run stays cheap).
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config.ts';
import { planLadder } from '../src/media/hls-ladder.ts';
import { makeRendition } from '../src/media/hls-rendition.ts';
import { makeTestPatternClip } from '../src/media/test-pattern-clip.ts';
import { describeMachine } from './machine.ts';
import { writeResultFile } from './result-file.ts';
import { startService } from './service-process.ts';

export async function runTranscodeBenchmark(log: (line: string) => void): Promise<void> {
  const seconds = Number(process.env.BENCH_TRANSCODE_SECONDS ?? 60);
  const size = { width: Number(process.env.BENCH_TRANSCODE_WIDTH ?? 1920), height: Number(process.env.BENCH_TRANSCODE_HEIGHT ?? 1080) };
  const ffmpeg = benchFfmpeg();
  const source = await benchSource(ffmpeg, seconds, size, log);
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
  log(`\ntranscode benchmark: ${seconds} s ${size.width}x${size.height} source, ${ffmpeg}; load average before: ${load()}`);

  const rungs = [];
  for (const plan of planLadder({ ...size, hasAudio: true })) {
    const dir = mkdtempSync(join(tmpdir(), 'cuepoint-bench-rendition-'));
    try {
      const cpuBefore = childrenCpuSeconds();
      const began = performance.now();
      const made = await makeRendition(ffmpeg, source, plan, dir, { durationSeconds: seconds });
      const wall = (performance.now() - began) / 1000;
      const cpu = childrenCpuSeconds() - cpuBefore;
      rungs.push({
        rendition: plan.name,
        wall_seconds: round(wall),
        cpu_seconds: round(cpu),
        video_seconds_per_cpu_second: round(seconds / cpu),
        times_real_time: round(seconds / wall),
        average_kbps: Math.round(made.averageBandwidth / 1000),
        peak_kbps: Math.round(made.bandwidth / 1000),
        segments: made.segments.length,
        load_average: load(),
      });
      log(
        `${plan.name.padEnd(6)} ${wall.toFixed(1).padStart(6)} s wall ${cpu.toFixed(1).padStart(6)} s CPU  ` +
          `${(seconds / cpu).toFixed(2).padStart(6)} s of video per CPU s  ×${(seconds / wall).toFixed(2)} real time  ` +
          `${Math.round(made.averageBandwidth / 1000)} kb/s (peak ${Math.round(made.bandwidth / 1000)})  load ${load()}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const service = await startService({ args: ['--role', 'all'], env: { CUEPOINT_RATE_LIMIT: '100000' }, postgresUrl: benchDatabaseUrl() });
  let upload: Awaited<ReturnType<typeof uploadAndWatch>>;
  try {
    log(`service pid ${service.pid} (${service.database}): uploading the clip`);
    upload = await uploadAndWatch(service, source);
  } finally {
    await service.stop();
  }
  log(
    `upload → ready with the first rendition: ${upload.firstPlayableSeconds.toFixed(1)} s; ` +
      `→ whole ladder: ${upload.wholeLadderSeconds.toFixed(1)} s (${upload.renditions} renditions); load ${load()}`,
  );
  const file = writeResultFile(
    {
      benchmark: 'transcode',
      at: new Date().toISOString(),
      machine: describeMachine(),
      source: { seconds, ...size, bytes: statSync(source).size },
      ffmpeg,
      rungs,
      service: { database: service.database, ...upload, load_average: load() },
    },
    new Date(),
    'transcode',
  );
  log(`written to ${file}`);
}

/** Uploads the clip through the API and times, from the end of the PUT, the first playable rendition and the whole ladder. */
async function uploadAndWatch(service: { url: string; apiKey: string }, source: string) {
  const body = readFileSync(source);
  const headers = { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' };
  const created = await fetch(`${service.url}/v1/videos/uploads`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ file_name: 'bench-1080p.mp4', file_size: body.length }),
  });
  const answer = (await created.json()) as { video_id: string; upload_url: string };
  if (created.status !== 201) throw new Error(`create_video_upload answered ${created.status}: ${JSON.stringify(answer)}`);
  const put = await fetch(new URL(new URL(answer.upload_url).pathname, service.url), {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body,
  });
  if (put.status !== 200) throw new Error(`the upload answered ${put.status}: ${await put.text()}`);
  const uploaded = performance.now();
  let firstPlayable: number | undefined;
  for (const deadline = Date.now() + 30 * 60_000; Date.now() < deadline; await sleep(100)) {
    const video = (await (await fetch(`${service.url}/v1/videos/${answer.video_id}`, { headers })).json()) as {
      status: string;
      failure_reason: string | null;
      hls_url: string | null;
      renditions: { state: string }[];
    };
    if (video.status === 'failed') throw new Error(`processing failed: ${video.failure_reason}`);
    if (video.hls_url && firstPlayable === undefined) firstPlayable = performance.now();
    const finished = video.renditions.length > 0 && video.renditions.every((r) => r.state === 'ready' || r.state === 'failed');
    if (firstPlayable !== undefined && finished) {
      const failed = video.renditions.filter((r) => r.state === 'failed').length;
      if (failed > 0) throw new Error(`${failed} renditions failed`);
      return {
        firstPlayableSeconds: round((firstPlayable - uploaded) / 1000),
        wholeLadderSeconds: round((performance.now() - uploaded) / 1000),
        renditions: video.renditions.length,
      };
    }
  }
  throw new Error('the ladder was not made within 30 minutes');
}

/** The source clip, made once per length and kept in the temp dir (the next run reuses it). */
async function benchSource(
  ffmpeg: string,
  seconds: number,
  size: { width: number; height: number },
  log: (line: string) => void,
): Promise<string> {
  const path = join(tmpdir(), `cuepoint-bench-source-${size.width}x${size.height}-${seconds}s.mp4`);
  if (existsSync(path)) return path;
  log(`making the ${seconds} s ${size.width}x${size.height} source (once; kept at ${path})`);
  // A partial file of this process's own: two runs at once (two test runs' smoke checks) must not
  // write the same file; the rename makes whichever finishes last the one kept, whole either way.
  const partial = `${path}.${process.pid}.part.mp4`;
  await makeTestPatternClip(ffmpeg, partial, { ...size, seconds, preset: 'veryfast', videoBitrate: '8M' });
  renameSync(partial, path);
  return path;
}

/** The ffmpeg the service would use with this environment (CUEPOINT_FFMPEG, the bundled build, PATH). */
function benchFfmpeg(): string {
  const { ffmpegPath } = loadConfig(process.env);
  if (!ffmpegPath) throw new Error('no ffmpeg: the transcode benchmark needs the bundled build, ffmpeg on PATH or CUEPOINT_FFMPEG');
  return ffmpegPath;
}

function benchDatabaseUrl(): string | undefined {
  return process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
}

/** CPU seconds of the children this process has waited for (cutime + cstime), USER_HZ 100. */
function childrenCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
