/**
 * The route player over real HTTP: the page for each status (and an outage), its headers and
 * escaping; the events a player posts (a path through steps, a choice to a link, the lead form, a
 * last step played out), answered idempotently, checked against the graph (every misfit named) and
 * under the route token's rules; and what they add up to: the numbers get_route shows, one
 * route.completed per visit with the path and the lead, and the lead's engagement.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestApp, TEST_SECRET, type TestApp, type TestWorkspace, testConfig } from '../../../../test/helpers/app.ts';
import { urlOf } from '../../../../test/helpers/mcp-client.ts';
import { addRendition } from '../../../../test/helpers/renditions.ts';
import { pageData, routeAsShown, wireStep } from '../../../../test/helpers/routes.ts';
import { BROWSER } from '../../../../test/helpers/viewing.ts';
import { buildApp } from '../../../app.ts';
import { openDatabase } from '../../../db/client.ts';
import { buildDependencies } from '../../../dependencies.ts';
import { ENGAGEMENT_POINTS } from '../../../domains/leads/index.ts';
import { createRouteTokens } from '../../../domains/routes/index.ts';
import { createViewingTokens } from '../../../domains/viewing/index.ts';

const newViewer = () => `viewer_${randomUUID().replaceAll('-', '')}`;

async function http(harness: TestApp, method: string, path: string, body?: unknown) {
  const res = await fetch(`${await urlOf(harness.app)}${path}`, {
    method,
    headers: { 'user-agent': BROWSER, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
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

/**
 * "Which plan fits you?": the intro asks, Pricing plays the pricing step, Docs opens a link, Talk
 * to us shows the lead form; the pricing step asks again: Done ends, See a demo plays the demo, a
 * last step without choices.
 */
async function plansRoute(harness: TestApp, ws: TestWorkspace, name = 'Which plan fits you?') {
  const intro = await ws.addVideo({ title: 'Intro', duration_seconds: 30 });
  const pricing = await ws.addVideo({ title: 'Pricing', duration_seconds: 40 });
  const demo = await ws.addVideo({ title: 'Demo', duration_seconds: 50 });
  const route = await ws.addRoute({ name, status: 'live', videoIds: [intro, pricing, demo] });
  const [entry, pricingStep, demoStep] = route.stepIds as [string, string, string];
  const [toPricing, toGuides, toForm] = (await wireStep(harness, ws.id, route, entry, 'Which plan fits you?', [
    { label: 'Pricing', target: 'step', to: pricingStep },
    { label: 'Docs', target: 'url', url: 'https://example.com/docs' },
    { label: 'Talk to us', target: 'lead_form' },
  ])) as [string, string, string];
  const [done, toDemo] = (await wireStep(harness, ws.id, route, pricingStep, 'Ready?', [
    { label: 'Done', target: 'end' },
    { label: 'See a demo', target: 'step', to: demoStep },
  ])) as [string, string];
  return {
    id: route.id,
    videos: { intro, pricing, demo },
    steps: { entry, pricing: pricingStep, demo: demoStep },
    choices: { toPricing, toGuides, toForm, done, toDemo },
  };
}

/** A page view of the route: its token and visit id. */
async function visitOf(harness: TestApp, routeId: string) {
  const page = await http(harness, 'GET', `/r/${routeId}`);
  assert.equal(page.status, 200, page.raw);
  const data = pageData(page.raw);
  const check = createRouteTokens(TEST_SECRET).check(data.token, new Date());
  assert.ok(check.ok && check.routeId === routeId, 'the page carries a route token for this route');
  const viewerId = newViewer();
  const post = (events: unknown[], token = data.token) =>
    http(harness, 'POST', `/r/${routeId}/events`, { token, viewer_id: viewerId, events });
  return { data, visitId: check.visitId, viewerId, post };
}

async function completedEvents(harness: TestApp, workspaceId: string) {
  const rows = await harness.database.db
    .selectFrom('events')
    .select('data')
    .where('workspace_id', '=', workspaceId)
    .where('type', '=', 'route.completed')
    .orderBy('sequence')
    .execute();
  // biome-ignore lint/suspicious/noExplicitAny: event data as recorded
  return rows.map((row) => row.data as any);
}

async function visitRow(harness: TestApp, visitId: string) {
  return harness.database.db.selectFrom('route_visits').selectAll().where('id', '=', visitId).executeTakeFirst();
}

