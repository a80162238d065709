/**
 * Every surface a dependency outage can reach, asked at once against a running server: the REST
 * API (a read and a write), MCP, POST /collect, the watch and embed pages, the media file (with and
 * without Range), the poster, an upload PUT, and /ready and /health. The fault tests use it to see
 * the answer of each during an outage (status, Retry-After, how long it took) and to wait for every
 * one to recover. `prepareSurfaces` makes what they need through the API: a ready video, an open
 * upload URL and a viewing token.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { http } from './server-process.ts';

const CLIP = readFileSync(resolve(import.meta.dirname, '../fixtures/clip.mp4'));

export interface Surfaces {
  baseUrl: string;
  apiKey: string;
  videoId: string;
  /** Path of an upload URL not used yet (PUT /uploads/{token}). */
  uploadPath: string;
  viewingToken: string;
}

export interface SurfaceAnswer {
  surface: string;
  status: number;
  retryAfter: string | null;
  ms: number;
}

/** A ready video (uploaded and processed by the server's own worker), an open upload, a viewing token. */
export async function prepareSurfaces(baseUrl: string, apiKey: string): Promise<Surfaces> {
  const upload = async (title: string) => {
    const created = await http(`${baseUrl}/v1/videos/uploads`, {
      method: 'POST',
      token: apiKey,
      body: { title, file_name: 'clip.mp4', file_size: CLIP.length },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body as { video_id: string; upload_url: string };
  };
  const ready = await upload('Fault test clip');
  const put = await putUpload(`${baseUrl}${new URL(ready.upload_url).pathname}`);
  assert.equal(put.status, 200, 'the upload was accepted');
  const deadline = Date.now() + 120_000;
  for (;;) {
    const video = await http(`${baseUrl}/v1/videos/${ready.video_id}`, { token: apiKey });
    if (video.body?.status === 'ready') break;
    assert.notEqual(video.body?.status, 'failed', JSON.stringify(video.body));
    if (Date.now() > deadline) throw new Error(`the video never became ready: ${JSON.stringify(video.body)}`);
    await sleep(100);
  }
  const spare = await upload('Uploaded during an outage');
  const page = await http(`${baseUrl}/watch/${ready.video_id}`);
  assert.equal(page.status, 200);
  const viewingToken = /data-cuepoint-token="([^"]+)"/.exec(String(page.body))?.[1];
  assert.ok(viewingToken, 'the watch page carries a viewing token');
  return { baseUrl, apiKey, videoId: ready.video_id, uploadPath: new URL(spare.upload_url).pathname, viewingToken };
}

async function putUpload(url: string): Promise<{ status: number; headers: Headers }> {
  const response = await fetch(url, {
    method: 'PUT',
    body: CLIP,
    headers: { 'content-type': 'video/mp4' },
    signal: AbortSignal.timeout(60_000),
  });
  await response.arrayBuffer();
  return { status: response.status, headers: response.headers };
}

let sequence = 0;

/** One request per surface, all at once; each answer with its status, Retry-After and duration. */
export async function askEverySurface(s: Surfaces): Promise<SurfaceAnswer[]> {
  const { baseUrl, apiKey, videoId } = s;
  const timed = async (surface: string, ask: () => Promise<{ status: number; headers: Headers }>): Promise<SurfaceAnswer> => {
    const began = performance.now();
    const { status, headers } = await ask();
    return { surface, status, retryAfter: headers.get('retry-after'), ms: Math.round(performance.now() - began) };
  };
  const get = (path: string, headers: Record<string, string> = {}) => http(`${baseUrl}${path}`, { headers, timeoutMs: 60_000 });
  sequence += 1;
  return Promise.all([
    timed('GET /v1/workspace', () => http(`${baseUrl}/v1/workspace`, { token: apiKey, timeoutMs: 60_000 })),
    timed('PATCH /v1/videos/{id}', () =>
      http(`${baseUrl}/v1/videos/${videoId}`, {
        method: 'PATCH',
        token: apiKey,
        body: { title: `Renamed ${sequence}` },
        timeoutMs: 60_000,
      }),
    ),
    timed('POST /mcp tools/call', () =>
      http(`${baseUrl}/mcp`, {
        method: 'POST',
        token: apiKey,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_workspace', arguments: {} } },
        timeoutMs: 60_000,
      }),
    ),
    timed('POST /collect', () =>
      http(`${baseUrl}/collect`, {
        method: 'POST',
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) fault-test' },
        body: {
          token: s.viewingToken,
          viewer_id: 'fault-test-viewer-0001',
          sequence,
          events: [{ type: 'progress', ranges: [[0, 1]] }],
        },
        timeoutMs: 60_000,
      }),
    ),
    timed('GET /watch/{id}', () => get(`/watch/${videoId}`)),
    timed('GET /embed/{id}', () => get(`/embed/${videoId}`)),
    timed('GET /media/{id}', () => get(`/media/${videoId}`)),
    timed('GET /media/{id} Range', () => get(`/media/${videoId}`, { range: 'bytes=0-99' })),
    timed('GET /media/{id}/poster.jpg', () => get(`/media/${videoId}/poster.jpg`)),
    timed('PUT /uploads/{token}', () => putUpload(`${baseUrl}${s.uploadPath}`)),
    timed('GET /ready', () => get('/ready')),
  ]);
}

/** What each surface answers when all is well (the upload URL is spent by the first success). */
export function isHealthy(answer: SurfaceAnswer): boolean {
  if (answer.surface === 'GET /media/{id} Range') return answer.status === 206;
  if (answer.surface === 'GET /media/{id}/poster.jpg') return answer.status === 200 || answer.status === 404;
  if (answer.surface === 'PUT /uploads/{token}') return answer.status === 200 || answer.status === 409;
  return answer.status === 200;
}

/** Every surface answered 503 with a Retry-After in whole seconds. */
export function assertAllUnavailable(answers: SurfaceAnswer[]): void {
  for (const answer of answers) {
    assert.equal(answer.status, 503, `${answer.surface} during the outage: ${JSON.stringify(answers)}`);
    assert.match(answer.retryAfter ?? '', /^[1-9]\d*$/, `${answer.surface} has Retry-After`);
  }
}

/** Asks every surface until each answers as when healthy; resolves to how long that took. */
export async function waitUntilRecovered(s: Surfaces, timeoutMs = 60_000): Promise<{ ms: number; answers: SurfaceAnswer[] }> {
  const began = performance.now();
  let answers: SurfaceAnswer[] = [];
  while (performance.now() - began < timeoutMs) {
    answers = await askEverySurface(s);
    if (answers.every(isHealthy)) return { ms: Math.round(performance.now() - began), answers };
    await sleep(100);
  }
  throw new Error(`not every surface recovered within ${timeoutMs} ms: ${JSON.stringify(answers)}`);
}

export function slowest(answers: SurfaceAnswer[]): SurfaceAnswer {
  return answers.reduce((a, b) => (b.ms > a.ms ? b : a));
}
