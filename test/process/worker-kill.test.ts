/**
 * DESIGN §2 and issue 4 at the process level: a worker killed mid-job (SIGKILL) leaves its job to be
 * taken up again once its lease lapses, and nothing stays `processing` forever.
 *
 * The job is a `video.import` from a loopback "public link" (CUEPOINT_ALLOW_PRIVATE_NETWORKS allows
 * it) that sends the first bytes of the file and then stalls, so the service is reliably mid-download
 * when it is killed: no timing games. The lease is CUEPOINT_JOB_LEASE_MS, short here so that a lapse
 * takes seconds. Two stories:
 * - killed once, then restarted with the link now answering in full: the job runs again and the
 *   video ends `ready`, probed;
 * - killed on every attempt: after the last one the next process reaps the job, and the video ends
 *   `failed` with the reason.
 * The in-process rules behind this (claim after a lapse, fencing, reaping) are in src/job-queue/*.test.ts.
 * Runs on PGlite always, and on PostgreSQL too when TEST_DATABASE_URL is set.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import test, { type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { VIDEO_IMPORT_ATTEMPTS } from '../../src/domains/videos/uploads/uploads.queries.ts';
import { scratchDatabase } from '../helpers/scratch-database.ts';
import { http, onCleanup, type ServerProcess, startServer, tempDir } from '../helpers/server-process.ts';

const clip = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'clip.mp4'));
const LEASE_MS = 2000;
/** What the link sends before it stalls: a real start of the file, well short of its end. */
const STALL_AFTER_BYTES = 8192;
const targets = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])] as const;

for (const target of targets) {
  test(`SIGKILL mid-job: the job runs again after its lease, and the video ends ready (${target})`, { timeout: 300_000 }, async (t) => {
    const { dataDir, env } = await serviceSetup(t, target);
    const link = await stallingLink(t);

    let server = await startServer(t, { dataDir, env });
    const token = await server.firstKey();
    const videoId = await importVideo(server, token, `${link.url}/clip.mp4`);

    await link.waitForStalledRequests(1);
    assert.equal((await getVideo(server, token, videoId)).status, 'processing');
    await killMidDownload(server, link);

    link.serveInFull = true;
    server = await startServer(t, { dataDir, env });
    const video = await waitUntilSettled(server, token, videoId);
    assert.equal(video.status, 'ready', video.failure_reason);
    assert.deepEqual([video.file_size, video.width, video.duration_seconds], [clip.length, 320, 3], 'the whole file, probed');
    assert.ok(video.playback_url, 'a ready video has a playback URL');
    assert.equal(link.requests, 2, 'the link was fetched once by the killed worker and once by its successor');
    assert.equal(link.completed, 1, 'the second fetch received the whole file');
  });

  test(`SIGKILL on every attempt: the job ends failed, with its reason (${target})`, { timeout: 480_000 }, async (t) => {
    const { dataDir, env } = await serviceSetup(t, target);
    const link = await stallingLink(t);

    let server = await startServer(t, { dataDir, env });
    const token = await server.firstKey();
    const videoId = await importVideo(server, token, `${link.url}/clip.mp4`);

    for (let attempt = 1; attempt <= VIDEO_IMPORT_ATTEMPTS; attempt++) {
      if (attempt > 1) server = await startServer(t, { dataDir, env });
      // Each process takes the job up only once the previous one's lease has lapsed.
      await link.waitForStalledRequests(attempt);
      await killMidDownload(server, link);
      t.diagnostic(`attempt ${attempt} of ${VIDEO_IMPORT_ATTEMPTS}: killed mid-download`);
    }

    server = await startServer(t, { dataDir, env });
    const video = await waitUntilSettled(server, token, videoId);
    assert.equal(video.status, 'failed');
    assert.match(video.failure_reason, new RegExp(`stopped before finishing, ${VIDEO_IMPORT_ATTEMPTS} times`));
    assert.equal(video.playback_url, null);
    assert.equal(link.requests, VIDEO_IMPORT_ATTEMPTS, 'no attempt beyond the last one was made');
  });
}

async function serviceSetup(t: TestContext, target: (typeof targets)[number]) {
  const env: Record<string, string> = {
    CUEPOINT_JOB_LEASE_MS: String(LEASE_MS),
    CUEPOINT_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
    CUEPOINT_RATE_LIMIT: '100000',
  };
  if (target === 'postgres') env.DATABASE_URL = await scratchDatabase(t, process.env.TEST_DATABASE_URL as string);
  return { dataDir: tempDir(t), env };
}

interface StallingLink {
  url: string;
  /** GETs received so far. */
  requests: number;
  /** Responses that sent the whole file. */
  completed: number;
  /** When true, the file is sent whole; otherwise its first bytes, then nothing (the socket stays open). */
  serveInFull: boolean;
  /** Resolves once `n` requests have had their first bytes flushed and are left hanging. */
  waitForStalledRequests(n: number): Promise<void>;
  /** Stalled responses whose connection is still open. */
  openStalls(): number;
}

async function stallingLink(t: TestContext): Promise<StallingLink> {
  const stalls: { response: ServerResponse; flushed: boolean }[] = [];
  const link: StallingLink = {
    url: '',
    requests: 0,
    completed: 0,
    serveInFull: false,
    async waitForStalledRequests(n) {
      await until(() => stalls.filter((s) => s.flushed).length >= n, 90_000, `${n} stalled download(s)`);
    },
    openStalls: () => stalls.filter((s) => s.flushed && !s.response.closed).length,
  };
  const server = createServer((request, response) => {
    if (request.url !== '/clip.mp4') return response.writeHead(404).end();
    link.requests++;
    response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length });
    if (link.serveInFull) {
      response.end(clip, () => link.completed++);
      return;
    }
    const stall = { response, flushed: false };
    stalls.push(stall);
    response.write(clip.subarray(0, STALL_AFTER_BYTES), () => {
      stall.flushed = true;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  link.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  onCleanup(t, () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return link;
}

async function killMidDownload(server: ServerProcess, link: StallingLink): Promise<void> {
  assert.equal(link.openStalls(), 1, 'the worker is still reading the stalled download when it is killed');
  server.kill('SIGKILL');
  const exit = await server.exited;
  assert.equal(exit.signal, 'SIGKILL');
  // The kernel closes the dead process's socket; the link notices.
  await until(() => link.openStalls() === 0, 10_000, 'the killed worker’s connection to close');
}

async function importVideo(server: ServerProcess, token: string, sourceUrl: string): Promise<string> {
  const created = await http(`${server.url}/v1/videos`, { method: 'POST', token, body: { source_url: sourceUrl } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.status, 'processing');
  return created.body.video_id as string;
}

// biome-ignore lint/suspicious/noExplicitAny: the video is checked field by field
async function getVideo(server: ServerProcess, token: string, videoId: string): Promise<any> {
  const response = await http(`${server.url}/v1/videos/${videoId}`, { token });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body;
}

// biome-ignore lint/suspicious/noExplicitAny: the video is checked field by field
async function waitUntilSettled(server: ServerProcess, token: string, videoId: string): Promise<any> {
  let video = await getVideo(server, token, videoId);
  await until(
    async () => {
      video = await getVideo(server, token, videoId);
      return video.status !== 'processing';
    },
    90_000,
    'the video to leave processing',
  );
  return video;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}
