/**
 * GET /media/{video_id} and its poster over real HTTP (node:http, so every Range header goes out
 * byte for byte as written): the strict Range reading, conditional requests, and every failure as
 * the documented JSON error body, never an HTML page labelled as the video.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { type TestContext, test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { urlOf } from '../../../../test/helpers/mcp-client.ts';

const SIZE = 1000;
const file = randomBytes(SIZE);
const poster = randomBytes(300);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json(): { error: { code: string; message: string; request_id: string; details?: Record<string, unknown> } };
}

function get(url: string, headers: OutgoingHttpHeaders = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body.toString('utf8')) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function servedVideo(t: TestContext) {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ media_type: 'video/mp4', has_poster: true, file_size: SIZE });
  await harness.mediaStore.write({ workspaceId: ws.id, videoId, file: 'source' }, Readable.from([file]), { exactly: SIZE });
  await harness.mediaStore.write({ workspaceId: ws.id, videoId, file: 'poster.jpg' }, Readable.from([poster]), { exactly: poster.length });
  const base = await urlOf(harness.app);
  return { harness, ws, videoId, url: `${base}/media/${videoId}`, posterUrl: `${base}/media/${videoId}/poster.jpg`, base };
}

function assertJsonError(answer: Answer, status: number, code: string) {
  assert.equal(answer.status, status);
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  const body = answer.json();
  assert.equal(body.error.code, code);
  assert.equal(body.error.request_id, answer.headers['x-request-id']);
  return body;
}

test('Range requests: the RFC forms give 206 with the right bytes; an over-long suffix is the whole file', async (t) => {
  const { url, posterUrl } = await servedVideo(t);
  const full = await get(url);
  assert.equal(full.status, 200);
  assert.equal(full.headers['content-type'], 'video/mp4');
  assert.equal(full.headers['accept-ranges'], 'bytes');
  assert.equal(full.headers['cache-control'], 'public, max-age=300');
  assert.ok(full.body.equals(file));

  const cases: [string, number, number][] = [
    ['bytes=100-199', 100, 199],
    ['bytes=990-', 990, 999],
    ['bytes=-10', 990, 999],
    ['bytes=-99999999', 0, 999],
    ['bytes=0-99999999999999999999999', 0, 999],
    ['Bytes=0-4', 0, 4],
    ['bytes=0-4,', 0, 4],
  ];
  for (const [range, start, end] of cases) {
    const answer = await get(url, { range });
    assert.equal(answer.status, 206, range);
    assert.equal(answer.headers['content-range'], `bytes ${start}-${end}/${SIZE}`, range);
    assert.equal(answer.headers['content-length'], String(end - start + 1), range);
    assert.equal(answer.headers['content-type'], 'video/mp4', range);
    assert.ok(answer.body.equals(file.subarray(start, end + 1)), range);
  }

  const head = await get(url, { range: 'bytes=-99999999' }, 'HEAD');
  assert.equal(head.status, 206);
  assert.equal(head.headers['content-range'], `bytes 0-999/${SIZE}`);
  assert.equal(head.body.length, 0);

  const posterTail = await get(posterUrl, { range: 'bytes=-99999999' });
  assert.equal(posterTail.status, 206);
  assert.equal(posterTail.headers['content-type'], 'image/jpeg');
  assert.equal(posterTail.headers['content-range'], `bytes 0-299/${poster.length}`);
  assert.ok(posterTail.body.equals(poster));
});

test('loose Range forms, other units and several ranges are ignored: 200 with the whole file', async (t) => {
  const { url, posterUrl } = await servedVideo(t);
  const ignored = [
    'bytes=-1-5',
    'bytes=0.5-1.5',
    'bytes=0x10-0x20',
    'bytes=1e2-',
    'bytes=+5-10',
    'bytes=--5',
    'bytes=5-1',
    'bytes= 0-5',
    'bytes =0-5',
    'bytes=0 -5',
    'bytes=\t0-5',
    'bytes=',
    '0-5',
    'items=0-5',
    'bytes=0-1,5-6',
    'bytes=0-1, 3-4',
    'bytes=0-0,0-0,0-0',
  ];
  for (const range of ignored) {
    const answer = await get(url, { range });
    assert.equal(answer.status, 200, range);
    assert.equal(answer.headers['content-range'], undefined, range);
    assert.ok(answer.body.equals(file), range);
  }
  // Two Range header lines reach the server joined into one list: several ranges, so ignored too.
  const twice = await get(url, { Range: ['bytes=0-1', 'bytes=2-3'] });
  assert.equal(twice.status, 200);
  assert.ok(twice.body.equals(file));
  const posterLoose = await get(posterUrl, { range: 'bytes=-1-5' });
  assert.equal(posterLoose.status, 200);
  assert.ok(posterLoose.body.equals(poster));
});

test('a range outside the file is 416 with Content-Range and the JSON error body', async (t) => {
  const { url, posterUrl } = await servedVideo(t);
  for (const range of ['bytes=1000-', 'bytes=5000-6000', 'bytes=-0', 'bytes=99999999999999999999-']) {
    const answer = await get(url, { range });
    const body = assertJsonError(answer, 416, 'range_not_satisfiable');
    assert.equal(answer.headers['content-range'], `bytes */${SIZE}`, range);
    assert.notEqual(answer.headers['cache-control'], 'public, max-age=300', 'errors are not cached as the file');
    assert.match(body.error.message, /1000 bytes/);
    assert.deepEqual(body.error.details, { size: SIZE });
  }
  const posterAnswer = await get(posterUrl, { range: 'bytes=300-' });
  assertJsonError(posterAnswer, 416, 'range_not_satisfiable');
  assert.equal(posterAnswer.headers['content-range'], `bytes */${poster.length}`);
});

test('conditional requests: 304 for a current ETag, If-Range that no longer matches serves the whole file, 412 as JSON', async (t) => {
  const { url } = await servedVideo(t);
  const first = await get(url);
  const etag = String(first.headers.etag);
  assert.ok(etag.length > 2);
  assert.ok(first.headers['last-modified']);

  const notModified = await get(url, { 'if-none-match': etag });
  assert.equal(notModified.status, 304);
  assert.equal(notModified.body.length, 0);

  const current = await get(url, { 'if-range': etag, range: 'bytes=0-9' });
  assert.equal(current.status, 206);
  assert.ok(current.body.equals(file.subarray(0, 10)));
  const stale = await get(url, { 'if-range': '"an-older-version"', range: 'bytes=0-9' });
  assert.equal(stale.status, 200);
  assert.ok(stale.body.equals(file));
  // If-Range comes before Range (RFC 9110 §13.2.2): a stale one makes even a range outside the file a 200.
  const staleOutside = await get(url, { 'if-range': '"an-older-version"', range: 'bytes=5000-' });
  assert.equal(staleOutside.status, 200);

  const changed = await get(url, { 'if-match': '"an-older-version"' });
  assertJsonError(changed, 412, 'precondition_failed');
});

test('every /media and poster failure is the JSON error body with application/json', async (t) => {
  const { harness, ws, videoId, base } = await servedVideo(t);
  assertJsonError(await get(`${base}/media/00000000-0000-4000-8000-000000000000`), 404, 'not_found');
  assertJsonError(await get(`${base}/media/not-a-uuid`), 404, 'not_found');
  assertJsonError(await get(`${base}/media/${videoId}/other.jpg`), 404, 'not_found');

  // Ready in the database but no file on disk (as the demo library's videos are): JSON, not send's HTML.
  const noFile = await ws.addVideo({ media_type: 'video/mp4', has_poster: true });
  const missing = await get(`${base}/media/${noFile}`, { range: 'bytes=0-9' });
  assert.equal(assertJsonError(missing, 404, 'not_found').error.message, 'No such video.');
  const missingPoster = await get(`${base}/media/${noFile}/poster.jpg`);
  assert.equal(assertJsonError(missingPoster, 404, 'not_found').error.message, 'No such poster.');
  const noType = await ws.addVideo({ media_type: null });
  assertJsonError(await get(`${base}/media/${noType}`), 404, 'not_found');

  const withoutPoster = await ws.addVideo({ media_type: 'video/mp4', has_poster: false });
  assertJsonError(await get(`${base}/media/${withoutPoster}/poster.jpg`), 404, 'not_found');

  await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { archived: true } });
  assertJsonError(await get(`${base}/media/${videoId}`, { range: 'bytes=0-9' }), 404, 'not_found');
  assertJsonError(await get(`${base}/media/${videoId}/poster.jpg`), 404, 'not_found');
});
