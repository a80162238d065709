/**
 * Steps of a direct upload as a client takes them (create the upload, PUT the bytes to the URL it
 * returns, wait for processing), and a processing worker running beside a test app.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startJobWorker } from '../../src/job-queue/worker.ts';
import { videoProcessingHandler } from '../../src/workers/video-processing.ts';
import { videoRenditionHandler } from '../../src/workers/video-renditions.ts';
import { requireIsolated, type TestApp } from './app.ts';
import { testMediaLinks } from './events.ts';
import { urlOf } from './mcp-client.ts';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** Runs a processing worker until the test ends; it claims every workspace's jobs, so the app must be isolated. */
export function withProcessingWorker(
  t: TestContext,
  harness: TestApp,
  ffmpegPath: string | null = null,
  options: { renditionRetryMs?: number } = {},
) {
  requireIsolated(harness, 'The processing worker');
  const worker = startJobWorker({
    db: harness.database.db,
    handlers: [
      videoProcessingHandler({ store: harness.mediaStore, ffmpegPath, log: quiet, links: testMediaLinks }),
      ...(ffmpegPath
        ? [videoRenditionHandler({ store: harness.mediaStore, ffmpegPath, log: quiet, retryDelayMs: options.renditionRetryMs })]
        : []),
    ],
    log: quiet,
    pollMs: 20,
  });
  t.after(() => worker.stop());
}

export async function createUpload(harness: TestApp, key: string, body: Record<string, unknown>) {
  const res = await harness.request('POST', '/v1/videos/uploads', { token: key, body });
  assert.equal(res.status, 201, res.raw);
  return res.body as { video_id: string; upload_url: string; upload_headers: Record<string, string>; expires_at: string };
}

/** PUT to the upload URL on the app's real port (the path of the absolute URL it handed out). */
export async function put(harness: TestApp, uploadUrl: string, body: Buffer, headers: Record<string, string> = {}) {
  const base = await urlOf(harness.app);
  const res = await fetch(`${base}${new URL(uploadUrl).pathname}`, {
    method: 'PUT',
    body,
    headers: { 'content-type': 'application/octet-stream', ...headers },
  });
  return {
    status: res.status,
    body: (await res.json()) as { error?: { code: string; message: string } } & Record<string, unknown>,
    headers: res.headers,
  };
}

/** Polls get_video until the video reaches one of `wanted` (generous: ffmpeg on a busy machine is slow). */
export async function waitForStatus(harness: TestApp, key: string, videoId: string, wanted: string[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await harness.request('GET', `/v1/videos/${videoId}`, { token: key });
    if (wanted.includes(res.body.status)) return res.body;
    await sleep(20);
  }
  throw new Error(`video ${videoId} never reached ${wanted.join('/')}`);
}

export interface RenditionState {
  name: string;
  width: number;
  height: number;
  state: string;
  bandwidth: number | null;
  failure_reason: string | null;
}

/** The video as get_video answers it once every rendition is made or given up on (the lowest is there at `ready`). */
export async function waitForLadder(harness: TestApp, key: string, videoId: string, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const video = (await harness.request('GET', `/v1/videos/${videoId}`, { token: key })).body;
    const renditions = video.renditions as RenditionState[];
    if (renditions.every((rendition) => rendition.state === 'ready' || rendition.state === 'failed')) {
      return video as { renditions: RenditionState[]; hls_url: string | null };
    }
    if (Date.now() > deadline) throw new Error(`the ladder was not made in time: ${JSON.stringify(renditions)}`);
    await sleep(100);
  }
}
