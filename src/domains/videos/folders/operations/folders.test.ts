/**
 * Folders: create, list (name order, paged, with video counts), get, rename and delete (which unfiles
 * the folder's videos in the same transaction); names trimmed and unique per workspace whatever their
 * case, also under concurrent requests; another workspace's folders are not found.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { alteringSchema } from '../../../../../test/helpers/database.ts';
import * as folderOperations from '../../../../db/migrations/0010-folder-operations.ts';

test('create_folder, get_folder and list_folders: trimmed names in name order, with video counts', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const created = await request('POST', '/v1/folders', { token: ws.key, body: { name: '  Webinars ' } });
  assert.equal(created.status, 201, created.raw);
  assert.equal(created.body.name, 'Webinars');
  assert.deepEqual([created.body.video_count, created.body.archived_video_count], [0, 0]);
  assert.deepEqual(Object.keys(created.body).sort(), [
    'archived_video_count',
    'created_at',
    'folder_id',
    'name',
    'updated_at',
    'video_count',
  ]);
  const webinars = created.body.folder_id;
  for (const name of ['customer stories', 'Archive', 'Onboarding']) {
    assert.equal((await request('POST', '/v1/folders', { token: ws.key, body: { name } })).status, 201);
  }
  await ws.addVideo({ folder_id: webinars });
  await ws.addVideo({ folder_id: webinars });
  await ws.addVideo({ folder_id: webinars, archived: true });
  await ws.addVideo();

  const fetched = await request('GET', `/v1/folders/${webinars}`, { token: ws.key });
  assert.equal(fetched.status, 200, fetched.raw);
  assert.deepEqual([fetched.body.name, fetched.body.video_count, fetched.body.archived_video_count], ['Webinars', 2, 1]);
  const inList = await request('GET', `/v1/videos?folder_id=${webinars}`, { token: ws.key });
  assert.equal(inList.body.pagination.total, fetched.body.video_count, 'video_count is what list_videos shows');

  const first = await request('GET', '/v1/folders?limit=3', { token: ws.key });
  assert.equal(first.status, 200, first.raw);
  assert.deepEqual(
    first.body.folders.map((f: { name: string }) => f.name),
    ['Archive', 'customer stories', 'Onboarding'],
  );
  assert.deepEqual(first.body.pagination, { total: 4, limit: 3, has_more: true, next_cursor: first.body.pagination.next_cursor });
  const second = await request('GET', `/v1/folders?limit=3&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`, {
    token: ws.key,
  });
  assert.deepEqual(
    second.body.folders.map((f: { name: string; video_count: number }) => [f.name, f.video_count]),
    [['Webinars', 2]],
  );
  assert.equal(second.body.pagination.has_more, false);
  const wrongRoute = await request('GET', `/v1/api-keys?cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`, {
    token: ws.key,
  });
  assert.equal(wrongRoute.status, 400, 'a folders cursor is not a keys cursor');

  const other = await workspace();
  assert.equal((await request('GET', `/v1/folders/${webinars}`, { token: other.key })).status, 404);
  assert.equal((await request('GET', '/v1/folders', { token: other.key })).body.pagination.total, 0);
  const reader = await ws.mintKey({ scopes: ['videos:read'] });
  assert.equal((await request('GET', '/v1/folders', { token: reader.key })).status, 200);
  assert.equal((await request('POST', '/v1/folders', { token: reader.key, body: { name: 'Nope' } })).status, 403);
});

test('folder names: 1–100 characters, not blank, one line, unique whatever the case', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const first = await request('POST', '/v1/folders', { token: ws.key, body: { name: 'Product tours' } });
  for (const name of ['PRODUCT TOURS', ' product tours ']) {
    const clash = await request('POST', '/v1/folders', { token: ws.key, body: { name } });
    assert.equal(clash.status, 409, `${name}: ${clash.raw}`);
    assert.equal(clash.body.error.code, 'conflict');
    assert.equal(clash.body.error.details.reason, 'folder_name_taken');
    assert.equal(clash.body.error.details.folder_id, first.body.folder_id);
    assert.match(clash.body.error.message, /"Product tours"/);
  }
  for (const name of ['', '   ', 'x'.repeat(101), 'two\nlines', 'tab\there']) {
    const bad = await request('POST', '/v1/folders', { token: ws.key, body: { name } });
    assert.equal(bad.status, 400, JSON.stringify(name));
    assert.equal(bad.body.error.details.errors[0].field, 'name');
  }
  const twoLines = await request('POST', '/v1/folders', { token: ws.key, body: { name: 'two\nlines' } });
  assert.match(twoLines.body.error.details.errors[0].problem, /line breaks/, 'the refusal says what is accepted');
  assert.equal((await request('POST', '/v1/folders', { token: ws.key, body: { name: 'x'.repeat(100) } })).status, 201);
  assert.equal((await request('POST', '/v1/folders', { token: ws.key, body: { name: 'Café ☕ — Q3' } })).status, 201);
  // The same name in another workspace is another folder.
  const other = await workspace();
  assert.equal((await request('POST', '/v1/folders', { token: other.key, body: { name: 'Product tours' } })).status, 201);
});

test('concurrent create_folder with one name: exactly one succeeds, the others are 409', async (t) => {
  const { request, workspace, database } = await startTestApp(t);
  const ws = await workspace();
  const answers = await Promise.all(
    ['Launch', 'launch', 'LAUNCH', 'Launch'].map((name) => request('POST', '/v1/folders', { token: ws.key, body: { name } })),
  );
  assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409, 409, 409], answers.map((a) => a.raw).join('\n'));
  for (const answer of answers.filter((a) => a.status === 409)) assert.equal(answer.body.error.details.reason, 'folder_name_taken');
  const rows = await database.db.selectFrom('folders').select('name').where('workspace_id', '=', ws.id).execute();
  assert.equal(rows.length, 1);
});

test('update_folder renames; a case-only change of its own name is fine, another folder’s name is 409', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const tours = (await request('POST', '/v1/folders', { token: ws.key, body: { name: 'Tours' } })).body;
  await request('POST', '/v1/folders', { token: ws.key, body: { name: 'Demos' } });
  const video = await ws.addVideo({ folder_id: tours.folder_id });

  const renamed = await request('PATCH', `/v1/folders/${tours.folder_id}`, { token: ws.key, body: { name: ' Product tours ' } });
  assert.equal(renamed.status, 200, renamed.raw);
  assert.equal(renamed.body.name, 'Product tours');
  assert.equal(renamed.body.video_count, 1);
  assert.ok(renamed.body.updated_at > tours.updated_at);
  const filed = await request('GET', `/v1/videos/${video}`, { token: ws.key });
  assert.deepEqual([filed.body.folder_id, filed.body.folder_name], [tours.folder_id, 'Product tours']);

  const recased = await request('PATCH', `/v1/folders/${tours.folder_id}`, { token: ws.key, body: { name: 'PRODUCT TOURS' } });
  assert.equal(recased.status, 200, recased.raw);
  assert.equal(recased.body.name, 'PRODUCT TOURS');
  const unchanged = await request('PATCH', `/v1/folders/${tours.folder_id}`, { token: ws.key, body: { name: 'PRODUCT TOURS' } });
  assert.equal(unchanged.body.updated_at, recased.body.updated_at, 'the same name changes nothing');
  const clash = await request('PATCH', `/v1/folders/${tours.folder_id}`, { token: ws.key, body: { name: 'demos' } });
  assert.equal(clash.status, 409, clash.raw);
  assert.equal(clash.body.error.details.reason, 'folder_name_taken');

  const other = await workspace();
  const foreign = await request('PATCH', `/v1/folders/${tours.folder_id}`, { token: other.key, body: { name: 'Mine now' } });
  assert.equal(foreign.status, 404);
  assert.equal((await request('GET', `/v1/folders/${tours.folder_id}`, { token: ws.key })).body.name, 'PRODUCT TOURS');
  assert.equal((await request('PATCH', `/v1/folders/${randomUUID()}`, { token: ws.key, body: { name: 'X' } })).status, 404);
});

test('delete_folder unfiles its videos (archived ones too) in the same transaction and records no event', async (t) => {
  const { request, workspace, eventTypes } = await startTestApp(t);
  const ws = await workspace();
  const doomed = (await request('POST', '/v1/folders', { token: ws.key, body: { name: 'Old campaigns' } })).body.folder_id;
  const kept = (await request('POST', '/v1/folders', { token: ws.key, body: { name: 'Keepers' } })).body.folder_id;
  const long = new Date('2026-01-01T00:00:00Z');
  const inDoomed = [
    await ws.addVideo({ folder_id: doomed, updated_at: long }),
    await ws.addVideo({ folder_id: doomed, archived: true, updated_at: long }),
  ];
  const inKept = await ws.addVideo({ folder_id: kept, updated_at: long });

  const other = await workspace();
  assert.equal((await request('DELETE', `/v1/folders/${doomed}`, { token: other.key })).status, 404, 'not another workspace’s');

  const deleted = await request('DELETE', `/v1/folders/${doomed}`, { token: ws.key });
  assert.equal(deleted.status, 200, deleted.raw);
  assert.deepEqual(
    [deleted.body.folder_id, deleted.body.name, deleted.body.deleted, deleted.body.unfiled_videos],
    [doomed, 'Old campaigns', true, 2],
  );
  for (const id of inDoomed) {
    const video = (await request('GET', `/v1/videos/${id}`, { token: ws.key })).body;
    assert.deepEqual([video.folder_id, video.folder_name], [null, null]);
    assert.ok(Date.parse(video.updated_at) > long.getTime(), 'unfiling is a change to the video');
  }
  const keeper = (await request('GET', `/v1/videos/${inKept}`, { token: ws.key })).body;
  assert.deepEqual([keeper.folder_id, keeper.updated_at], [kept, long.toISOString()]);
  assert.equal((await request('GET', `/v1/folders/${doomed}`, { token: ws.key })).status, 404);
  assert.equal((await request('DELETE', `/v1/folders/${doomed}`, { token: ws.key })).status, 404, 'deleting again');
  assert.deepEqual(await eventTypes(ws.id), [], 'folder operations record no events');
  const refile = await request('PATCH', `/v1/videos/${inDoomed[0]}`, { token: ws.key, body: { folder_id: doomed } });
  assert.equal(refile.status, 404, 'a deleted folder cannot be filed into');
});

test('delete_folder is all or nothing: a failure after unfiling leaves every video filed', async (t) => {
  // The trigger below refuses every folder's deletion: a database of its own, not the file's shared one.
  const { request, workspace, database } = await startTestApp(t, { isolated: true });
  const ws = await workspace();
  const folder = (await request('POST', '/v1/folders', { token: ws.key, body: { name: 'Guarded' } })).body.folder_id;
  const video = await ws.addVideo({ folder_id: folder });
  // A trigger refusing the folder's deletion makes the second statement fail after the first ran.
  await sql`create function refuse_folder_delete() returns trigger language plpgsql as $$
    begin raise exception 'refused by test'; end $$`.execute(database.db);
  await sql`create trigger refuse_folder_delete before delete on folders for each row execute function refuse_folder_delete()`.execute(
    database.db,
  );
  const failed = await request('DELETE', `/v1/folders/${folder}`, { token: ws.key });
  assert.equal(failed.status, 500);
  const still = (await request('GET', `/v1/videos/${video}`, { token: ws.key })).body;
  assert.equal(still.folder_id, folder, 'the unfiling was rolled back with the failed delete');
});

test('migration 0010: folders whose names clash by case are renamed apart, the oldest keeping its name', async (t) => {
  // Takes the migration down and up again: a database of its own, not the file's shared one.
  const { workspace, database } = await startTestApp(t, { isolated: true });
  const ws = await workspace();
  const untyped = database.db as unknown as Kysely<unknown>;
  await alteringSchema(() => folderOperations.down(untyped));
  const ids = [randomUUID(), randomUUID(), randomUUID()];
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
  await database.db
    .insertInto('folders')
    .values([
      { id: ids[0] as string, workspace_id: ws.id, name: 'Webinars', created_at: at(1) },
      { id: ids[1] as string, workspace_id: ws.id, name: 'webinars', created_at: at(2) },
      { id: ids[2] as string, workspace_id: ws.id, name: 'WEBINARS', created_at: at(3) },
    ] as never)
    .execute();
  await alteringSchema(() => folderOperations.up(untyped));
  const rows = await database.db.selectFrom('folders').select(['id', 'name', 'updated_at']).where('workspace_id', '=', ws.id).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  assert.equal(byId.get(ids[0] as string)?.name, 'Webinars');
  assert.equal(byId.get(ids[1] as string)?.name, `webinars (${(ids[1] as string).slice(0, 8)})`);
  assert.equal(byId.get(ids[2] as string)?.name, `WEBINARS (${(ids[2] as string).slice(0, 8)})`);
  assert.equal(byId.get(ids[0] as string)?.updated_at.toISOString(), at(1).toISOString(), 'updated_at starts as created_at');
  await assert.rejects(
    database.db.insertInto('folders').values({ id: randomUUID(), workspace_id: ws.id, name: 'WeBiNaRs' }).execute(),
    /duplicate key|unique/,
  );
});
