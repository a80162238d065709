/**
 * The library's pages and forms (issue 28) as each role meets them: the list with its filters and
 * pages, folders managed from it, a video added by upload or from a link and followed until ready, and
 * its details edited and archived. Every write is checked through the API; each form refuses a post
 * without the CSRF token and a role without the right, and brings problems back beside their fields.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { csrfOf, signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

async function people(t: import('node:test').TestContext) {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const roles = {} as Record<'owner' | 'admin' | 'member' | 'viewer', Awaited<ReturnType<typeof signIn>>>;
  for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
    const person = await ws.addMember({ role, password: PASSWORD });
    roles[role] = await signIn(harness.app, person.email, PASSWORD);
  }
  return { harness, ws, ...roles };
}

test('the library lists, filters and pages videos for every role; only writers are offered the controls', async (t) => {
  const { harness, ws, owner, admin, member, viewer } = await people(t);
  const webinars = await ws.addFolder('Webinars');
  await ws.addFolder('Onboarding');
  await ws.addVideo({ title: 'Pricing <walkthrough>', folder_id: webinars, tags: ['pricing'] } as never);
  await ws.addVideo({ title: 'Welcome tour', status: 'processing', duration_seconds: null });
  await ws.addVideo({ title: 'Old launch', archived: true } as never);

  for (const person of [owner, admin, member]) {
    const page = await person.get('/app/videos');
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /<h1>Videos<\/h1>/);
    assert.match(page.body, /href="\/app\/videos\/new">New video<\/a>/);
    assert.match(page.body, /Manage folders/);
  }
  const seen = await viewer.get('/app/videos');
  assert.equal(seen.statusCode, 200);
  assert.match(seen.body, /Pricing &#60;walkthrough&#62;/, 'titles are escaped');
  assert.match(seen.body, /Welcome tour/);
  assert.doesNotMatch(seen.body, /Old launch/, 'archived videos are left out by default');
  assert.doesNotMatch(seen.body, /New video|Manage folders/);
  assert.match(seen.body, /2 videos in your library/);
  assert.match(seen.body, /<span class="status processing">Processing<\/span>/);
  assert.match(seen.body, /data-status-url="\/app\/videos\/[0-9a-f-]+\/status\.json"/, 'a processing row is followed live');
  assert.match(seen.body, /videos-upload\.js/);

  const searched = await viewer.get('/app/videos?q=pricing');
  assert.match(searched.body, /Pricing &#60;walkthrough&#62;/);
  assert.doesNotMatch(searched.body, /Welcome tour/);
  assert.match(searched.body, /1 video match these filters/);
  const inFolder = await viewer.get(`/app/videos?folder_id=${webinars}`);
  assert.match(inFolder.body, /Pricing/);
  assert.doesNotMatch(inFolder.body, /Welcome tour/);
  assert.match(inFolder.body, new RegExp(`href="/app/videos\\?folder_id=${webinars}" aria-current="true"`));
  const byStatus = await viewer.get('/app/videos?status=processing&tag=');
  assert.match(byStatus.body, /Welcome tour/);
  assert.doesNotMatch(byStatus.body, /Pricing/);
  const archived = await viewer.get('/app/videos?archived=only');
  assert.match(archived.body, /Old launch/);
  assert.match(archived.body, /<span class="badge">Archived<\/span>/);
  const none = await viewer.get('/app/videos?q=nothing-like-this');
  assert.match(none.body, /No videos match these filters/);
  const wrong = await viewer.get('/app/videos?status=sideways');
  assert.equal(wrong.statusCode, 200);
  assert.match(wrong.body, /class="alert" role="alert">The request has 1 problem: status/);

  // Pages: 25 a page, the filters kept in the next page's link.
  for (let i = 0; i < 25; i += 1) await ws.addVideo({ title: `Clip ${String(i).padStart(2, '0')}` });
  const first = await viewer.get('/app/videos?sort=title');
  const next = /href="(\/app\/videos\?sort=title&#38;cursor=[^"]+)" rel="next">Next page<\/a>/.exec(first.body);
  assert.ok(next, 'a next page link keeping the sort');
  assert.match(first.body, /Clip 00/);
  const second = await viewer.get((next[1] as string).replaceAll('&#38;', '&'));
  assert.equal(second.statusCode, 200);
  assert.match(second.body, /Welcome tour/);
  assert.doesNotMatch(second.body, /Clip 00/);
  assert.match(second.body, /First page/);
  assert.doesNotMatch(second.body, /rel="next"/);

  const api = await harness.request('GET', '/v1/videos?limit=1', { token: ws.key });
  assert.ok('poster_url' in api.body.videos[0], 'list_videos gives each video its poster (for thumbnails)');
});

test('an empty library tells a newcomer what to do, by role', async (t) => {
  const { member, viewer } = await people(t);
  const writer = await member.get('/app/videos');
  assert.match(writer.body, /Your library is empty/);
  assert.match(writer.body, /Upload a video/);
  assert.match(writer.body, /Import from a link/);
  const reader = await viewer.get('/app/videos');
  assert.match(reader.body, /Your library is empty/);
  assert.match(reader.body, /ask an owner, an admin or a member/);
  assert.doesNotMatch(reader.body, /Upload a video/);
});

test('folders are created, renamed and deleted from the library; problems come back beside the name', async (t) => {
  const { harness, ws, member, viewer } = await people(t);
  const page = await member.get('/app/videos/folders');
  assert.equal(page.statusCode, 200);
  const csrf = csrfOf(page.body);
  assert.equal((await member.post('/app/videos/folders', { name: 'Case studies' })).statusCode, 403, 'no CSRF token');

  const created = await member.post('/app/videos/folders', { csrf, name: 'Case studies' });
  assert.equal(created.statusCode, 303);
  assert.equal(created.headers.location, '/app/videos/folders?done=created');
  const listed = await harness.request('GET', '/v1/folders', { token: ws.key });
  const folder = listed.body.folders.find((f: { name: string }) => f.name === 'Case studies');
  assert.ok(folder, listed.raw);
  assert.match((await member.get('/app/videos/folders?done=created')).body, /The folder is created/);

  const clash = await member.post('/app/videos/folders', { csrf, name: 'case STUDIES' });
  assert.equal(clash.statusCode, 409);
  assert.match(clash.body, /id="new-folder-name-error"/);
  assert.match(clash.body, /value="case STUDIES"/, 'the name as typed');
  const blank = await member.post('/app/videos/folders', { csrf, name: '   ' });
  assert.equal(blank.statusCode, 400);
  assert.match(blank.body, /aria-invalid="true" aria-describedby="new-folder-name-error"/);

  await ws.addVideo({ title: 'Filed', folder_id: folder.folder_id });
  const renamed = await member.post(`/app/videos/folders/${folder.folder_id}/rename`, { csrf, name: 'Customer stories' });
  assert.equal(renamed.statusCode, 303);
  assert.equal((await harness.request('GET', `/v1/folders/${folder.folder_id}`, { token: ws.key })).body.name, 'Customer stories');
  const tooLong = await member.post(`/app/videos/folders/${folder.folder_id}/rename`, { csrf, name: 'x'.repeat(300) });
  assert.equal(tooLong.statusCode, 400);
  assert.match(tooLong.body, new RegExp(`id="rename-${folder.folder_id}-error"`));

  const library = await viewer.get('/app/videos');
  assert.match(library.body, /Customer stories/, 'the library shows the folder as a filter');
  const readOnly = await viewer.get('/app/videos/folders');
  assert.equal(readOnly.statusCode, 200);
  assert.match(readOnly.body, /Customer stories/);
  assert.doesNotMatch(readOnly.body, /Create folder|Rename|Delete/);
  const viewerCsrf = csrfOf(readOnly.body);
  const refused = await viewer.post('/app/videos/folders', { csrf: viewerCsrf, name: 'Mine' });
  assert.equal(refused.statusCode, 403);
  assert.equal((await viewer.post(`/app/videos/folders/${folder.folder_id}/delete`, { csrf: viewerCsrf })).statusCode, 403);

  const confirm = await member.get(`/app/videos/folders?delete=${folder.folder_id}`);
  assert.match(confirm.body, new RegExp(`<dialog id="delete-${folder.folder_id}" aria-labelledby="[^"]+" open>`));
  const deleted = await member.post(`/app/videos/folders/${folder.folder_id}/delete`, { csrf });
  assert.equal(deleted.statusCode, 303);
  assert.equal((await harness.request('GET', `/v1/folders/${folder.folder_id}`, { token: ws.key })).status, 404);
  const videos = await harness.request('GET', '/v1/videos?search=Filed', { token: ws.key });
  assert.equal(videos.body.videos[0].folder_id, null, 'its videos stay, unfiled');
});

test('an upload is created for the page’s script, sent to the one-time URL and followed until processing', async (t) => {
  const { harness, ws, member, viewer } = await people(t);
  const folder = await ws.addFolder('Tours');
  const page = await member.get('/app/videos/new');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<h2 id="upload-heading">Upload a file<\/h2>/);
  assert.match(page.body, /<noscript>.*needs JavaScript/s);
  assert.match(page.body, /videos-upload\.js/);
  const csrf = csrfOf(page.body);
  const json = { accept: 'application/json' };
  const fields = { csrf, title: 'Product tour', folder_id: folder, tags: 'tour, launch', file_name: 'tour.mp4', file_size: '5' };

  assert.equal((await member.post('/app/videos/uploads', { ...fields, csrf: 'nope' }, json)).statusCode, 403);
  const bad = await member.post('/app/videos/uploads', { ...fields, file_name: 'a/b.mp4', title: 'x'.repeat(201) }, json);
  assert.equal(bad.statusCode, 400);
  const problems = JSON.parse(bad.body).problems;
  assert.ok(problems.file && problems.title, bad.body);

  const created = await member.post('/app/videos/uploads', fields, json);
  assert.equal(created.statusCode, 201, created.body);
  const upload = JSON.parse(created.body);
  assert.match(upload.upload_path, /^\/uploads\//);
  assert.equal(upload.upload_headers['Content-Length'], undefined, 'the browser sets the length itself');
  const video = await harness.request('GET', `/v1/videos/${upload.video_id}`, { token: ws.key });
  assert.deepEqual(
    [video.body.title, video.body.folder_id, video.body.tags, video.body.status],
    ['Product tour', folder, ['tour', 'launch'], 'waiting_upload'],
  );
  const waiting = JSON.parse((await member.get(upload.status_url)).body);
  assert.deepEqual([waiting.status, waiting.done], ['waiting_upload', false]);

  const sent = await harness.app.inject({
    method: 'PUT',
    url: upload.upload_path,
    headers: { 'content-type': 'application/octet-stream' },
    payload: Buffer.from('12345'),
  });
  assert.equal(sent.statusCode, 200, sent.body);
  const status = JSON.parse((await viewer.get(upload.status_url)).body);
  assert.deepEqual([status.status, status.status_words, status.video_url], ['processing', 'Processing', `/app/videos/${upload.video_id}`]);

  // Without JavaScript the form posts itself: the page says what to do instead.
  const noScript = await member.post('/app/videos/uploads', { csrf, title: 'Kept', file: 'tour.mp4' });
  assert.equal(noScript.statusCode, 400);
  assert.match(noScript.body, /sending a file needs JavaScript/);
  assert.match(noScript.body, /value="Kept"/);

  const viewerPage = await viewer.get('/app/videos/new');
  assert.equal(viewerPage.statusCode, 403);
  assert.doesNotMatch(viewerPage.body, /Upload a file/);
  const refused = await viewer.post('/app/videos/uploads', { ...fields, csrf: csrfOf(viewerPage.body) }, json);
  assert.equal(refused.statusCode, 403);
  assert.equal((await viewer.get('/app/videos/00000000-0000-4000-8000-000000000000/status.json')).statusCode, 404);
});

test('an import from a link lands on its processing page; a bad link comes back beside its field', async (t) => {
  const { harness, ws, member, viewer } = await people(t);
  const csrf = csrfOf((await member.get('/app/videos/new')).body);
  assert.equal((await member.post('/app/videos/import', { source_url: 'https://media.example.com/a.mp4' })).statusCode, 403);

  const local = await member.post('/app/videos/import', { csrf, source_url: 'http://127.0.0.1/secret.mp4', title: 'Kept title' });
  assert.equal(local.statusCode, 400);
  assert.match(local.body, /id="import-url-error"/);
  assert.match(local.body, /value="http:\/\/127\.0\.0\.1\/secret\.mp4"/);
  assert.match(local.body, /value="Kept title"/);
  const garbage = await member.post('/app/videos/import', { csrf, source_url: 'not a link at all' });
  assert.equal(garbage.statusCode, 400);
  assert.match(garbage.body, /id="import-url-error">The URL is not a valid absolute URL\./);

  const imported = await member.post('/app/videos/import', {
    csrf,
    source_url: 'https://media.example.com/webinars/q3-launch.mp4',
    title: 'Q3 launch',
    tags: 'webinar',
  });
  assert.equal(imported.statusCode, 303);
  const location = imported.headers.location as string;
  const videoId = /\/app\/videos\/([0-9a-f-]+)\/processing\?done=imported/.exec(location)?.[1];
  assert.ok(videoId, location);
  const video = await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key });
  assert.deepEqual([video.body.title, video.body.tags, video.body.status], ['Q3 launch', ['webinar'], 'processing']);
  const processing = await viewer.get(location);
  assert.equal(processing.statusCode, 200);
  assert.match(processing.body, /<h1>Q3 launch<\/h1>/);
  assert.match(processing.body, /The link is accepted/);
  assert.match(processing.body, /data-status-url="\/app\/videos\/[0-9a-f-]+\/status\.json" data-follow="page"/);
  assert.match(processing.body, /<noscript><meta http-equiv="refresh" content="5"><\/noscript>/, 'without script it reloads itself');

  const viewerCsrf = csrfOf(processing.body);
  const refused = await viewer.post('/app/videos/import', { csrf: viewerCsrf, source_url: 'https://media.example.com/b.mp4' });
  assert.equal(refused.statusCode, 403);
});

test('a video’s details and lead form are edited, archived and unarchived; problems come back beside fields', async (t) => {
  const { harness, ws, member, owner, viewer } = await people(t);
  const folder = await ws.addFolder('Sales');
  const videoId = await ws.addVideo({ title: 'Demo call', duration_seconds: 90 });
  const editUrl = `/app/videos/${videoId}/edit`;
  const page = await member.get(editUrl);
  assert.equal(page.statusCode, 200, page.body);
  assert.match(page.body, /<h1>Edit video<\/h1>/);
  assert.match(page.body, /value="Demo call"/);
  assert.match(page.body, /Archive video/);
  const csrf = csrfOf(page.body);
  const form = {
    csrf,
    title: 'Demo call (2026)',
    description: 'The whole call, edited.',
    tags: 'sales, demo, sales',
    folder_id: folder,
    placement: 'at_second',
    at_second: '30',
    headline: 'Get the slides',
    button_text: '',
  };
  assert.equal((await member.post(editUrl, { ...form, csrf: '' })).statusCode, 403, 'no CSRF token');
  const saved = await member.post(editUrl, form);
  assert.equal(saved.statusCode, 303, saved.body);
  assert.equal(saved.headers.location, `${editUrl}?done=saved`);
  const video = (await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).body;
  assert.deepEqual(
    [
      video.title,
      video.description,
      video.tags,
      video.folder_id,
      video.lead_form.placement,
      video.lead_form.at_second,
      video.lead_form.headline,
    ],
    ['Demo call (2026)', 'The whole call, edited.', ['sales', 'demo'], folder, 'at_second', 30, 'Get the slides'],
  );
  const again = await member.get(`${editUrl}?done=saved`);
  assert.match(again.body, /Your changes are saved/);
  assert.match(again.body, /<option value="at_second" selected>/);

  const blank = await member.post(editUrl, { ...form, title: '', headline: 'Kept as typed' });
  assert.equal(blank.statusCode, 400);
  assert.match(
    blank.body,
    /aria-describedby="edit-title-error" aria-invalid="true"><span class="field-error" id="edit-title-error">Must not be empty\./,
  );
  assert.match(blank.body, /value="Kept as typed"/, 'values kept as sent');
  assert.match(blank.body, /The whole call, edited\./);
  const late = await member.post(editUrl, { ...form, at_second: '600' });
  assert.equal(late.statusCode, 400);
  assert.match(late.body, /id="edit-at-second-error">Must be within the video/);
  assert.match(late.body, /value="600"/);

  const off = await member.post(editUrl, { ...form, placement: '' });
  assert.equal(off.statusCode, 303);
  assert.equal((await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).body.lead_form, null);

  const archived = await member.post(`/app/videos/${videoId}/archive`, { csrf });
  assert.equal(archived.statusCode, 303);
  assert.equal(archived.headers.location, '/app/videos?done=archived');
  assert.equal((await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).body.archived, true);
  const archivedPage = await owner.get(editUrl);
  assert.match(archivedPage.body, /Unarchive video/);
  const restored = await owner.post(`/app/videos/${videoId}/unarchive`, { csrf: csrfOf(archivedPage.body) });
  assert.equal(restored.statusCode, 303);
  assert.equal((await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).body.archived, false);

  const viewerPage = await viewer.get(editUrl);
  assert.equal(viewerPage.statusCode, 403);
  assert.doesNotMatch(viewerPage.body, /Save changes/);
  const viewerCsrf = csrfOf(viewerPage.body);
  assert.equal((await viewer.post(editUrl, { ...form, csrf: viewerCsrf })).statusCode, 403);
  assert.equal((await viewer.post(`/app/videos/${videoId}/archive`, { csrf: viewerCsrf })).statusCode, 403);
  assert.equal((await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).body.archived, false);
  assert.equal((await member.get('/app/videos/00000000-0000-4000-8000-000000000000/edit')).statusCode, 404);
});

test('the day a video was added is the workspace’s day, in its time zone', async (t) => {
  const { harness, ws, viewer } = await people(t);
  // 20:00 on 3 November in UTC is already the 4th in Auckland (UTC+13 then).
  await ws.addVideo({ title: 'Evening upload', created_at: new Date('2026-11-03T20:00:00Z') } as never);
  const before = await viewer.get('/app/videos');
  assert.match(before.body, /data-label="Added">Nov 3, 2026</);
  const zoned = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { timezone: 'Pacific/Auckland' } });
  assert.equal(zoned.status, 200, zoned.raw);
  const after = await viewer.get('/app/videos');
  assert.match(after.body, /data-label="Added">Nov 4, 2026</);
});
