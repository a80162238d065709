/**
 * Tags: usage counts per kind, renames that keep a tag's position, merges that do not duplicate, the
 * applies_to narrowing, and one update event per changed item.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';

test('list_tags counts every tag in use, alphabetically, paginated', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  await ws.addVideo({ tags: ['sales', 'demo'] });
  await ws.addVideo({ tags: ['demo'] });
  await ws.addVideo({ tags: ['zeta', 'alpha'] });
  const all = await request('GET', '/v1/tags', { token: ws.key });
  assert.equal(all.status, 200, all.raw);
  assert.deepEqual(all.body.tags, [
    { tag: 'alpha', total: 1, usage: { videos: 1 } },
    { tag: 'demo', total: 2, usage: { videos: 2 } },
    { tag: 'sales', total: 1, usage: { videos: 1 } },
    { tag: 'zeta', total: 1, usage: { videos: 1 } },
  ]);
  const first = await request('GET', '/v1/tags?limit=3', { token: ws.key });
  assert.equal(first.body.pagination.total, 4);
  const rest = await request('GET', `/v1/tags?limit=3&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`, { token: ws.key });
  assert.deepEqual(
    rest.body.tags.map((t: { tag: string }) => t.tag),
    ['zeta'],
  );
});

test('rename_tag renames in place, merges into an existing tag, and records events', async (t) => {
  const { request, workspace, database } = await startTestApp(t);
  const ws = await workspace();
  const a = await ws.addVideo({ tags: ['first', 'demo', 'last'] });
  const b = await ws.addVideo({ tags: ['demo', 'product-demo'] });
  const c = await ws.addVideo({ tags: ['other'] });
  const res = await request('POST', '/v1/tags/rename', { token: ws.key, body: { tag: 'demo', new_tag: 'product-demo' } });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual(res.body, { tag: 'demo', new_tag: 'product-demo', merged: true, applies_to: ['videos'], updated: { videos: 2 } });
  const tagsOf = async (id: string) => (await request('GET', `/v1/videos/${id}`, { token: ws.key })).body.tags;
  assert.deepEqual(await tagsOf(a), ['first', 'product-demo', 'last']);
  assert.deepEqual(await tagsOf(b), ['product-demo']);
  assert.deepEqual(await tagsOf(c), ['other']);
  const events = await database.db.selectFrom('events').select(['type', 'data']).where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(
    events.map((e) => [e.type, (e.data as { video_id: string }).video_id]).sort(),
    [
      ['video.updated', a],
      ['video.updated', b],
    ].sort(),
  );

  const fresh = await request('POST', '/v1/tags/rename', {
    token: ws.key,
    body: { tag: 'other', new_tag: 'brand-new', applies_to: ['videos'] },
  });
  assert.equal(fresh.body.merged, false);
  assert.equal(fresh.body.updated.videos, 1);
  const nothing = await request('POST', '/v1/tags/rename', { token: ws.key, body: { tag: 'absent', new_tag: 'x' } });
  assert.deepEqual(nothing.body.updated, { videos: 0 });
});

test('rename_tag validates its input', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const same = await request('POST', '/v1/tags/rename', { token: ws.key, body: { tag: 'a', new_tag: 'a' } });
  assert.equal(same.status, 400);
  const bad = await request('POST', '/v1/tags/rename', { token: ws.key, body: { tag: 'a,b', applies_to: ['planets'] } });
  assert.deepEqual(bad.body.error.details.errors.map((e: { field: string }) => e.field).sort(), ['applies_to[0]', 'new_tag', 'tag']);
});