test('a live route: the player page with a route token, a viewing token per step, strict headers', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await plansRoute(harness, ws);
  const page = await http(harness, 'GET', `/r/${route.id}`);
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(page.headers.get('cache-control'), 'no-store');
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(page.headers.get('referrer-policy'), 'same-origin');
  const csp = page.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'; script-src 'self'; style-src 'sha256-[A-Za-z0-9+/=]+'; media-src 'self'/);
  assert.match(csp, /frame-ancestors 'self'/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  assert.match(page.raw, new RegExp(`<video [^>]*src="/media/${route.videos.intro}"`));
  assert.match(
    page.raw,
    /<script src="\/playback.js" data-hls-script="[^"]+" defer><\/script><script src="\/player.js" defer><\/script><script src="\/route-player.js" defer><\/script>/,
  );
  assert.match(page.raw, /<h1>Which plan fits you\?<\/h1>/);

  const data = pageData(page.raw);
  assert.deepEqual(
    data.steps.map((step) => [step.step_id, step.entry, step.video?.video_id, step.question]),
    [
      [route.steps.entry, true, route.videos.intro, 'Which plan fits you?'],
      [route.steps.pricing, false, route.videos.pricing, 'Ready?'],
      [route.steps.demo, false, route.videos.demo, null],
    ],
  );
  assert.deepEqual(
    data.steps[0]?.choices.map((choice) => [choice.label, choice.target, choice.url, choice.to_step_id]),
    [
      ['Pricing', 'step', null, route.steps.pricing],
      ['Docs', 'url', 'https://example.com/docs', null],
      ['Talk to us', 'lead_form', null, null],
    ],
  );
  const viewing = createViewingTokens(TEST_SECRET);
  const sessions = data.steps.map((step) => {
    const check = viewing.check(step.video?.token ?? '', new Date());
    assert.ok(check.ok && check.videoId === step.video?.video_id, 'each step carries a viewing token for its video');
    return check.sessionId;
  });
  assert.equal(new Set(sessions).size, 3, 'each step is a session of its own');
  const again = pageData((await http(harness, 'GET', `/r/${route.id}`)).raw);
  assert.notEqual(again.token, data.token, 'each render is a new visit');

  const script = await http(harness, 'GET', '/route-player.js');
  assert.equal(script.status, 200);
  assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.match(script.raw, /cuepointReporting/);
});

test('steps whose videos have a ready rendition carry their stream; the entry step’s file is held back for it', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await plansRoute(harness, ws);
  await addRendition(harness, { workspaceId: ws.id, videoId: route.videos.intro });
  await addRendition(harness, { workspaceId: ws.id, videoId: route.videos.demo });
  await addRendition(harness, { workspaceId: ws.id, videoId: route.videos.pricing }, 'processing');
  const page = await http(harness, 'GET', `/r/${route.id}`);
  assert.deepEqual(
    pageData(page.raw).steps.map((step) => [step.video?.src, step.video?.hls]),
    [
      [`/media/${route.videos.intro}`, `/media/${route.videos.intro}/hls/master.m3u8`],
      [`/media/${route.videos.pricing}`, null],
      [`/media/${route.videos.demo}`, `/media/${route.videos.demo}/hls/master.m3u8`],
    ],
  );
  assert.match(page.raw, new RegExp(`<video src="/media/${route.videos.intro}"[^>]* preload="none"`));
  assert.match(page.headers.get('content-security-policy') ?? '', /media-src 'self' blob:;/);

  // A route whose entry has no stream preloads its file as before.
  const plain = await plansRoute(harness, ws, 'Plain');
  assert.match(
    (await http(harness, 'GET', `/r/${plain.id}`)).raw,
    new RegExp(`<video src="/media/${plain.videos.intro}"[^>]* preload="metadata"`),
  );
});

test('steps whose videos have transcripts carry their captions; the entry step’s is a <track> in the page', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await plansRoute(harness, ws);
  for (const [videoId, language] of [
    [route.videos.intro, 'en'],
    [route.videos.demo, 'fr-CA'],
  ] as const) {
    const set = await harness.request('PUT', `/v1/videos/${videoId}/transcript`, {
      token: ws.key,
      body: { format: 'webvtt', language, text: 'WEBVTT\n\n00:01.000 --> 00:02.000\nBonjour\n' },
    });
    assert.equal(set.status, 200, set.raw);
  }
  const page = await http(harness, 'GET', `/r/${route.id}`);
  assert.match(
    page.raw,
    new RegExp(`<video [^>]*><track kind="captions" src="/media/${route.videos.intro}/captions.vtt" srclang="en" label="English"></video>`),
  );
  assert.deepEqual(
    pageData(page.raw).steps.map((step) => step.video?.captions),
    [
      { src: `/media/${route.videos.intro}/captions.vtt`, srclang: 'en', label: 'English' },
      null,
      { src: `/media/${route.videos.demo}/captions.vtt`, srclang: 'fr-CA', label: 'Français canadien' },
    ],
  );
  const script = await http(harness, 'GET', '/route-player.js');
  assert.match(script.raw, /setCaptions\(next\.video\.captions\)/, 'the script swaps the track when a step plays');
});

