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
    { tag: 'alpha', total: 1, usage: { videos: 1, leads: 0 } },
    { tag: 'demo', total: 2, usage: { videos: 2, leads: 0 } },
    { tag: 'sales', total: 1, usage: { videos: 1, leads: 0 } },
    { tag: 'zeta', total: 1, usage: { videos: 1, leads: 0 } },
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
  assert.deepEqual(res.body, {
    tag: 'demo',
    new_tag: 'product-demo',
    merged: true,
    applies_to: ['videos', 'leads'],
    updated: { videos: 2, leads: 0 },
  });
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
  assert.deepEqual(nothing.body.updated, { videos: 0, leads: 0 });
});

test('rename_tag validates its input', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const same = await request('POST', '/v1/tags/rename', { token: ws.key, body: { tag: 'a', new_tag: 'a' } });
  assert.equal(same.status, 400);
  const bad = await request('POST', '/v1/tags/rename', { token: ws.key, body: { tag: 'a,b', applies_to: ['planets'] } });
  assert.deepEqual(bad.body.error.details.errors.map((e: { field: string }) => e.field).sort(), ['applies_to[0]', 'new_tag', 'tag']);
});

test('rename_tag renames and merges lead tags too, narrowed by applies_to and by the credential’s scopes', async (t) => {
  const { request, workspace, database } = await startTestApp(t);
  const ws = await workspace();
  const video = await ws.addVideo({ tags: ['webinar'] });
  const lead = await ws.addLead({ tags: ['webinar', 'vip'] });
  const both = await ws.addLead({ tags: ['webinar', 'webinar-2026'] });
  const usage = await request('GET', '/v1/tags', { token: ws.key });
  assert.deepEqual(
    usage.body.tags.find((t: { tag: string }) => t.tag === 'webinar'),
    { tag: 'webinar', total: 3, usage: { videos: 1, leads: 2 } },
  );

  const leadsOnly = await request('POST', '/v1/tags/rename', {
    token: ws.key,
    body: { tag: 'webinar', new_tag: 'webinar-2026', applies_to: ['leads'] },
  });
  assert.equal(leadsOnly.status, 200, leadsOnly.raw);
  assert.deepEqual(leadsOnly.body.updated, { leads: 2 });
  const tagsOf = async (id: string) => (await request('GET', `/v1/leads/${id}`, { token: ws.key })).body.tags;
  assert.deepEqual(await tagsOf(lead), ['webinar-2026', 'vip']);
  assert.deepEqual(await tagsOf(both), ['webinar-2026'], 'merged, not duplicated');
  assert.deepEqual((await request('GET', `/v1/videos/${video}`, { token: ws.key })).body.tags, ['webinar'], 'videos untouched');
  const events = await database.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('workspace_id', '=', ws.id)
    .where('type', '=', 'lead.updated')
    .execute();
  assert.deepEqual(
    events.map((e) => [(e.data as { lead_id: string }).lead_id, (e.data as { changed: string[] }).changed]).sort(),
    [
      [lead, ['tags']],
      [both, ['tags']],
    ].sort(),
  );

  // A credential that may write videos but not leads renames video tags only, and may not ask for leads.
  const videoWriter = await ws.mintKey({ scopes: ['videos:write', 'videos:read'] });
  const byDefault = await request('POST', '/v1/tags/rename', { token: videoWriter.key, body: { tag: 'vip', new_tag: 'VIP' } });
  assert.deepEqual([byDefault.status, byDefault.body.applies_to], [200, ['videos']]);
  assert.deepEqual(await tagsOf(lead), ['webinar-2026', 'vip']);
  const asked = await request('POST', '/v1/tags/rename', {
    token: videoWriter.key,
    body: { tag: 'vip', new_tag: 'VIP', applies_to: ['leads'] },
  });
  assert.equal(asked.status, 403, asked.raw);
  assert.equal(asked.body.error.details.required_scope, 'leads:write');
});
