/**
 * The public channel over real HTTP: the page shows the featured item and the visible, playable items
 * in order (nothing else), its text escaped; its meta tags and JSON-LD describe it; it revalidates by
 * ETag until anything it shows changes; unknown slugs get a friendly 404; the Markdown variants list
 * the same items; and the events endpoint records page views and opens once each, refusing what does
 * not fit, which get_channel and get_analytics_summary then report.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../test/helpers/app.ts';
import { urlOf } from '../../../../test/helpers/mcp-client.ts';
import { BROWSER, viewer } from '../../../../test/helpers/viewing.ts';

async function http(harness: TestApp, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${await urlOf(harness.app)}${path}`, {
    method,
    redirect: 'manual',
    headers: { 'user-agent': BROWSER, ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
  });
  const raw = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = undefined;
  }
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary fields of JSON bodies
  return { status: res.status, headers: res.headers, raw, body: json as any };
}

const api = (harness: TestApp, ws: TestWorkspace, method: string, path: string, body?: unknown) =>
  harness.request(method, `/v1${path}`, { token: ws.key, body });

/**
 * A channel of: a featured video not in the grid; in the grid a live route, then three videos (the
 * second without a poster), and a hidden video, an archived one and a draft route, none of them shown.
 */
async function builtChannel(harness: TestApp) {
  const ws = await harness.workspace('business');
  const created = new Date('2026-03-04T05:06:07.000Z');
  const hero = await ws.addVideo({
    title: 'Meet <Acme>',
    description: 'Who we are & what we do.',
    has_poster: true,
    duration_seconds: 95.4,
    width: 1280,
    height: 720,
    created_at: created,
  });
  const first = await ws.addVideo({ title: 'First [demo]', description: 'The first\nof many.', has_poster: true, duration_seconds: 3725 });
  const second = await ws.addVideo({ title: 'Second', duration_seconds: 42 });
  const third = await ws.addVideo({ title: 'Third', has_poster: true, duration_seconds: 5 });
  const hidden = await ws.addVideo({ title: 'Hidden one' });
  const archived = await ws.addVideo({ title: 'Archived one', archived: true });
  const route = await ws.addRoute({ name: 'Find your plan', status: 'live', videoIds: [third, second] });
  const draft = await ws.addRoute({ name: 'Draft route' });
  for (const id of [first, second, third, hidden, archived]) {
    const res = await api(harness, ws, 'PUT', `/channel/items/${id}`, { kind: 'video', visible: id !== hidden });
    assert.equal(res.status, 200, res.raw);
  }
  await api(harness, ws, 'PUT', `/channel/items/${draft.id}`, { kind: 'route', visible: true });
  await api(harness, ws, 'PUT', `/channel/items/${route.id}`, { kind: 'route', visible: true, position: 0 });
  await api(harness, ws, 'PUT', '/channel/featured', { video_id: hero });
  const channel = await api(harness, ws, 'PATCH', '/channel', {
    headline: 'Acme <script>alert(1)</script> TV',
    dek: 'Demos, stories & more',
  });
  assert.equal(channel.status, 200, channel.raw);
  return { ws, slug: channel.body.slug as string, hero, first, second, third, hidden, archived, route: route.id, draft: draft.id, created };
}

const gridIds = (html: string) =>
  [...html.matchAll(/<a class="card" href="[^"]+" data-cuepoint-item data-kind="(\w+)" data-id="([^"]+)"/g)].map((m) => m[2]);
const metaContent = (html: string, key: string) => new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)">`).exec(html)?.[1];
const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] as string) as Record<string, unknown>,
  );