test('paused, draft, archived, unknown and malformed routes, and a step whose video went away', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await plansRoute(harness, ws);
  const db = harness.database.db;
  const setStatus = (status: 'paused' | 'draft' | 'archived' | 'live') =>
    db.updateTable('routes').set({ status }).where('id', '=', route.id).execute();

  await setStatus('paused');
  const paused = await http(harness, 'GET', `/r/${route.id}`);
  assert.equal(paused.status, 200);
  assert.match(paused.raw, /<h1>This route is paused<\/h1>/);
  assert.doesNotMatch(paused.raw, /<video|<script/);
  assert.equal(paused.headers.get('cache-control'), 'no-store');
  for (const status of ['draft', 'archived'] as const) {
    await setStatus(status);
    const missing = await http(harness, 'GET', `/r/${route.id}`);
    assert.equal(missing.status, 404, status);
    assert.match(missing.raw, /<h1>This route is not available<\/h1>/);
    assert.match(missing.headers.get('content-security-policy') ?? '', /frame-ancestors 'self'/);
  }
  for (const path of [`/r/${randomUUID()}`, '/r/not-a-route', `/r/${'x'.repeat(500)}`, `/r/${route.id}/more`]) {
    const missing = await http(harness, 'GET', path);
    assert.equal(missing.status, 404, path);
    assert.match(missing.raw, /This route is not available/, path);
  }

  // The pricing video archived while the route is live: the step stays, without a video to play.
  await setStatus('live');
  await db.updateTable('videos').set({ archived: true }).where('id', '=', route.videos.pricing).execute();
  const data = pageData((await http(harness, 'GET', `/r/${route.id}`)).raw);
  assert.equal(data.steps[1]?.video, null);
  assert.ok(data.steps[0]?.video && data.steps[2]?.video);

  // With the entry step's video gone, no visit can start: the player never sends it, nor may anyone.
  const visit = await visitOf(harness, route.id);
  await db.updateTable('videos').set({ archived: true }).where('id', '=', route.videos.intro).execute();
  const start = await visit.post([{ type: 'step', index: 0, step_id: route.steps.entry }]);
  assert.equal(start.status, 400, start.raw);
  assert.match(start.body.error.message, /events\[0\]\.step_id: the entry step’s video is not available/);
});

test('names, titles, questions and labels are escaped in the page and its data block', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const hostile = `</script><script>alert(1)</script>" onload="alert(2)' &amp;`;
  const videoId = await ws.addVideo({ title: `Title ${hostile}` });
  const route = await ws.addRoute({ name: `Name ${hostile}`, status: 'live', videoIds: [videoId] });
  await wireStep(harness, ws.id, route, route.stepIds[0] as string, `Question ${hostile}`, [{ label: `Label ${hostile}`, target: 'end' }]);
  const page = await http(harness, 'GET', `/r/${route.id}`);
  assert.equal(page.status, 200);
  assert.equal(page.raw.match(/<script/g)?.length, 4, 'the data block and the three player scripts are the only scripts');
  assert.doesNotMatch(page.raw, /<script>alert/);
  // In the data block the quote is a JSON escape inside a string; in the markup it must not appear at all.
  const markup = page.raw.replace(/<script type="application\/json" id="cp-route">[^<]*<\/script>/, '');
  assert.doesNotMatch(markup, /" onload=/);
  const escaped = '&#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62;&#34; onload=&#34;alert(2)&#39; &#38;amp;';
  assert.ok(page.raw.includes(`<title>Name ${escaped}</title>`));
  assert.ok(page.raw.includes(`<h1>Name ${escaped}</h1>`));
  assert.ok(page.raw.includes(`aria-label="Title ${escaped}"`));
  const data = pageData(page.raw);
  assert.equal(data.steps[0]?.video?.title, `Title ${hostile}`);
  assert.equal(data.steps[0]?.question, `Question ${hostile}`);
  assert.equal(data.steps[0]?.choices[0]?.label, `Label ${hostile}`);
});

