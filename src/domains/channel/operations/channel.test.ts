/**
 * The channel operations over HTTP: the defaults of a new channel, the headline and intro line,
 * items put on and taken off and moved, items that are stored but not shown (archived, unready, not
 * live, hidden) with their reasons, the featured item's rules, tenancy, scopes, and the workspace's
 * slug (changed, refused while another channel holds it, old ones redirecting for a while).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { sql } from 'kysely';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../test/helpers/app.ts';
import { createWorkspace } from '../../../create-workspace.ts';
import { CHANNEL_LIMITS } from '../channel.schemas.ts';

const call = (harness: TestApp, ws: TestWorkspace, method: string, path: string, body?: unknown) =>
  harness.request(method, `/v1${path}`, { token: ws.key, body });

const setItem = (harness: TestApp, ws: TestWorkspace, id: string, body: Record<string, unknown>) =>
  call(harness, ws, 'PUT', `/channel/items/${id}`, body);

const problemFields = (res: { body: { error: { details: { errors: { field: string }[] } } } }) =>
  res.body.error.details.errors.map((error) => error.field).sort();

const grid = (body: { items: { kind: string; id: string; visible: boolean; shown: boolean; not_shown_reason: string | null }[] }) =>
  body.items.map(({ id, visible, shown, not_shown_reason }) => ({ id, visible, shown, not_shown_reason }));

test('a new channel: its address, the workspace’s name as its heading, nothing on it, no activity', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const res = await call(harness, ws, 'GET', '/channel');
  assert.equal(res.status, 200, res.raw);
  const workspace = await call(harness, ws, 'GET', '/workspace');
  assert.equal(res.body.slug, workspace.body.settings.channel_slug);
  assert.equal(res.body.url, `http://localhost:3000/c/${res.body.slug}`);
  assert.equal(res.body.markdown_url, `http://localhost:3000/c/${res.body.slug}.md`);
  assert.deepEqual(
    [res.body.headline, res.body.dek, res.body.title, res.body.featured, res.body.items, res.body.showing, res.body.updated_at],
    [null, null, workspace.body.name, null, [], [], null],
  );
  assert.equal(res.body.published, false, 'not public until it is set up');
  assert.deepEqual(res.body.activity, { days: 30, views: 0, visitors: 0, opens: 0 });
});

test('update_channel: trims, keeps HTML as text, refuses what is too long or invisible, each problem named, null resets', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const set = await call(harness, ws, 'PATCH', '/channel', { headline: '  <b>Ship</b> faster  ', dek: ' Demos & stories ' });
  assert.equal(set.status, 200, set.raw);
  assert.deepEqual([set.body.headline, set.body.title, set.body.dek], ['<b>Ship</b> faster', '<b>Ship</b> faster', 'Demos & stories']);
  assert.ok(set.body.updated_at);
  // Trimmed first, then judged: a line break or spaces around the text are dropped, not refused, and
  // do not count against the limit (issue 26: "\n  Spaced dek  " was refused for its line break).
  const headline = 'h'.repeat(CHANNEL_LIMITS.headline);
  const spaced = await call(harness, ws, 'PATCH', '/channel', { dek: '\n  Spaced dek  ', headline: ` ${headline}\t\r\n` });
  assert.equal(spaced.status, 200, spaced.raw);
  assert.deepEqual([spaced.body.headline, spaced.body.dek], [headline, 'Spaced dek']);

  const tooLong = await call(harness, ws, 'PATCH', '/channel', {
    headline: 'h'.repeat(CHANNEL_LIMITS.headline + 1),
    dek: 'd'.repeat(CHANNEL_LIMITS.dek + 1),
  });
  assert.equal(tooLong.status, 400, tooLong.raw);
  assert.deepEqual(problemFields(tooLong), ['dek', 'headline']);
  // Exactly the limit, counted in characters: emoji are one each.
  const atLimit = await call(harness, ws, 'PATCH', '/channel', { headline: '🎬'.repeat(CHANNEL_LIMITS.headline) });
  assert.equal(atLimit.status, 200, atLimit.raw);

  for (const headline of ['   ', 'Line\nbreak', '', '\u202Eevil']) {
    const invisible = await call(harness, ws, 'PATCH', '/channel', { headline });
    assert.deepEqual([invisible.status, problemFields(invisible)], [400, ['headline']], JSON.stringify(headline));
  }
  const unknown = await call(harness, ws, 'PATCH', '/channel', { title: 'x' });
  assert.equal(unknown.status, 400);

  const reset = await call(harness, ws, 'PATCH', '/channel', { headline: null, dek: null });
  assert.deepEqual([reset.body.headline, reset.body.dek], [null, null]);
  const workspace = await call(harness, ws, 'GET', '/workspace');
  assert.equal(reset.body.title, workspace.body.name, 'without a headline, the page is headed by the workspace’s name');
});

test('set_channel_item: on, off and moved; stored but not shown while archived, unready or not live, with the reason', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('business');
  const first = await ws.addVideo({ title: 'First', has_poster: true });
  const second = await ws.addVideo({ title: 'Second' });
  const archived = await ws.addVideo({ title: 'Archived', archived: true });
  const processing = await ws.addVideo({ title: 'Processing', status: 'processing', duration_seconds: null });
  const draft = await ws.addRoute({ name: 'Draft route' });
  const live = await ws.addRoute({ name: 'Live route', status: 'live' });

  const put = await setItem(harness, ws, first, { kind: 'video', visible: true });
  assert.equal(put.status, 200, put.raw);
  assert.deepEqual(put.body.item, {
    kind: 'video',
    id: first,
    title: 'First',
    shown: true,
    not_shown_reason: null,
    url: `http://localhost:3000/watch/${first}`,
    poster_url: `http://localhost:3000/media/${first}/poster.jpg`,
    visible: true,
    position: 0,
    duration_seconds: 60,
    steps: null,
    opens: 0,
  });
  for (const id of [second, archived, processing])
    assert.equal((await setItem(harness, ws, id, { kind: 'video', visible: true })).status, 200);
  assert.equal((await setItem(harness, ws, draft.id, { kind: 'route', visible: true })).status, 200);
  const routed = await setItem(harness, ws, live.id, { kind: 'route', visible: true, position: 0 });
  assert.equal(routed.status, 200, routed.raw);
  assert.deepEqual(
    [routed.body.item.position, routed.body.item.steps, routed.body.item.url, routed.body.item.duration_seconds],
    [0, 1, `http://localhost:3000/r/${live.id}`, null],
  );
  assert.deepEqual(grid(routed.body), [
    { id: live.id, visible: true, shown: true, not_shown_reason: null },
    { id: first, visible: true, shown: true, not_shown_reason: null },
    { id: second, visible: true, shown: true, not_shown_reason: null },
    { id: archived, visible: true, shown: false, not_shown_reason: 'archived' },
    { id: processing, visible: true, shown: false, not_shown_reason: 'not_ready' },
    { id: draft.id, visible: true, shown: false, not_shown_reason: 'not_live' },
  ]);
  assert.deepEqual(
    routed.body.items.map((item: { position: number }) => item.position),
    [0, 1, 2, 3, 4, 5],
  );
  assert.deepEqual(
    routed.body.showing.map((item: { id: string }) => item.id),
    [live.id, first, second],
  );

  // Off: listed, hidden; moved to the end (past it means last); the others close up.
  const off = await setItem(harness, ws, first, { kind: 'video', visible: false, position: 99 });
  assert.deepEqual(off.body.item, { ...off.body.item, visible: false, shown: false, not_shown_reason: 'hidden', position: 5 });
  assert.deepEqual(
    off.body.items.map((item: { id: string; position: number }) => [item.id, item.position]),
    [
      [live.id, 0],
      [second, 1],
      [archived, 2],
      [processing, 3],
      [draft.id, 4],
      [first, 5],
    ],
  );
  assert.deepEqual(
    off.body.showing.map((item: { id: string }) => item.id),
    [live.id, second],
  );
  // Setting again without a position keeps the place; the same call twice changes nothing.
  const again = await setItem(harness, ws, second, { kind: 'video', visible: true });
  const twice = await setItem(harness, ws, second, { kind: 'video', visible: true });
  assert.deepEqual([again.body.item.position, twice.body.items], [1, again.body.items]);

  // Archiving a video, or pausing a route, takes it off the page at once, with its reason.
  await call(harness, ws, 'PATCH', `/videos/${second}`, { archived: true });
  await call(harness, ws, 'PATCH', `/routes/${live.id}`, { status: 'paused' });
  const after = await call(harness, ws, 'GET', '/channel');
  assert.deepEqual(after.body.showing, []);
  assert.deepEqual(
    after.body.items.slice(0, 2).map((item: { not_shown_reason: string }) => item.not_shown_reason),
    ['not_live', 'archived'],
  );
});

test('set_channel_item: unknown ids, ids of the other kind and of another workspace are not_found; bad input names each problem', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('business');
  const other = await harness.workspace('business');
  const video = await ws.addVideo();
  const route = await ws.addRoute();
  const theirs = await other.addVideo();
  for (const [id, kind] of [
    [randomUUID(), 'video'],
    [video, 'route'],
    [route.id, 'video'],
    [theirs, 'video'],
  ] as const) {
    const res = await setItem(harness, ws, id, { kind, visible: true });
    assert.deepEqual([res.status, res.body.error.code], [404, 'not_found'], `${kind} ${id}`);
    assert.ok(res.body.error.message.includes(id));
  }
  const bad = await setItem(harness, ws, 'not-a-uuid', { kind: 'playlist', visible: 'yes', position: -1 });
  assert.equal(bad.status, 400, bad.raw);
  assert.deepEqual(problemFields(bad), ['id', 'kind', 'position', 'visible']);
  const missing = await setItem(harness, ws, video, {});
  assert.deepEqual(problemFields(missing), ['kind', 'visible']);
  const after = await call(harness, other, 'GET', '/channel');
  assert.deepEqual(after.body.items, [], 'nothing reached the other workspace');
});

test('set_channel_item: at most 200 visible items; taking one off makes room; hidden ones do not count', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('business');
  const ids = await Promise.all(Array.from({ length: CHANNEL_LIMITS.visibleItems + 1 }, () => ws.addVideo()));
  const now = new Date();
  await harness.database.db
    .insertInto('channel_items')
    .values(
      ids.slice(0, CHANNEL_LIMITS.visibleItems).map((id, position) => ({
        workspace_id: ws.id,
        kind: 'video' as const,
        item_id: id,
        visible: true,
        position,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  const last = ids.at(-1) as string;
  const full = await setItem(harness, ws, last, { kind: 'video', visible: true });
  assert.deepEqual([full.status, problemFields(full)], [400, ['visible']]);
  assert.match(full.body.error.message, /already shows 200 items/);
  assert.equal((await setItem(harness, ws, last, { kind: 'video', visible: false })).status, 200, 'a hidden item may still be added');
  assert.equal((await setItem(harness, ws, ids[0] as string, { kind: 'video', visible: true })).status, 200, 'one already visible stays');
  assert.equal((await setItem(harness, ws, ids[0] as string, { kind: 'video', visible: false })).status, 200);
  const room = await setItem(harness, ws, last, { kind: 'video', visible: true });
  assert.equal(room.status, 200, room.raw);
});

test('set_channel_featured: a video or a route, never both; null clears; unknown and foreign ids are not_found', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('business');
  const other = await harness.workspace('business');
  const video = await ws.addVideo({ title: 'Hero', has_poster: true });
  const route = await ws.addRoute({ name: 'Tour', status: 'live' });

  const featured = await call(harness, ws, 'PUT', '/channel/featured', { video_id: video });
  assert.equal(featured.status, 200, featured.raw);
  assert.deepEqual(featured.body.featured, {
    kind: 'video',
    id: video,
    title: 'Hero',
    shown: true,
    not_shown_reason: null,
    url: `http://localhost:3000/watch/${video}`,
    poster_url: `http://localhost:3000/media/${video}/poster.jpg`,
  });
  assert.deepEqual(featured.body.items, [], 'featuring does not put it in the grid');

  const byRoute = await call(harness, ws, 'PUT', '/channel/featured', { route_id: route.id, video_id: null });
  assert.deepEqual([byRoute.body.featured.kind, byRoute.body.featured.id, byRoute.body.featured.shown], ['route', route.id, true]);

  const both = await call(harness, ws, 'PUT', '/channel/featured', { video_id: video, route_id: route.id });
  assert.deepEqual([both.status, problemFields(both)], [400, ['route_id', 'video_id']]);
  const neither = await call(harness, ws, 'PUT', '/channel/featured', {});
  assert.equal(neither.status, 400, neither.raw);
  assert.match(neither.body.error.message, /give video_id or route_id/);
  for (const body of [
    { video_id: randomUUID() },
    { route_id: randomUUID() },
    { video_id: await other.addVideo() },
    { video_id: route.id },
  ]) {
    const res = await call(harness, ws, 'PUT', '/channel/featured', body);
    assert.deepEqual([res.status, res.body.error?.code], [404, 'not_found'], JSON.stringify(body));
  }
  assert.equal((await call(harness, ws, 'GET', '/channel')).body.featured.id, route.id, 'a refused call changed nothing');

  // An archived video may be featured: kept, and reported as not shown.
  await call(harness, ws, 'PATCH', `/videos/${video}`, { archived: true });
  const archived = await call(harness, ws, 'PUT', '/channel/featured', { video_id: video });
  assert.deepEqual(
    [archived.status, archived.body.featured.shown, archived.body.featured.not_shown_reason, archived.body.featured.poster_url],
    [200, false, 'archived', null],
  );

  const cleared = await call(harness, ws, 'PUT', '/channel/featured', { video_id: null });
  assert.deepEqual([cleared.status, cleared.body.featured], [200, null]);
});

test('routes on a plan without routes are kept but not shown; the channel itself needs no entitlement', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('business');
  const route = await ws.addRoute({ status: 'live' });
  await setItem(harness, ws, route.id, { kind: 'route', visible: true });
  await harness.database.db.updateTable('workspaces').set({ plan: 'free' }).where('id', '=', ws.id).execute();
  const res = await call(harness, ws, 'GET', '/channel');
  assert.deepEqual([res.body.items[0].shown, res.body.items[0].not_shown_reason], [false, 'plan_without_routes']);
  const video = await ws.addVideo();
  assert.equal((await setItem(harness, ws, video, { kind: 'video', visible: true })).status, 200);
});

test('scopes: reading needs workspace:read, changing needs channel:write', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const reader = await ws.mintKey({ scopes: ['workspace:read'] });
  assert.equal((await harness.request('GET', '/v1/channel', { token: reader.key })).status, 200);
  const denied = await harness.request('PATCH', '/v1/channel', { token: reader.key, body: { headline: 'x' } });
  assert.deepEqual([denied.status, denied.body.error.details.required_scope], [403, 'channel:write']);
});

test('the slug: changed through update_workspace, lowercase, unique; an old one redirects and stays reserved for 90 days', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const other = await harness.workspace();
  const before = (await call(harness, ws, 'GET', '/channel')).body.slug;

  await call(harness, ws, 'PATCH', '/channel', { headline: 'Acme' });
  await call(harness, other, 'PATCH', '/channel', { headline: 'Other' });
  const changed = await call(harness, ws, 'PATCH', '/workspace', { slug: 'Acme-Videos' });
  assert.equal(changed.status, 200, changed.raw);
  assert.deepEqual(
    [changed.body.settings.channel_slug, changed.body.settings.channel_url],
    ['acme-videos', 'http://localhost:3000/c/acme-videos'],
  );
  const page = await harness.request('GET', '/c/acme-videos');
  assert.equal(page.status, 200);
  const old = await harness.request('GET', `/c/${before}`);
  assert.deepEqual([old.status, old.headers.location], [301, '/c/acme-videos']);
  const cased = await harness.request('GET', '/c/ACME-videos.md');
  assert.deepEqual([cased.status, cased.headers.location], [301, '/c/acme-videos.md']);

  // Taken: by the other's current slug, or by our old one while it redirects; named with any shape problem.
  const taken = await call(harness, other, 'PATCH', '/workspace', { slug: 'acme-videos', timezone: 'Mars/Base' });
  assert.equal(taken.status, 400, taken.raw);
  assert.deepEqual(problemFields(taken), ['slug', 'timezone']);
  assert.match(taken.body.error.message, /"acme-videos" is taken by another channel/);
  const takenAlone = await call(harness, other, 'PATCH', '/workspace', { slug: before });
  assert.deepEqual([takenAlone.status, problemFields(takenAlone)], [400, ['slug']]);

  for (const slug of ['ab', '-acme', 'acme-', 'acme videos', 'ácme', 'a'.repeat(49)]) {
    const bad = await call(harness, ws, 'PATCH', '/workspace', { slug });
    assert.deepEqual([bad.status, problemFields(bad)], [400, ['slug']], slug);
  }

  // Our own old slug can be taken back at once.
  const back = await call(harness, ws, 'PATCH', '/workspace', { slug: before });
  assert.deepEqual([back.status, back.body.settings.channel_slug], [200, before]);
  assert.equal((await harness.request('GET', '/c/acme-videos')).status, 301);

  // After 90 days an old slug stops redirecting and is free for anyone.
  await harness.database.db
    .updateTable('workspace_slugs')
    .set({ replaced_at: new Date(Date.now() - 91 * 24 * 3600 * 1000) })
    .where('slug', '=', 'acme-videos')
    .execute();
  assert.equal((await harness.request('GET', '/c/acme-videos')).status, 404);
  const free = await call(harness, other, 'PATCH', '/workspace', { slug: 'acme-videos' });
  assert.deepEqual([free.status, free.body.settings.channel_slug], [200, 'acme-videos']);
  const page2 = await harness.request('GET', '/c/acme-videos');
  assert.equal(page2.status, 200);
  assert.match(page2.raw, new RegExp(`<p class="brand">${(await call(harness, other, 'GET', '/workspace')).body.name}</p>`));
});

test('a slug made from a long name stays within 48 characters, and every slug a workspace was given opens its page', async (t) => {
  const harness = await startTestApp(t);
  // Six workspaces of one long name: the first five get the name's slug and -2 … -5, the sixth a random suffix.
  const name = `${randomUUID()} and a name too long for a slug`;
  const slugs: string[] = [];
  for (let i = 0; i < 6; i++) {
    const { workspace } = await createWorkspace(harness.database.db, { name, plan: 'pro', now: new Date() });
    // Set up, so the page is published.
    await harness.database.db.insertInto('channels').values({ workspace_id: workspace.id, updated_at: new Date() }).execute();
    const row = await harness.database.db
      .selectFrom('workspace_slugs')
      .select('slug')
      .where('workspace_id', '=', workspace.id)
      .executeTakeFirstOrThrow();
    slugs.push(row.slug);
  }
  assert.equal(new Set(slugs).size, 6);
  for (const slug of slugs) {
    assert.ok(slug.length <= 48, `${slug} is ${slug.length} characters`);
    assert.equal((await harness.request('GET', `/c/${slug}`)).status, 200, slug);
  }

  // Migration 0022 gave workspaces that shared a long name their name's slug with 12 characters of their id: up to 53.
  const ws = await harness.workspace();
  await harness.database.db.insertInto('channels').values({ workspace_id: ws.id, updated_at: new Date() }).execute();
  const migrated = `${randomUUID().replaceAll('-', '').slice(0, 40)}-${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await harness.database.db.updateTable('workspace_slugs').set({ slug: migrated }).where('workspace_id', '=', ws.id).execute();
  const page = await harness.request('GET', `/c/${migrated}`);
  assert.equal(page.status, 200, `${migrated} (${migrated.length} characters)`);
  assert.equal((await harness.request('GET', `/c/${migrated.toUpperCase()}.md`)).headers.location, `/c/${migrated}.md`);
});

test('slug changes one workspace sends at once all succeed, one after another; the last is current, the others redirect', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const wanted = Array.from({ length: 6 }, (_, i) => `race-${randomUUID().slice(0, 8)}-${i}`);
  const answers = await Promise.all(wanted.map((slug) => call(harness, ws, 'PATCH', '/workspace', { slug })));
  assert.deepEqual(
    answers.map((answer) => answer.status),
    wanted.map(() => 200),
    answers.map((answer) => answer.raw).join('\n'),
  );
  const current = (await call(harness, ws, 'GET', '/channel')).body.slug;
  assert.ok(wanted.includes(current), current);
  for (const slug of wanted.filter((slug) => slug !== current)) {
    const old = await harness.request('GET', `/c/${slug}`);
    assert.deepEqual([old.status, old.headers.location], [301, `/c/${current}`], slug);
  }
});

test('a channel of 22,000 items, nearly all hidden: an item moves to the front and the page shows the visible ones', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('business');
  // More rows than one statement can bind three parameters each for (PostgreSQL's limit is 65,535).
  const count = 22_000;
  await sql`insert into videos (id, workspace_id, title, status, duration_seconds, created_at, updated_at)
    select gen_random_uuid(), ${ws.id}, 'Video ' || n, 'ready', 60, now(), now() from generate_series(1, ${count}) as n`.execute(
    harness.database.db,
  );
  await sql`insert into channel_items (workspace_id, kind, item_id, visible, position, created_at, updated_at)
    select workspace_id, 'video', id, row_number() over (order by id) <= 3, row_number() over (order by id) - 1, now(), now()
    from videos where workspace_id = ${ws.id}`.execute(harness.database.db);
  const last = await harness.database.db
    .selectFrom('channel_items')
    .select('item_id')
    .where('workspace_id', '=', ws.id)
    .where('position', '=', count - 1)
    .executeTakeFirstOrThrow();

  const moved = await setItem(harness, ws, last.item_id, { kind: 'video', visible: true, position: 0 });
  assert.equal(moved.status, 200, moved.raw.slice(0, 500));
  const positions = await harness.database.db
    .selectFrom('channel_items')
    .select(['item_id', 'position'])
    .where('workspace_id', '=', ws.id)
    .orderBy('position')
    .execute();
  assert.deepEqual(
    positions.map((row) => row.position),
    positions.map((_, index) => index),
  );
  assert.equal(positions[0]?.item_id, last.item_id);

  const slug = (await call(harness, ws, 'GET', '/workspace')).body.settings.channel_slug;
  const page = await harness.request('GET', `/c/${slug}`);
  assert.equal(page.status, 200, page.raw.slice(0, 500));
  assert.equal(page.raw.match(/<a class="card"/g)?.length, 4, 'the three visible items and the one moved');
});
