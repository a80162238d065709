/**
 * Cursor pagination: defaults and bounds, exact totals, cursors bound to route and filters and
 * tamper-proof, and a full walk that returns every item exactly once while new items arrive.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../test/helpers/app.ts';

test('limit defaults to 50 and is bounded to 1–100', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  for (let i = 0; i < 60; i++) await ws.addVideo({ title: `Video ${i}` });
  const first = await request('GET', '/v1/videos', { token: ws.key });
  assert.equal(first.body.videos.length, 50);
  assert.deepEqual(
    { ...first.body.pagination, next_cursor: typeof first.body.pagination.next_cursor },
    { total: 60, limit: 50, has_more: true, next_cursor: 'string' },
  );
  const second = await request('GET', `/v1/videos?cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`, { token: ws.key });
  assert.equal(second.body.videos.length, 10);
  assert.equal(second.body.pagination.has_more, false);
  assert.equal(second.body.pagination.next_cursor, null);
  for (const limit of ['0', '101', '1e9', 'ten']) {
    assert.equal((await request('GET', `/v1/videos?limit=${limit}`, { token: ws.key })).status, 400, limit);
  }
});

test('walking every page returns each item exactly once while items are inserted, for every sort', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const base = Date.parse('2026-03-01T00:00:00Z');
  const initial = new Set<string>();
  for (let i = 0; i < 45; i++) {
    // Equal timestamps and view counts in pairs, so ties are broken by id.
    const at = new Date(base + Math.floor(i / 2) * 1000);
    initial.add(await ws.addVideo({ title: `Clip ${String(i % 7)}`, view_count: i % 5, created_at: at, updated_at: at }));
  }
  for (const sort of ['newest', 'oldest', 'most_viewed', 'title']) {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `/v1/videos?sort=${sort}&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await request('GET', query, { token: ws.key });
      assert.equal(res.status, 200, res.raw);
      seen.push(...res.body.videos.map((v: { video_id: string }) => v.video_id));
      cursor = res.body.pagination.next_cursor;
      // New videos keep arriving mid-walk: newest-first puts them before the cursor, the others after.
      await ws.addVideo({ title: `Late ${sort} ${pages}`, created_at: new Date(base + 3_600_000 + pages), updated_at: new Date() });
      pages++;
    } while (cursor && pages < 50);
    assert.equal(new Set(seen).size, seen.length, `${sort}: no duplicates`);
    for (const id of initial) assert.ok(seen.includes(id), `${sort}: every original item appears`);
  }
});

test('a cursor only works for its own route and filters, and cannot be forged', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  for (let i = 0; i < 3; i++) await ws.addVideo({ title: `V${i}`, tags: ['x'] });
  const page = await request('GET', '/v1/videos?tags=x&limit=1', { token: ws.key });
  const cursor = encodeURIComponent(page.body.pagination.next_cursor);
  assert.equal((await request('GET', `/v1/videos?tags=x&limit=1&cursor=${cursor}`, { token: ws.key })).status, 200);
  assert.equal((await request('GET', `/v1/videos?tags=x&limit=5&cursor=${cursor}`, { token: ws.key })).status, 200, 'page size may change');
  for (const url of [
    `/v1/videos?tags=y&limit=1&cursor=${cursor}`,
    `/v1/videos?limit=1&cursor=${cursor}`,
    `/v1/api-keys?cursor=${cursor}`,
    `/v1/tags?cursor=${cursor}`,
  ]) {
    const res = await request('GET', url, { token: ws.key });
    assert.equal(res.status, 400, url);
    assert.match(res.body.error.message, /cursor/);
  }
  const [payload, signature] = String(page.body.pagination.next_cursor).split('.');
  const forged = Buffer.from(
    JSON.stringify({ o: 'list_videos', f: 'x', k: ['2030-01-01T00:00:00.000Z', '00000000-0000-4000-8000-000000000000'] }),
  ).toString('base64url');
  for (const bad of [`${forged}.${signature}`, `${payload}.AAAA`, 'garbage', `${payload}.${signature}.x`]) {
    const res = await request('GET', `/v1/videos?tags=x&cursor=${encodeURIComponent(bad)}`, { token: ws.key });
    assert.equal(res.status, 400, bad);
  }
});