test('a path through two steps to an end: numbers, one route.completed with the path and the lead, engagement', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await plansRoute(harness, ws);
  const visit = await visitOf(harness, route.id);
  // The browser is a known lead's: linked as a form would link it.
  const leadId = await ws.addLead({ email: 'ann@example.com' });
  await harness.database.db
    .insertInto('lead_viewers')
    .values({ workspace_id: ws.id, viewer_id: visit.viewerId, lead_id: leadId, linked_at: new Date() })
    .execute();
  const points = async () =>
    (await harness.database.db.selectFrom('leads').select('engagement_points').where('id', '=', leadId).executeTakeFirstOrThrow())
      .engagement_points;
  const before = await points();

  // As the player sends them: the entry step once played, the choice and the next step together, then the end.
  const first = await visit.post([{ type: 'step', index: 0, step_id: route.steps.entry }]);
  assert.deepEqual([first.status, first.body], [200, { accepted: true }]);
  assert.equal(first.headers.get('cache-control'), 'no-store');
  assert.equal((await visitRow(harness, visit.visitId))?.completed_at, null);
  const middle = [
    { type: 'choice', index: 0, step_id: route.steps.entry, choice_id: route.choices.toPricing },
    { type: 'step', index: 1, step_id: route.steps.pricing },
  ];
  assert.equal((await visit.post(middle)).status, 200);
  const last = [{ type: 'choice', index: 1, step_id: route.steps.pricing, choice_id: route.choices.done }];
  assert.equal((await visit.post(last)).status, 200);

  // Sent again (a retry whose answer was lost, a beacon), also many at once: nothing changes.
  for (const batch of [middle, last, [...middle, ...last]]) assert.equal((await visit.post(batch)).status, 200);
  const entryOnly = [{ type: 'step', index: 0, step_id: route.steps.entry }];
  const together = await Promise.all(Array.from({ length: 12 }, (_, i) => visit.post(i % 2 === 0 ? [...middle, ...last] : entryOnly)));
  assert.deepEqual(new Set(together.map((res) => res.status)), new Set([200]));

  const row = await visitRow(harness, visit.visitId);
  assert.equal(row?.ended_by, 'end');
  assert.equal(row?.steps_reached, 2);
  assert.equal(row?.lead_id, leadId);
  assert.ok(row?.completed_at);
  const shown = await routeAsShown(harness, ws, route.id);
  assert.deepEqual([shown.starts, shown.completions, shown.completion_rate], [1, 1, 1]);
  const [entry, pricing, demo] = shown.steps;
  assert.deepEqual([entry?.reached, entry?.choices.map((choice) => choice.chosen)], [1, [1, 0, 0]]);
  assert.deepEqual([pricing?.reached, pricing?.choices.map((choice) => choice.chosen), pricing?.dropped_off], [1, [1, 0], 0]);
  assert.equal(demo?.reached, 0);
  assert.deepEqual(shown.paths, [
    { step_ids: [route.steps.entry, route.steps.pricing], choices: ['Pricing', 'Done'], visits: 1, completed: 1 },
  ]);

  // A new visit whose first batch arrives many times at once is one start, reached once, dropped once.
  const second = await visitOf(harness, route.id);
  const firsts = await Promise.all(Array.from({ length: 10 }, () => second.post([{ type: 'step', index: 0, step_id: route.steps.entry }])));
  assert.deepEqual(new Set(firsts.map((res) => res.status)), new Set([200]));
  const both = await routeAsShown(harness, ws, route.id);
  assert.deepEqual([both.starts, both.completions, both.steps[0]?.reached, both.steps[0]?.dropped_off], [2, 1, 2, 1]);
  assert.deepEqual(
    both.paths.map((path) => [path.step_ids.length, path.visits, path.completed]),
    [
      [2, 1, 1],
      [1, 1, 0],
    ],
  );

  assert.deepEqual(await completedEvents(harness, ws.id), [
    {
      route_id: route.id,
      route: { route_id: route.id, name: 'Which plan fits you?' },
      lead_id: leadId,
      path: [
        { video_id: route.videos.intro, title: 'Intro', choice: 'Pricing' },
        { video_id: route.videos.pricing, title: 'Pricing', choice: 'Done' },
      ],
    },
  ]);
  const gained = (await points()) - before;
  assert.ok(Math.abs(gained - 2 * ENGAGEMENT_POINTS.routeChoice) < 0.01, `two choices add their points once each (gained ${gained})`);
});

