/**
 * `cuepoint start` configured for an S3-compatible store (CUEPOINT_S3_*, here s3rver in the test's
 * process): the start-up log says which store and delivery mode it uses (never the secret), an upload
 * goes to the bucket and nothing to the local media folder, the worker processes it from there, and
 * /media redirects to a presigned URL that serves it.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startS3Server } from '../helpers/s3-server.ts';
import { http, startServer, tempDir } from '../helpers/server-process.ts';

const clip = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'clip.mp4'));

test('a server configured for S3 keeps uploads in the bucket and redirects playback to it', { timeout: 300_000 }, async (t) => {
  const s3 = await startS3Server(t);
  const dataDir = tempDir(t);
  const server = await startServer(t, {
    dataDir,
    env: {
      LOG_LEVEL: 'info',
      CUEPOINT_FFMPEG: 'off',
      CUEPOINT_S3_BUCKET: s3.settings.bucket,
      CUEPOINT_S3_ENDPOINT: s3.settings.endpoint as string,
      CUEPOINT_S3_ACCESS_KEY_ID: s3.settings.credentials?.accessKeyId as string,
      CUEPOINT_S3_SECRET_ACCESS_KEY: s3.settings.credentials?.secretAccessKey as string,
      CUEPOINT_S3_FORCE_PATH_STYLE: 'true',
      CUEPOINT_S3_PREFIX: 'media/',
      CUEPOINT_MEDIA_DELIVERY: 'redirect',
      CUEPOINT_MEDIA_URL_SECONDS: '120',
    },
    readyTimeoutMs: 240_000,
  });
  const key = await server.firstKey();
  const announced = server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => line.store !== undefined);
  assert.deepEqual(
    [announced?.store, announced?.bucket, announced?.prefix, announced?.delivery, announced?.credentials],
    ['s3', s3.settings.bucket, 'media/', 'redirect', 'CUEPOINT_S3_ACCESS_KEY_ID'],
  );
  assert.match(String(announced?.msg), /\/media redirects to presigned URLs valid 120 s/);

  const created = await http(`${server.url}/v1/videos/uploads`, {
    method: 'POST',
    token: key,
    body: { file_name: 'clip.mp4', file_size: clip.length },
  });
  assert.equal(created.status, 201);
  const { video_id: videoId, upload_url: uploadUrl } = created.body as { video_id: string; upload_url: string };
  const sent = await fetch(`${server.url}${new URL(uploadUrl).pathname}`, { method: 'PUT', body: clip });
  assert.equal(sent.status, 200, await sent.text());
  const workspaceId = ((await http(`${server.url}/v1/workspace`, { token: key })).body as { workspace_id: string }).workspace_id;
  const stored = `/${s3.settings.bucket}/media/${workspaceId}/${videoId}/source`;
  assert.ok(
    s3.requests.some((r) => r.method === 'PUT' && r.path === stored),
    'the upload went to the bucket, under the prefix',
  );
  assert.equal(existsSync(join(dataDir, 'media')), false, 'nothing was written to the local media folder');

  let status = '';
  while (status !== 'ready' && status !== 'failed') {
    status = ((await http(`${server.url}/v1/videos/${videoId}`, { token: key })).body as { status: string }).status;
    if (status !== 'ready' && status !== 'failed') await sleep(50);
  }
  assert.equal(status, 'ready');
  const redirect = await fetch(`${server.url}/media/${videoId}`, { redirect: 'manual' });
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.get('cache-control'), 'private, max-age=60');
  const played = await fetch(redirect.headers.get('location') as string);
  assert.equal(played.headers.get('content-type'), 'video/mp4');
  assert.ok(Buffer.from(await played.arrayBuffer()).equals(clip));
  assert.doesNotMatch(server.stdout() + server.stderr(), /S3RVER/, 'the access key and its secret are never logged');
});
