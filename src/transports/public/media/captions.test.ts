/**
 * GET /media/{video_id}/captions.vtt: a public video's transcript as WebVTT, readable from any origin,
 * revalidated by ETag (a new transcript, a new tag), and a plain 404 for a video without one, not
 * served (archived, processing), unknown or malformed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../test/helpers/app.ts';

async function setCaptions(harness: TestApp, ws: TestWorkspace, videoId: string, text: string) {
  const res = await harness.request('PUT', `/v1/videos/${videoId}/transcript`, {
    token: ws.key,
    body: { format: 'srt', language: 'en', text },
  });
  assert.equal(res.status, 200, res.raw);
}

test('a public video’s transcript is served as WebVTT, with an ETag that changes with the transcript', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo();
  await setCaptions(
    harness,
    ws,
    videoId,
    '1\n00:00:01,500 --> 00:00:03,000\nFish & <i>chips</i>\n\n2\n00:00:03,000 --> 00:00:04,000\nA < B\n',
  );

  const res = await harness.request('GET', `/media/${videoId}/captions.vtt`);
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/vtt; charset=utf-8');
  assert.equal(res.headers['access-control-allow-origin'], '*');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers['cache-control'], 'public, no-cache');
  assert.equal(res.raw, 'WEBVTT\n\n00:00:01.500 --> 00:00:03.000\nFish &amp; chips\n\n00:00:03.000 --> 00:00:04.000\nA &lt; B\n');
  const etag = String(res.headers.etag);
  assert.match(etag, /^"[\w-]+"$/);

  const unchanged = await harness.request('GET', `/media/${videoId}/captions.vtt`, { headers: { 'if-none-match': etag } });
  assert.equal(unchanged.status, 304);
  assert.equal(unchanged.raw, '');
  const head = await harness.request('HEAD', `/media/${videoId}/captions.vtt`);
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-type'], 'text/vtt; charset=utf-8');

  await setCaptions(harness, ws, videoId, '1\n00:00:01,000 --> 00:00:02,000\nNew words\n');
  const replaced = await harness.request('GET', `/media/${videoId}/captions.vtt`, { headers: { 'if-none-match': etag } });
  assert.equal(replaced.status, 200);
  assert.notEqual(replaced.headers.etag, etag);
  assert.match(replaced.raw, /New words/);
});

test('no transcript, not served, unknown or malformed: a plain 404', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const withoutTranscript = await ws.addVideo();
  const archived = await ws.addVideo();
  const processing = await ws.addVideo({ status: 'processing' });
  for (const videoId of [archived, processing]) await setCaptions(harness, ws, videoId, '1\n00:00:01,000 --> 00:00:02,000\nHidden\n');
  await harness.request('PATCH', `/v1/videos/${archived}`, { token: ws.key, body: { archived: true } });

  for (const id of [withoutTranscript, archived, processing, '6f9c2b1e-4d3a-4b8c-9e7f-1a2b3c4d5e6f', 'not-an-id']) {
    const res = await harness.request('GET', `/media/${id}/captions.vtt`);
    assert.equal(res.status, 404, id);
    assert.equal(res.body.error.code, 'not_found');
    assert.equal(res.body.error.message, 'No captions for this video.');
  }
});