test('a choice to a link ends the visit without completing it; a last step played out completes it', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await plansRoute(harness, ws);

  const leaving = await visitOf(harness, route.id);
  const toLink = [
    { type: 'step', index: 0, step_id: route.steps.entry },
    { type: 'choice', index: 0, step_id: route.steps.entry, choice_id: route.choices.toGuides },
  ];
  assert.equal((await leaving.post(toLink)).status, 200);
  const left = await visitRow(harness, leaving.visitId);
  assert.deepEqual([left?.ended_by, left?.completed_at, left?.lead_id], ['url', null, null]);
  const after = await leaving.post([{ type: 'step', index: 1, step_id: route.steps.pricing }]);
  assert.equal(after.status, 400);

  const watching = await visitOf(harness, route.id);
  const toDemo = [
    { type: 'step', index: 0, step_id: route.steps.entry },
    { type: 'choice', index: 0, step_id: route.steps.entry, choice_id: route.choices.toPricing },
    { type: 'step', index: 1, step_id: route.steps.pricing },
    { type: 'choice', index: 1, step_id: route.steps.pricing, choice_id: route.choices.toDemo },
    { type: 'step', index: 2, step_id: route.steps.demo },
  ];
  assert.equal((await watching.post(toDemo)).status, 200);
  const finish = [{ type: 'finish', index: 2, step_id: route.steps.demo }];
  assert.equal((await watching.post(finish)).status, 200);
  assert.equal((await watching.post(finish)).status, 200, 'a finish sent again changes nothing');
  const finished = await visitRow(harness, watching.visitId);
  assert.deepEqual([finished?.ended_by, finished?.steps_reached, finished?.lead_id], ['last_step', 3, null]);

  const shown = await routeAsShown(harness, ws, route.id);
  assert.deepEqual([shown.starts, shown.completions], [2, 1]);
  assert.deepEqual(
    shown.steps[0]?.choices.map((choice) => [choice.label, choice.chosen, choice.share]),
    [
      ['Pricing', 1, 0.5],
      ['Docs', 1, 0.5],
      ['Talk to us', 0, 0],
    ],
  );
  assert.deepEqual([shown.steps[2]?.reached, shown.steps[2]?.finished], [1, 1]);
  const events = await completedEvents(harness, ws.id);
  assert.equal(events.length, 1, 'only the completed visit is a route.completed');
  assert.deepEqual(
    events[0].path.map((step: { title: string; choice: string | null }) => [step.title, step.choice]),
    [
      ['Intro', 'Pricing'],
      ['Pricing', 'See a demo'],
      ['Demo', null],
    ],
  );
  assert.equal(events[0].lead_id, null);
});

test('the lead form: the lead is captured from the step’s video and the visit completes with it', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await plansRoute(harness, ws);
  const visit = await visitOf(harness, route.id);
  const lead = (body: Record<string, unknown>) =>
    http(harness, 'POST', `/r/${route.id}/lead`, { token: visit.data.token, viewer_id: visit.viewerId, ...body });
  const form = { index: 0, step_id: route.steps.entry, email: 'grace@example.com', first_name: 'Grace' };

  await visit.post([{ type: 'step', index: 0, step_id: route.steps.entry }]);
  const early = await lead(form);
  assert.equal(early.status, 400, 'the form before its choice');
  assert.deepEqual(early.body.error.details.errors, [{ field: 'index', problem: 'the lead form was not chosen at index 0' }]);
  await visit.post([{ type: 'choice', index: 0, step_id: route.steps.entry, choice_id: route.choices.toForm }]);
  assert.equal((await visitRow(harness, visit.visitId))?.completed_at, null, 'the visit waits for the form');

  const bad = await lead({ ...form, email: 'not-an-email', unknown: 1 });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.error.details.errors.map((problem: { field: string }) => problem.field).sort(), ['email', 'unknown']);
  const sent = await lead(form);
  assert.deepEqual([sent.status, sent.body], [202, { ok: true }]);
  assert.equal((await lead(form)).status, 202, 'a double submit is answered alike');

  const captured = await harness.database.db
    .selectFrom('leads')
    .select(['id', 'email', 'first_name', 'source', 'source_video_id'])
    .where('workspace_id', '=', ws.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(
    [captured.email, captured.first_name, captured.source, captured.source_video_id],
    ['grace@example.com', 'Grace', 'video', route.videos.intro],
  );
  const row = await visitRow(harness, visit.visitId);
  assert.deepEqual([row?.ended_by, row?.lead_id], ['lead_form', captured.id]);
  const events = await completedEvents(harness, ws.id);
  assert.equal(events.length, 1, 'completed once, however often the form was sent');
  assert.equal(events[0].lead_id, captured.id);
  assert.deepEqual(events[0].path, [{ video_id: route.videos.intro, title: 'Intro', choice: 'Talk to us' }]);
  const activity = await harness.database.db
    .selectFrom('lead_activities')
    .select('data')
    .where('lead_id', '=', captured.id)
    .where('kind', '=', 'form_submitted')
    .executeTakeFirstOrThrow();
  assert.deepEqual(activity.data, { route_id: route.id, visit_id: visit.visitId, fields: ['email', 'first_name'] });
  const shown = await routeAsShown(harness, ws, route.id);
  assert.deepEqual([shown.starts, shown.completions], [1, 1]);
});

