/**
 * Bad input never produces a 500 (DESIGN §7): every operation, over REST, is sent its example input
 * with each field replaced by hostile values — wrong types, huge and odd strings, injection attempts,
 * unknown fields — and must answer with a documented 4xx (or succeed) and the standard error body.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalog } from '../src/catalog.ts';
import { ERROR_STATUS } from '../src/core/errors.ts';
import { startTestApp } from './helpers/app.ts';
import { restRequest } from './helpers/operation-request.ts';

const HOSTILE: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  ' ',
  'x'.repeat(20_000),
  '\u0000',
  '💥🎬',
  '../../etc/passwd',
  "' OR 1=1 --",
  '%',
  '2026-13-45T99:99:99Z',
  '00000000-0000-0000-0000-000000000000',
  [],
  [null],
  ['a', 'a'],
  {},
  { $gt: '' },
];

test('hostile values in every field of every operation give 4xx, never 5xx', async (t) => {
  const { request, workspace } = await startTestApp(t, { rateLimitOverride: 1_000_000 });
  const ws = await workspace();
  const video = await ws.addVideo({ tags: ['demo'] });
  const failures: string[] = [];
  let calls = 0;
  for (const op of catalog) {
    const example = { ...(op.example as Record<string, unknown>) };
    if ('video_id' in example) example.video_id = video;
    const fields = Object.keys((op.input as { properties: object }).properties);
    const variants: Record<string, unknown>[] = [{ ...example, unexpected_field: 1 }];
    for (const field of fields) for (const value of HOSTILE) variants.push({ ...example, [field]: value });
    for (const input of variants) {
      const req = restRequest(op, input);
      const res = await request(req.method, req.url, { token: ws.key, body: req.body });
      calls++;
      const code = res.body?.error?.code as keyof typeof ERROR_STATUS | undefined;
      const ok = res.status < 300 || (res.status < 500 && code !== undefined && ERROR_STATUS[code] === res.status);
      if (!ok) failures.push(`${op.name} ${req.method} ${req.url.slice(0, 120)} → ${res.status} ${res.raw.slice(0, 200)}`);
    }
  }
  assert.ok(calls > 500, `sent ${calls} requests`);
  assert.deepEqual(failures, []);
});

test('odd encodings in paths and query strings give 4xx, never 5xx', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const urls = [
    '/v1/videos/%E0%A4%A',
    '/v1/videos/%00',
    '/v1/videos?search=%E0%A4%A',
    '/v1/videos?limit=%00',
    '/v1/videos?tags=%2C%2C%2C',
    `/v1/videos?${'a=1&'.repeat(2000)}`,
    '/v1/videos?sort[]=x',
    '/v1/videos/../api-keys',
  ];
  for (const url of urls) {
    const res = await request('GET', url, { token: ws.key });
    assert.ok(res.status < 500, `${url} → ${res.status} ${res.raw}`);
    if (res.status >= 400) assert.ok(res.body?.error?.code, `${url} has the error body`);
  }
});
