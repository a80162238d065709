import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';

test('list_videos filters by status, folder, tags and search, and sorts', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const folder = await ws.addFolder('Sales');
  const base = Date.parse('2026-01-01T00:00:00Z');
  const at = (i: number) => new Date(base + i * 60_000);
  await ws.addVideo({ title: 'Beta tour', tags: ['tour', 'product'], view_count: 10, created_at: at(1), updated_at: at(1) });
  await ws.addVideo({
    title: 'alpha pricing',
    description: 'Plans and PRICES',
    tags: ['sales'],
    folder_id: folder,
    view_count: 50,
    created_at: at(2),
    updated_at: at(2),
  });
  await ws.addVideo({ title: 'Gamma upload', status: 'processing', tags: ['tour'], created_at: at(3), updated_at: at(3) });
  await ws.addVideo({ title: 'Old archived', archived: true, tags: ['tour'], created_at: at(4), updated_at: at(4) });

  const titles = async (query: string) => {
    const res = await request('GET', `/v1/videos${query}`, { token: ws.key });
    assert.equal(res.status, 200, res.raw);
    return res.body.videos.map((v: { title: string }) => v.title);
  };
  assert.deepEqual(await titles(''), ['Gamma upload', 'alpha pricing', 'Beta tour']);
  assert.deepEqual(await titles('?sort=oldest'), ['Beta tour', 'alpha pricing', 'Gamma upload']);
  assert.deepEqual(await titles('?sort=title'), ['alpha pricing', 'Beta tour', 'Gamma upload']);
  assert.deepEqual(await titles('?sort=most_viewed'), ['alpha pricing', 'Beta tour', 'Gamma upload']);
  assert.deepEqual(await titles('?status=processing'), ['Gamma upload']);
  assert.deepEqual(await titles(`?folder_id=${folder}`), ['alpha pricing']);
  assert.deepEqual(await titles('?tags=tour,product'), ['Beta tour']);
  assert.deepEqual(await titles('?tags=tour&tags=product'), ['Beta tour']);
  assert.deepEqual(await titles('?search=prices'), ['alpha pricing']);
  assert.deepEqual(await titles('?search=PRODUCT'), ['Beta tour']);
  assert.deepEqual(await titles('?search=100%25'), []);
  assert.deepEqual(await titles('?archived=only'), ['Old archived']);
  assert.equal((await titles('?archived=include')).length, 4);

  const listed = await request('GET', '/v1/videos?sort=title&limit=1', { token: ws.key });
  assert.equal(listed.body.pagination.total, 3);
  assert.equal(listed.body.pagination.has_more, true);
  assert.equal(listed.body.videos[0].folder_name, 'Sales');
  assert.equal(listed.body.videos[0].views, 50);
});

test('get_video returns full detail with every stat present at zero', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const id = await ws.addVideo({ title: 'Fresh', file_name: 'fresh.mp4', file_size: 1234 });
  const res = await request('GET', `/v1/videos/${id}`, { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  assert.equal(res.body.video_id, id);
  assert.equal(res.body.file_size, 1234);
  assert.deepEqual(res.body.stats, {
    views: 0,
    unique_viewers: 0,
    watch_time_seconds: 0,
    average_engagement: 0,
    completions: 0,
    completion_rate: 0,
    conversions: 0,
    leads: 0,
  });
  const missing = await request('GET', '/v1/videos/00000000-0000-4000-8000-000000000000', { token: ws.key });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, 'not_found');
  const malformed = await request('GET', '/v1/videos/not-a-uuid', { token: ws.key });
  assert.equal(malformed.status, 400);
  assert.match(malformed.body.error.message, /video_id/);
});

test('update_video renames, retags, refiles, archives and unarchives, recording video.updated', async (t) => {
  const { request, workspace, database } = await startTestApp(t);
  const ws = await workspace();
  const folder = await ws.addFolder('Tours');
  const id = await ws.addVideo({ title: 'Draft', tags: ['a'] });

  const updated = await request('PATCH', `/v1/videos/${id}`, {
    token: ws.key,
    body: { title: '  Launch video ', description: 'The launch', tags: ['launch', 'launch', 'q4'], folder_id: folder, archived: true },
  });
  assert.equal(updated.status, 200, updated.raw);
  assert.equal(updated.body.title, 'Launch video');
  assert.deepEqual(updated.body.tags, ['launch', 'q4']);
  assert.equal(updated.body.folder_name, 'Tours');
  assert.equal(updated.body.archived, true);
  const hidden = await request('GET', '/v1/videos', { token: ws.key });
  assert.equal(hidden.body.videos.length, 0);

  const restored = await request('PATCH', `/v1/videos/${id}`, { token: ws.key, body: { archived: false, folder_id: null } });
  assert.equal(restored.body.archived, false);
  assert.equal(restored.body.folder_id, null);

  const unchanged = await request('PATCH', `/v1/videos/${id}`, { token: ws.key, body: { title: 'Launch video' } });
  assert.equal(unchanged.status, 200);

  const events = await database.db.selectFrom('events').selectAll().where('workspace_id', '=', ws.id).orderBy('sequence').execute();
  assert.deepEqual(
    events.map((e) => [e.type, (e.data as { changed: string[] }).changed]),
    [
      ['video.updated', ['title', 'description', 'tags', 'folder_id', 'archived']],
      ['video.updated', ['folder_id', 'archived']],
    ],
  );

  const bad = await request('PATCH', `/v1/videos/${id}`, { token: ws.key, body: { title: '', tags: 'x', status: 'ready' } });
  assert.equal(bad.status, 400);
  const fields = bad.body.error.details.errors.map((e: { field: string }) => e.field).sort();
  assert.deepEqual(fields, ['status', 'tags', 'title']);
  const otherFolder = await request('PATCH', `/v1/videos/${id}`, {
    token: ws.key,
    body: { folder_id: '00000000-0000-4000-8000-000000000000' },
  });
  assert.equal(otherFolder.status, 404);
});

test('list_videos by a folder not of the workspace is not_found, not an empty list; an empty folder of its own lists nothing', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const other = await harness.workspace();
  const theirs = await other.addFolder('Their folder');
  await other.addVideo({ title: 'Their video', folder_id: theirs });
  for (const folderId of [theirs, randomUUID()]) {
    const res = await harness.request('GET', `/v1/videos?folder_id=${folderId}`, { token: ws.key });
    assert.equal(res.status, 404, res.raw);
    assert.deepEqual([res.body.error.code, res.body.error.message], ['not_found', `No folder with id ${folderId} in this workspace.`]);
    assert.ok(!res.raw.includes('Their'));
  }
  const empty = await ws.addFolder('Empty');
  const mine = await harness.request('GET', `/v1/videos?folder_id=${empty}`, { token: ws.key });
  assert.equal(mine.status, 200, mine.raw);
  assert.deepEqual(mine.body.videos, []);
});