test('events that do not fit the graph or the visit are refused, each named, and write nothing', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await plansRoute(harness, ws);
  const other = await plansRoute(harness, ws, 'Another route');
  const visit = await visitOf(harness, route.id);
  const refused = async (events: unknown[], expected: { field: string; problem: string }[]) => {
    const res = await visit.post(events);
    assert.equal(res.status, 400, res.raw);
    assert.equal(res.body.error.code, 'invalid_request');
    assert.deepEqual(res.body.error.details.errors, expected);
  };

  await refused(
    [{ type: 'step', index: 0, step_id: route.steps.pricing }],
    [{ field: 'events[0].step_id', problem: 'index 0 is the entry step, and this is another step' }],
  );
  await refused(
    [{ type: 'step', index: 0, step_id: other.steps.entry }],
    [{ field: 'events[0].step_id', problem: 'is not a step of this route' }],
  );
  await refused(
    [{ type: 'choice', index: 0, step_id: route.steps.entry, choice_id: route.choices.toPricing }],
    [{ field: 'events[0].index', problem: 'the visit has not reached index 0' }],
  );
  assert.equal(await visitRow(harness, visit.visitId), undefined, 'no visit without its entry step');

  assert.equal((await visit.post([{ type: 'step', index: 0, step_id: route.steps.entry }])).status, 200);
  await refused(
    [
      { type: 'step', index: 2, step_id: route.steps.demo },
      { type: 'step', index: 1, step_id: route.steps.pricing },
      { type: 'choice', index: 0, step_id: route.steps.entry, choice_id: route.choices.done },
      { type: 'choice', index: 0, step_id: route.steps.entry, choice_id: other.choices.toGuides },
      { type: 'finish', index: 0, step_id: route.steps.entry },
      { type: 'choice', index: 0, step_id: route.steps.entry },
      { type: 'step', index: 1, step_id: route.steps.pricing, choice_id: route.choices.toPricing },
    ],
    [
      { field: 'events[5].choice_id', problem: 'is required for a choice' },
      { field: 'events[6].choice_id', problem: 'is only for a choice, not a step' },
    ],
  );
  // A schema problem and the choice rule in one batch: both named in the one answer.
  await refused(
    [
      { type: 'step', index: -1, step_id: route.steps.entry },
      { type: 'choice', index: 0, step_id: route.steps.entry },
    ],
    [
      { field: 'events[0].index', problem: 'must be at least 0' },
      { field: 'events[1].choice_id', problem: 'is required for a choice' },
    ],
  );
  await refused(
    [
      { type: 'step', index: 2, step_id: route.steps.demo },
      { type: 'step', index: 1, step_id: route.steps.pricing },
      { type: 'choice', index: 0, step_id: route.steps.entry, choice_id: route.choices.done },
      { type: 'choice', index: 0, step_id: route.steps.entry, choice_id: other.choices.toGuides },
      { type: 'finish', index: 0, step_id: route.steps.entry },
      { type: 'choice', index: 0, step_id: route.steps.pricing, choice_id: route.choices.done },
    ],
    [
      { field: 'events[0].index', problem: 'the visit has reached 1 step; the next is index 1' },
      { field: 'events[1].index', problem: 'no choice was made at index 0 yet' },
      { field: 'events[2].choice_id', problem: 'is not one of the step’s current choices' },
      { field: 'events[3].choice_id', problem: 'is not one of the step’s current choices' },
      { field: 'events[4].step_id', problem: 'the step has choices; a visit goes on from it by choosing' },
      { field: 'events[5].step_id', problem: 'the visit is at another step at index 0' },
    ],
  );
  // A batch with one misfit is refused whole: its good choice is not recorded either.
  await refused(
    [
      { type: 'choice', index: 0, step_id: route.steps.entry, choice_id: route.choices.toPricing },
      { type: 'step', index: 1, step_id: route.steps.demo },
    ],
    [{ field: 'events[1].step_id', problem: 'the choice made at index 0 does not lead to this step' }],
  );
  const path = await harness.database.db.selectFrom('route_visit_steps').selectAll().where('visit_id', '=', visit.visitId).execute();
  assert.deepEqual(
    path.map((step) => [step.position, step.step_id, step.choice_id]),
    [[0, route.steps.entry, null]],
  );

  // A choice retired by re-wiring is no longer one to make.
  await harness.database.db.updateTable('route_choices').set({ retired_at: new Date() }).where('id', '=', route.choices.toGuides).execute();
  await refused(
    [{ type: 'choice', index: 0, step_id: route.steps.entry, choice_id: route.choices.toGuides }],
    [{ field: 'events[0].choice_id', problem: 'is not one of the step’s current choices' }],
  );
  // Once chosen, another choice at that index is refused; the same one again is not.
  const chose = [{ type: 'choice', index: 0, step_id: route.steps.entry, choice_id: route.choices.toPricing }];
  assert.equal((await visit.post(chose)).status, 200);
  assert.equal((await visit.post(chose)).status, 200);
  await refused(
    [{ type: 'choice', index: 0, step_id: route.steps.entry, choice_id: route.choices.toForm }],
    [{ field: 'events[0].choice_id', problem: 'another choice was already made at index 0' }],
  );

  // Shapes: no events, too many, unknown fields, a bad viewer id; text/plain (a beacon) is read as JSON.
  const shape = await http(harness, 'POST', `/r/${route.id}/events`, { token: visit.data.token, viewer_id: 'short', events: [], x: 1 });
  assert.equal(shape.status, 400);
  assert.deepEqual(shape.body.error.details.errors.map((problem: { field: string }) => problem.field).sort(), ['events', 'viewer_id', 'x']);
  const tooMany = await visit.post(Array.from({ length: 21 }, () => ({ type: 'step', index: 0, step_id: route.steps.entry })));
  assert.equal(tooMany.status, 400);
  const beacon = await fetch(`${await urlOf(harness.app)}/r/${route.id}/events`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER },
    body: JSON.stringify({ token: visit.data.token, viewer_id: visit.viewerId, events: chose }),
  });
  assert.equal(beacon.status, 200);
  const huge = await visit.post([{ type: 'step', index: 0, step_id: route.steps.entry, pad: 'x'.repeat(20_000) }]);
  assert.equal(huge.status, 413);
  const bot = await fetch(`${await urlOf(harness.app)}/r/${route.id}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Googlebot/2.1' },
    body: JSON.stringify({ token: visit.data.token, viewer_id: visit.viewerId, events: chose }),
  });
  assert.equal(bot.status, 204);
});

test('tokens: tampered, expired, or another route’s are 403; a route no longer public, or of a plan without routes, is 404', async (t) => {
  let now = new Date();
  const harness = await startTestApp(t, { clock: () => now });
  const ws = await harness.workspace();
  const route = await plansRoute(harness, ws);
  const other = await plansRoute(harness, ws, 'Another route');
  const visit = await visitOf(harness, route.id);
  const otherVisit = await visitOf(harness, other.id);
  const entry = [{ type: 'step', index: 0, step_id: route.steps.entry }];
  const forbidden = async (token: string, message: RegExp) => {
    const res = await visit.post(entry, token);
    assert.equal(res.status, 403, res.raw);
    assert.equal(res.body.error.code, 'forbidden');
    assert.match(res.body.error.message, message);
    const lead = await http(harness, 'POST', `/r/${route.id}/lead`, {
      token,
      viewer_id: visit.viewerId,
      index: 0,
      step_id: route.steps.entry,
      email: 'x@example.com',
    });
    assert.equal(lead.status, 403, lead.raw);
  };
  const token = visit.data.token;
  const at = token.length - 5;
  await forbidden(`${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`, /not valid/);
  await forbidden('not-a-token', /not valid/);
  await forbidden(otherVisit.data.token, /another route/);
  // A viewing token of a step is not a route token, though it is signed with the same secret.
  await forbidden(visit.data.steps[0]?.video?.token ?? '', /not valid/);
  now = new Date(now.getTime() + 25 * 60 * 60 * 1000);
  await forbidden(token, /expired/);
  assert.equal(await visitRow(harness, visit.visitId), undefined);

  now = new Date();
  await harness.database.db.updateTable('routes').set({ status: 'paused' }).where('id', '=', route.id).execute();
  assert.equal((await visit.post(entry)).status, 200, 'a visit under way goes on recording while the route is paused');
  await harness.database.db.updateTable('routes').set({ status: 'archived' }).where('id', '=', route.id).execute();
  const gone = await visit.post([{ type: 'choice', index: 0, step_id: route.steps.entry, choice_id: route.choices.toPricing }]);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'not_found');

  // The route id in the path in capitals is the same route, for the page and for its token.
  const shouting = await http(harness, 'POST', `/r/${other.id.toUpperCase()}/events`, {
    token: otherVisit.data.token,
    viewer_id: otherVisit.viewerId,
    events: [{ type: 'step', index: 0, step_id: other.steps.entry }],
  });
  assert.equal(shouting.status, 200, shouting.raw);
  assert.equal((await http(harness, 'GET', `/r/${other.id.toUpperCase()}`)).status, 200);

  // A workspace whose plan lost interactive routes stops playing them: the page and its endpoints.
  await harness.database.db.updateTable('workspaces').set({ plan: 'free' }).where('id', '=', ws.id).execute();
  const page = await http(harness, 'GET', `/r/${other.id}`);
  assert.equal(page.status, 404);
  assert.match(page.raw, /This route is not available/);
  const unplanned = await otherVisit.post([{ type: 'step', index: 0, step_id: other.steps.entry }]);
  assert.equal(unplanned.status, 404, unplanned.raw);
});

test('PostgreSQL unreachable: the page is a 503 page with Retry-After, the endpoints a 503 answer', async (t) => {
  // Port 1 on loopback refuses connections at once, like a stopped server.
  const database = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none' });
  const app = await buildApp(await buildDependencies(testConfig(join(tmpdir(), 'cuepoint-route-outage')), { database }));
  t.after(async () => {
    await app.close();
    await database.close();
  });
  const routeId = randomUUID();
  const page = await app.inject({ method: 'GET', url: `/r/${routeId}` });
  assert.equal(page.statusCode, 503);
  assert.equal(page.headers['retry-after'], '5');
  assert.match(String(page.headers['content-type']), /^text\/html/);
  assert.match(page.body, /This route is temporarily unavailable/);
  const token = createRouteTokens(TEST_SECRET).issue(routeId, new Date()).token;
  const step = randomUUID();
  for (const [path, body] of [
    ['events', { token, viewer_id: newViewer(), events: [{ type: 'step', index: 0, step_id: step }] }],
    ['lead', { token, viewer_id: newViewer(), index: 0, step_id: step, email: 'outage@example.com' }],
  ] as const) {
    const res = await app.inject({
      method: 'POST',
      url: `/r/${routeId}/${path}`,
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
      payload: JSON.stringify(body),
    });
    assert.equal(res.statusCode, 503, `${path}: ${res.body}`);
    assert.equal(res.json().error.code, 'service_unavailable');
    assert.equal(res.headers['retry-after'], '5');
  }
});

test('a booking choice: the page carries its event type, and choosing it leaves the route without completing it', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const intro = await ws.addVideo({ title: 'Intro', duration_seconds: 30 });
  const eventTypeId = await ws.addEventType({ name: 'Intro call' });
  const route = await ws.addRoute({ name: 'Book from a video', status: 'live', videoIds: [intro] });
  const entry = route.stepIds[0] as string;
  const [toBooking] = (await wireStep(harness, ws.id, route, entry, 'Talk to us?', [
    { label: 'Book a call', target: 'booking', eventTypeId },
    { label: 'No thanks', target: 'end' },
  ])) as [string];

  const visit = await visitOf(harness, route.id);
  assert.deepEqual(
    visit.data.steps[0]?.choices.map((choice) => [choice.label, choice.target, choice.event_type_id]),
    [
      ['Book a call', 'booking', eventTypeId],
      ['No thanks', 'end', null],
    ],
  );
  const chose = await visit.post([
    { type: 'step', index: 0, step_id: entry },
    { type: 'choice', index: 0, step_id: entry, choice_id: toBooking },
  ]);
  assert.equal(chose.status, 200, chose.raw);
  const row = await visitRow(harness, visit.visitId);
  assert.deepEqual([row?.ended_by, row?.completed_at], ['url', null], 'the booking page is a link out, not a completion');
  const shown = await routeAsShown(harness, ws, route.id);
  assert.deepEqual(
    shown.steps[0]?.choices.map((choice) => [choice.label, choice.chosen]),
    [
      ['Book a call', 1],
      ['No thanks', 0],
    ],
  );
  assert.deepEqual(await completedEvents(harness, ws.id), []);
});
