/**
 * The channel area (issue 28): every role reads /app/channel with its preview of the public page;
 * a member saves the heading, features an item, puts videos and routes on the grid, hides, shows and
 * moves them, each checked through get_channel; problems come back beside their fields; a viewer is
 * offered no form and the server refuses their posts; the public page may be framed by ourselves.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { csrfOf, signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

test('every role reads the channel page with its preview; only writers are offered the forms', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const video = await ws.addVideo({ title: 'Product tour' });
  await harness.request('PUT', `/v1/channel/items/${video}`, { token: ws.key, body: { kind: 'video', visible: true } });
  const channel = (await harness.request('GET', '/v1/channel', { token: ws.key })).body;
  for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
    const member = await ws.addMember({ role, password: PASSWORD });
    const page = await (await signIn(harness.app, member.email, PASSWORD)).get('/app/channel');
    assert.equal(page.statusCode, 200, `${role}: ${page.body.slice(0, 300)}`);
    assert.match(
      page.body,
      new RegExp(`<iframe class="channel-preview" src="/c/${channel.slug}" title="Preview of your public channel page"`),
    );
    assert.match(page.body, /<th scope="row"><a href="[^"]+">Product tour<\/a>/);
    assert.match(String(page.headers['content-security-policy']), /frame-src 'self'/);
    const writes = role !== 'viewer';
    assert.equal(/Save heading/.test(page.body), writes, `${role}: heading form offered?`);
    assert.equal(/aria-label="Hide Product tour"/.test(page.body), writes, `${role}: Hide offered?`);
  }
  // The preview frames our own public page: its policy lets our own origin frame it.
  const publicPage = await harness.request('GET', `/c/${channel.slug}`);
  assert.equal(publicPage.status, 200);
  assert.match(String(publicPage.headers['content-security-policy']), /frame-ancestors 'self'/);
  assert.equal(publicPage.headers['x-frame-options'], undefined);
});

test('a member edits the heading, the featured item and the grid from the forms', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const tour = await ws.addVideo({ title: 'Product tour' });
  const pricing = await ws.addVideo({ title: 'Pricing explained' });
  const route = await ws.addRoute({ name: 'Which plan fits you?', status: 'live', videoIds: [tour] });
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const person = await signIn(harness.app, member.email, PASSWORD);
  const page = await person.get('/app/channel');
  assert.match(page.body, /The page is not public yet/);
  const csrf = csrfOf(page.body);
  const api = async () => (await harness.request('GET', '/v1/channel', { token: ws.key })).body;

  assert.equal((await person.post('/app/channel/heading', { headline: 'No token' })).statusCode, 403);
  const heading = await person.post('/app/channel/heading', { csrf, headline: 'Videos from Acme', dek: 'Short films about our product.' });
  assert.equal(heading.statusCode, 303);
  assert.equal(heading.headers.location, '/app/channel?done=heading');
  let channel = await api();
  assert.equal(channel.headline, 'Videos from Acme');
  assert.equal(channel.dek, 'Short films about our product.');
  assert.equal(channel.published, true);

  for (const item of [`video:${tour}`, `video:${pricing}`, `route:${route.id}`]) {
    assert.equal((await person.post('/app/channel/items', { csrf, item, visible: 'true', done: 'added' })).statusCode, 303);
  }
  channel = await api();
  assert.deepEqual(
    channel.items.map((i: { title: string; shown: boolean }) => `${i.title}:${i.shown}`),
    ['Product tour:true', 'Pricing explained:true', 'Which plan fits you?:true'],
  );
  const filled = await person.get('/app/channel?done=added');
  assert.match(filled.body, /It is on the channel\./);
  assert.match(filled.body, /aria-label="Move Pricing explained up"/);

  assert.equal(
    (await person.post('/app/channel/items', { csrf, kind: 'video', id: pricing, visible: 'true', position: '0', done: 'moved' }))
      .statusCode,
    303,
  );
  assert.equal((await person.post('/app/channel/items', { csrf, kind: 'video', id: tour, visible: 'false' })).statusCode, 303);
  channel = await api();
  assert.deepEqual(
    channel.items.map((i: { title: string; not_shown_reason: string | null }) => `${i.title}:${i.not_shown_reason}`),
    ['Pricing explained:null', 'Product tour:hidden', 'Which plan fits you?:null'],
  );

  assert.equal((await person.post('/app/channel/featured', { csrf, featured: `route:${route.id}` })).statusCode, 303);
  assert.equal((await api()).featured.id, route.id);
  assert.equal((await person.post('/app/channel/featured', { csrf, featured: '' })).statusCode, 303);
  assert.equal((await api()).featured, null);
  // Cleared: the headline goes back to the workspace's name.
  assert.equal((await person.post('/app/channel/heading', { csrf, headline: '', dek: '' })).statusCode, 303);
  assert.equal((await api()).headline, null);
});

test('problems come back beside their fields, and a viewer’s posts are refused', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const video = await ws.addVideo({ title: 'Product tour' });
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const person = await signIn(harness.app, owner.email, PASSWORD);
  const csrf = csrfOf((await person.get('/app/channel')).body);
  const long = 'x'.repeat(121);
  const refused = await person.post('/app/channel/heading', { csrf, headline: long, dek: 'Kept dek' });
  assert.equal(refused.statusCode, 400);
  assert.match(
    refused.body,
    /<input type="text" id="channel-headline" name="headline" maxlength="120" value="x{121}" aria-invalid="true" aria-describedby="headline-error">/,
  );
  assert.match(refused.body, /<span class="field-error" id="headline-error">[^<]+<\/span>/);
  assert.match(refused.body, />Kept dek<\/textarea>/);
  assert.equal((await harness.request('GET', '/v1/channel', { token: ws.key })).body.headline, null);

  const viewer = await ws.addMember({ role: 'viewer', password: PASSWORD });
  const reader = await signIn(harness.app, viewer.email, PASSWORD);
  const readerCsrf = csrfOf((await reader.get('/app/channel')).body);
  assert.equal((await reader.post('/app/channel/heading', { csrf: readerCsrf, headline: 'Mine now' })).statusCode, 403);
  assert.equal((await reader.post('/app/channel/items', { csrf: readerCsrf, item: `video:${video}`, visible: 'true' })).statusCode, 403);
  assert.equal((await reader.post('/app/channel/featured', { csrf: readerCsrf, featured: `video:${video}` })).statusCode, 403);
  const channel = (await harness.request('GET', '/v1/channel', { token: ws.key })).body;
  assert.equal(channel.headline, null);
  assert.deepEqual(channel.items, []);
});