test('the page: the featured player, then the visible playable items in order; text escaped; good for a phone and a screen reader', async (t) => {
  const harness = await startTestApp(t);
  const built = await builtChannel(harness);
  const res = await http(harness, 'GET', `/c/${built.slug}`);
  assert.equal(res.status, 200, res.raw);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  const html = res.raw;

  assert.deepEqual(gridIds(html), [built.route, built.first, built.second, built.third], 'visible, playable, in order; nothing else');
  for (const id of [built.hidden, built.archived, built.draft]) assert.ok(!html.includes(id), `${id} is not on the page`);
  assert.match(
    html,
    new RegExp(`<iframe src="/embed/${built.hero}" title="Video: Meet &#60;Acme&#62;"`),
    'the featured video plays in the embed player',
  );
  assert.match(
    html,
    /<h2 id="featured-title"><span class="sr">Featured: <\/span>Meet &#60;Acme&#62;<\/h2><p>Who we are &#38; what we do.<\/p>/,
  );
  assert.match(html, /<h1>Acme &#60;script&#62;alert\(1\)&#60;\/script&#62; TV<\/h1><p class="dek">Demos, stories &#38; more<\/p>/);
  assert.ok(!html.includes('<script>alert'), 'the headline is text, never HTML');

  // Cards: the title first, as a screen reader names the link; the poster lazy (a route's is its first video's),
  // the length or the steps, a plain coloured block without a poster.
  assert.match(
    html,
    new RegExp(
      `href="/r/${built.route}"[^>]*><h3>Find your plan</h3><p>[^<]+</p><span class="thumb"><img src="/media/${built.third}/poster.jpg" alt="" width="640" height="360" loading="lazy" decoding="async"><span class="badge">Interactive · 2 steps</span>`,
    ),
  );
  assert.match(
    html,
    new RegExp(
      `href="/watch/${built.first}"[^>]*><h3>First \\[demo\\]</h3><p>The first\nof many.</p><span class="thumb"><img [^>]+><span class="badge"><span class="sr">Duration </span>1:02:05</span></span></a>`,
    ),
  );
  assert.match(
    html,
    new RegExp(
      `href="/watch/${built.second}"[^>]*><h3>Second</h3><span class="thumb blank"><span class="badge"><span class="sr">Duration </span>0:42</span>`,
    ),
  );

  // Landmarks, one h1, a skip link, the viewport; the script reports to this channel's endpoint.
  for (const landmark of ['<header>', '<main data-cuepoint-channel="/c/', '<footer>']) assert.ok(html.includes(landmark), landmark);
  assert.equal(html.match(/<h1>/g)?.length, 1);
  assert.match(html, /<a class="skip" href="#videos">Skip to the videos<\/a>/);
  assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
  assert.match(html, /<script src="\/player.js" defer><\/script><script src="\/channel.js" defer><\/script>/);
  // The featured frame is allowed by the policy; no inline script runs.
  const policy = res.headers.get('content-security-policy') ?? '';
  assert.match(policy, /frame-src 'self'/);
  assert.match(policy, /script-src 'self'(;|$)/);
  assert.ok(html.length < 20_000, `small HTML: ${html.length} bytes`);

  const script = await http(harness, 'GET', '/channel.js');
  assert.deepEqual([script.status, script.headers.get('content-type')], [200, 'text/javascript; charset=utf-8']);
});

test('meta tags and JSON-LD: description, canonical, Open Graph and Twitter cards, each item listed once, a VideoObject per video with a poster', async (t) => {
  const harness = await startTestApp(t);
  const built = await builtChannel(harness);
  const html = (await http(harness, 'GET', `/c/${built.slug}`)).raw;
  const origin = 'http://localhost:3000';
  const url = `${origin}/c/${built.slug}`;

  assert.match(html, /<title>Acme &#60;script&#62;alert\(1\)&#60;\/script&#62; TV<\/title>/);
  assert.equal(metaContent(html, 'description'), 'Demos, stories &#38; more');
  assert.match(html, new RegExp(`<link rel="canonical" href="${url}">`));
  assert.match(html, new RegExp(`<link rel="alternate" type="text/markdown" href="${url}.md"`));
  assert.equal(metaContent(html, 'og:type'), 'website');
  assert.equal(metaContent(html, 'og:url'), url);
  assert.equal(metaContent(html, 'og:title'), 'Acme &#60;script&#62;alert(1)&#60;/script&#62; TV');
  assert.equal(metaContent(html, 'og:image'), `${origin}/media/${built.hero}/poster.jpg`, 'the featured poster is the preview image');
  assert.equal(metaContent(html, 'twitter:card'), 'summary_large_image');
  assert.equal(metaContent(html, 'twitter:image'), `${origin}/media/${built.hero}/poster.jpg`);

  const blocks = jsonLd(html);
  const page = blocks.find((block) => block['@type'] === 'CollectionPage') as {
    '@context': string;
    url: string;
    name: string;
    mainEntity: { itemListElement: { position: number; url: string }[] };
  };
  assert.deepEqual([page['@context'], page.url, page.name], ['https://schema.org', url, 'Acme <script>alert(1)</script> TV']);
  assert.deepEqual(
    page.mainEntity.itemListElement.map((item: { position: number; url: string }) => [item.position, item.url]),
    [
      [1, `${origin}/watch/${built.hero}`],
      [2, `${origin}/r/${built.route}`],
      [3, `${origin}/watch/${built.first}`],
      [4, `${origin}/watch/${built.second}`],
      [5, `${origin}/watch/${built.third}`],
    ],
  );
  const videos = blocks.filter((block) => block['@type'] === 'VideoObject');
  assert.deepEqual(
    videos.map((video) => video.name),
    ['Meet <Acme>', 'First [demo]', 'Third'],
    'Google requires a thumbnail: a video without a poster is in the list, not described',
  );
  assert.deepEqual(videos[0], {
    '@context': 'https://schema.org',
    '@type': 'VideoObject',
    '@id': `${origin}/watch/${built.hero}`,
    name: 'Meet <Acme>',
    description: 'Who we are & what we do.',
    thumbnailUrl: [`${origin}/media/${built.hero}/poster.jpg`],
    uploadDate: built.created.toISOString(),
    duration: 'PT1M35S',
    embedUrl: `${origin}/embed/${built.hero}`,
    contentUrl: `${origin}/media/${built.hero}`,
    url: `${origin}/watch/${built.hero}`,
    width: 1280,
    height: 720,
  });
  for (const video of videos) {
    for (const field of ['name', 'description', 'uploadDate', 'duration', 'embedUrl']) assert.ok(video[field], `${video.name}: ${field}`);
    assert.match(String(video.duration), /^PT(\d+H)?(\d+M)?(\d+S)?$/);
    assert.ok(!Number.isNaN(Date.parse(String(video.uploadDate))));
  }
  assert.equal(videos[1]?.duration, 'PT1H2M5S');
  for (const video of videos) assert.match(String((video.thumbnailUrl as string[])[0]), /\/poster\.jpg$/, `${video.name}: thumbnailUrl`);
  assert.ok(!html.includes('</script>alert'), 'text inside JSON-LD cannot close its element');

  // The featured video also in the grid is one entry of the list, and one VideoObject.
  await api(harness, built.ws, 'PUT', `/channel/items/${built.hero}`, { kind: 'video', visible: true });
  const twice = jsonLd((await http(harness, 'GET', `/c/${built.slug}`)).raw);
  const listed = (twice[0] as typeof page).mainEntity.itemListElement;
  assert.deepEqual(
    listed.map((item) => [item.position, item.url]),
    [
      [1, `${origin}/watch/${built.hero}`],
      [2, `${origin}/r/${built.route}`],
      [3, `${origin}/watch/${built.first}`],
      [4, `${origin}/watch/${built.second}`],
      [5, `${origin}/watch/${built.third}`],
    ],
  );
  assert.equal(twice.filter((block) => block['@type'] === 'VideoObject').length, 3);
});

test('ETag: a current copy is answered 304 until anything the page shows changes', async (t) => {
  const harness = await startTestApp(t);
  const built = await builtChannel(harness);
  const path = `/c/${built.slug}`;
  const first = await http(harness, 'GET', path);
  const etag = first.headers.get('etag') as string;
  assert.match(etag, /^"[A-Za-z0-9_-]{32}"$/);
  assert.equal(first.headers.get('cache-control'), 'public, no-cache');
  const again = await http(harness, 'GET', path, { headers: { 'if-none-match': etag } });
  assert.deepEqual([again.status, again.raw, again.headers.get('etag')], [304, '', etag]);
  assert.equal((await http(harness, 'GET', path, { headers: { 'if-none-match': `"other", W/${etag}` } })).status, 304);

  const changes: [string, () => Promise<unknown>][] = [
    ['the headline', () => api(harness, built.ws, 'PATCH', '/channel', { headline: 'New headline' })],
    ['a video’s title', () => api(harness, built.ws, 'PATCH', `/videos/${built.first}`, { title: 'Renamed' })],
    ['a video archived', () => api(harness, built.ws, 'PATCH', `/videos/${built.second}`, { archived: true })],
    ['the order', () => api(harness, built.ws, 'PUT', `/channel/items/${built.third}`, { kind: 'video', visible: true, position: 0 })],
    ['the featured item', () => api(harness, built.ws, 'PUT', '/channel/featured', { video_id: null })],
    ['a route paused', () => api(harness, built.ws, 'PATCH', `/routes/${built.route}`, { status: 'paused' })],
  ];
  let current = etag;
  for (const [what, change] of changes) {
    await change();
    const res = await http(harness, 'GET', path, { headers: { 'if-none-match': current } });
    assert.equal(res.status, 200, `${what} changes the page`);
    assert.notEqual(res.headers.get('etag'), current, what);
    current = res.headers.get('etag') as string;
  }
  const page = await http(harness, 'GET', path);
  assert.deepEqual(gridIds(page.raw), [built.third, built.first], 'the last state: reordered, archived and paused items gone');
  assert.ok(!page.raw.includes('<iframe'), 'no featured item');
});

test('unknown slugs and channels not set up get a friendly 404 page; the page of an empty channel says so', async (t) => {
  const harness = await startTestApp(t);
  for (const path of ['/c/no-such-channel', '/c/', `/c/${'x'.repeat(500)}`, '/c/%00', '/c/a/b/c', '/c/no-such.md']) {
    const res = await http(harness, 'GET', path);
    assert.equal(res.status, 404, path);
    assert.match(res.raw, /<h1>There is no channel here<\/h1>/, path);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  }
  // A channel nobody has set up is not published: a new workspace's name is on no public page.
  const ws = await harness.workspace();
  const untouched = (await api(harness, ws, 'GET', '/channel')).body;
  assert.equal(untouched.published, false);
  for (const suffix of ['', '.md', '/llms.txt'])
    assert.equal((await http(harness, 'GET', `/c/${untouched.slug}${suffix}`)).status, 404, suffix);
  const setUp = await api(harness, ws, 'PATCH', '/channel', { dek: 'Coming soon.' });
  assert.equal(setUp.body.published, true);
  const empty = await http(harness, 'GET', `/c/${untouched.slug}`);
  assert.equal(empty.status, 200);
  assert.match(empty.raw, /Nothing to watch here yet/);
  assert.equal(metaContent(empty.raw, 'twitter:card'), 'summary', 'no image, no large card');
});

test('a redirect to the current slug keeps the query string, so campaign tags on an old link survive', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const before = (await api(harness, ws, 'GET', '/channel')).body.slug;
  const slug = `renamed-${randomUUID().slice(0, 8)}`;
  assert.equal((await api(harness, ws, 'PATCH', '/workspace', { slug })).status, 200);
  for (const [asked, location] of [
    [`/c/${before}?utm_source=mail&utm_campaign=spring`, `/c/${slug}?utm_source=mail&utm_campaign=spring`],
    [`/c/${slug.toUpperCase()}.md?ref=x`, `/c/${slug}.md?ref=x`],
    [`/c/${before}/llms.txt?q=caf%C3%A9`, `/c/${slug}/llms.txt?q=caf%C3%A9`],
    [`/c/${before}`, `/c/${slug}`],
  ]) {
    const res = await http(harness, 'GET', asked as string);
    assert.deepEqual([res.status, res.headers.get('location')], [301, location], asked);
  }
});

test('the Markdown variants: the same items with their watch links, text escaped, for assistants', async (t) => {
  const harness = await startTestApp(t);
  const built = await builtChannel(harness);
  const md = await http(harness, 'GET', `/c/${built.slug}.md`);
  assert.equal(md.status, 200);
  assert.equal(md.headers.get('content-type'), 'text/markdown; charset=utf-8');
  assert.ok(md.headers.get('etag'));
  const origin = 'http://localhost:3000';
  assert.equal(
    md.raw,
    [
      '# Acme \\<script\\>alert\\(1\\)\\</script\\> TV',
      '',
      '> Demos, stories & more',
      '',
      `The public video channel of ${(await api(harness, built.ws, 'GET', '/workspace')).body.name}: ${origin}/c/${built.slug}. Each link opens a page that plays it.`,
      '',
      '## Featured',
      '',
      `- [Meet \\<Acme\\>](${origin}/watch/${built.hero}): video, 1:35. Who we are & what we do.`,
      '',
      '## Videos',
      '',
      `- [First \\[demo\\]](${origin}/watch/${built.first}): video, 1:02:05. The first of many.`,
      `- [Second](${origin}/watch/${built.second}): video, 0:42`,
      `- [Third](${origin}/watch/${built.third}): video, 0:05`,
      '',
      '## Interactive routes',
      '',
      `- [Find your plan](${origin}/r/${built.route}): interactive video route, 2 steps: viewers choose where to go next`,
      '',
    ].join('\n'),
  );
  const llms = await http(harness, 'GET', `/c/${built.slug}/llms.txt`);
  assert.deepEqual([llms.status, llms.raw], [200, md.raw]);
});

test('events: a page view and the items opened are recorded once each, reported by get_channel and the summary', async (t) => {
  const harness = await startTestApp(t);
  const built = await builtChannel(harness);
  const endpoint = `/c/${built.slug}/events`;
  const viewId = randomUUID();
  const someone = viewer('channel-one');

  const view = await http(harness, 'POST', endpoint, { body: { view_id: viewId, viewer_id: someone, events: [{ type: 'view' }] } });
  assert.deepEqual([view.status, view.body], [200, { accepted: true }]);
  const opens = [
    { type: 'open', kind: 'video', id: built.first },
    { type: 'open', kind: 'route', id: built.route },
    { type: 'open', kind: 'video', id: built.hero },
  ];
  // Sent twice, the second as a beacon does (text/plain): counted once.
  assert.equal((await http(harness, 'POST', endpoint, { body: { view_id: viewId, viewer_id: someone, events: opens } })).status, 200);
  const beacon = await http(harness, 'POST', endpoint, {
    body: JSON.stringify({ view_id: viewId, viewer_id: someone, events: opens }),
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
  });
  assert.equal(beacon.status, 200, beacon.raw);
  // A second view by the same browser, and one by another browser, opening the same video.
  await http(harness, 'POST', endpoint, { body: { view_id: randomUUID(), viewer_id: someone, events: [{ type: 'view' }] } });
  await http(harness, 'POST', endpoint, {
    body: { view_id: randomUUID(), viewer_id: null, events: [{ type: 'view' }, { type: 'open', kind: 'video', id: built.first }] },
  });
  // Crawlers are not visitors.
  const bot = await http(harness, 'POST', endpoint, {
    body: { view_id: randomUUID(), viewer_id: null, events: [{ type: 'view' }] },
    headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
  });
  assert.equal(bot.status, 204);

  const channel = await api(harness, built.ws, 'GET', '/channel');
  assert.deepEqual(channel.body.activity, { days: 30, views: 3, visitors: 1, opens: 4 });
  const opensOf = (id: string) => channel.body.items.find((item: { id: string }) => item.id === id)?.opens;
  assert.deepEqual([opensOf(built.first), opensOf(built.route), opensOf(built.second)], [2, 1, 0]);

  const summary = await api(harness, built.ws, 'GET', '/analytics/summary?range=7d');
  assert.equal(summary.status, 200, summary.raw);
  assert.deepEqual(summary.body.channel, {
    views: 3,
    visitors: 1,
    opens: 4,
    top: [
      { kind: 'video', id: built.first, title: 'First [demo]', opens: 2 },
      ...[
        { kind: 'video', id: built.hero, title: 'Meet <Acme>', opens: 1 },
        { kind: 'route', id: built.route, title: 'Find your plan', opens: 1 },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    ],
  });
});

test('events: what does not fit is refused, every problem named, and nothing is recorded', async (t) => {
  const harness = await startTestApp(t);
  const built = await builtChannel(harness);
  const other = await builtChannel(harness);
  const endpoint = `/c/${built.slug}/events`;
  const post = (body: unknown, headers: Record<string, string> = {}) => http(harness, 'POST', endpoint, { body, headers });
  const fields = (res: { body: { error: { details: { errors: { field: string }[] } } } }) =>
    res.body.error.details.errors.map((error) => error.field).sort();

  const shape = await post({
    view_id: 'nope',
    viewer_id: 'x',
    events: [{ type: 'open' }, { type: 'view', kind: 'video' }, { type: 'dance' }, { type: 'open', kind: 'video', id: 'nope' }],
  });
  assert.equal(shape.status, 400, shape.raw);
  assert.deepEqual(fields(shape), [
    'events[0].id',
    'events[0].kind',
    'events[1].kind',
    'events[2].type',
    'events[3].id',
    'view_id',
    'viewer_id',
  ]);
  const tooMany = await post({ view_id: randomUUID(), viewer_id: null, events: Array.from({ length: 21 }, () => ({ type: 'view' })) });
  assert.deepEqual([tooMany.status, fields(tooMany)], [400, ['events']]);
  const unknownItems = await post({
    view_id: randomUUID(),
    viewer_id: null,
    events: [
      { type: 'open', kind: 'video', id: built.hidden },
      { type: 'open', kind: 'video', id: other.first },
      { type: 'open', kind: 'route', id: built.first },
      { type: 'open', kind: 'video', id: built.second },
    ],
  });
  assert.equal(unknownItems.status, 400, unknownItems.raw);
  assert.deepEqual(fields(unknownItems), ['events[1].id', 'events[2].id'], 'a hidden item is on the channel; another’s is not');
  // A view id another channel used cannot carry opens here.
  const theirView = randomUUID();
  await http(harness, 'POST', `/c/${other.slug}/events`, { body: { view_id: theirView, viewer_id: null, events: [{ type: 'view' }] } });
  const stolen = await post({ view_id: theirView, viewer_id: null, events: [{ type: 'open', kind: 'video', id: built.first }] });
  assert.deepEqual([stolen.status, fields(stolen)], [400, ['view_id']]);
  const tooLarge = await post({ view_id: randomUUID(), viewer_id: null, events: [{ type: 'view' }], pad: 'x'.repeat(10_000) });
  assert.equal(tooLarge.status, 413);
  assert.equal((await post('{"view_id":')).status, 400);
  const nowhere = await http(harness, 'POST', '/c/no-such-channel/events', {
    body: { view_id: randomUUID(), viewer_id: null, events: [{ type: 'view' }] },
  });
  assert.equal(nowhere.status, 404);

  const channel = await api(harness, built.ws, 'GET', '/channel');
  assert.deepEqual(channel.body.activity, { days: 30, views: 0, visitors: 0, opens: 0 });
  const theirs = await api(harness, other.ws, 'GET', '/channel');
  assert.deepEqual(theirs.body.activity, { days: 30, views: 1, visitors: 0, opens: 0 });
});

test('a featured route plays its route player, filling the frame', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('business');
  const route = await ws.addRoute({ name: 'Pick a path', status: 'live' });
  const featured = await api(harness, ws, 'PUT', '/channel/featured', { route_id: route.id });
  const html = (await http(harness, 'GET', `/c/${featured.body.slug}`)).raw;
  assert.match(html, new RegExp(`<iframe src="/r/${route.id}\\?frame=1" title="Interactive video: Pick a path"`));
  assert.deepEqual(gridIds(html), [], 'featured, not in the grid');
  const framed = await http(harness, 'GET', `/r/${route.id}?frame=1`);
  assert.equal(framed.status, 200);
  assert.match(framed.raw, /<main class="cp-framed"><div class="cp-stage">/);
  assert.ok(!framed.raw.includes('<h1>'), 'the channel page names it under the frame');
  assert.match(framed.headers.get('content-security-policy') ?? '', /frame-ancestors 'self'/);
  const plain = await http(harness, 'GET', `/r/${route.id}`);
  assert.match(plain.raw, /<h1>Pick a path<\/h1>/);
});
