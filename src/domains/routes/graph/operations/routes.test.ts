/**
 * The route operations over HTTP (and MCP): routes built from video ids and titles, steps added and
 * wired to every kind of target, re-wiring that keeps the ids of choices whose label stays, every
 * problem of a call named in one answer, going live only without problems, the list with its filters
 * and cursors, plans, scopes and tenancy, and a route whose video was archived.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../../test/helpers/app.ts';
import { callTool, connectMcp } from '../../../../../test/helpers/mcp-client.ts';
import { TIER_SCOPES } from '../../../../core/scopes.ts';

type Harness = TestApp;

const post = (harness: Harness, ws: TestWorkspace, path: string, body: unknown) =>
  harness.request('POST', `/v1${path}`, { token: ws.key, body });

/** A route over the API, from a new video with this title; its answer. */
async function newRoute(harness: Harness, ws: TestWorkspace, title = 'Entry') {
  await ws.addVideo({ title });
  const res = await post(harness, ws, '/routes', { entry_video: title });
  assert.equal(res.status, 201, res.raw);
  return res.body;
}

const problemFields = (res: { body: { error: { details: { errors: { field: string }[] } } } }) =>
  res.body.error.details.errors.map((error) => error.field);

test('create_route: from an id or an exact title; ambiguous, unknown, archived and unready videos are refused, each named', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const intro = await ws.addVideo({ title: 'Intro' });

  const byId = await post(harness, ws, '/routes', { entry_video: intro });
  assert.equal(byId.status, 201, byId.raw);
  assert.equal(byId.body.name, 'Intro', 'the name defaults to the entry video’s title');
  assert.equal(byId.body.status, 'draft');
  assert.equal(byId.body.step_count, 1);
  assert.deepEqual(byId.body.entry_video, { video_id: intro, title: 'Intro' });
  assert.equal(byId.body.entry_step_id, byId.body.steps[0].step_id);
  assert.deepEqual(byId.body.steps[0].video, { video_id: intro, title: 'Intro', available: true });
  assert.deepEqual([byId.body.steps[0].entry, byId.body.steps[0].question, byId.body.steps[0].choices], [true, null, []]);
  assert.equal(byId.body.url, `http://localhost:3000/r/${byId.body.route_id}`);
  assert.deepEqual([byId.body.starts, byId.body.completions, byId.body.completion_rate, byId.body.paths], [0, 0, 0, []]);
  assert.deepEqual(byId.body.problems, [], 'a single step without choices is a whole route: it ends where it starts');

  const byTitle = await post(harness, ws, '/routes', { entry_video: '  Intro ', name: '  Plan finder  ' });
  assert.equal(byTitle.status, 201, byTitle.raw);
  assert.deepEqual([byTitle.body.name, byTitle.body.entry_video.video_id], ['Plan finder', intro]);

  const twin = await ws.addVideo({ title: 'Twin' });
  const otherTwin = await ws.addVideo({ title: 'Twin' });
  const ambiguous = await post(harness, ws, '/routes', { entry_video: 'Twin' });
  assert.equal(ambiguous.status, 400, ambiguous.raw);
  assert.deepEqual(problemFields(ambiguous), ['entry_video']);
  for (const id of [twin, otherTwin]) assert.match(ambiguous.body.error.message, new RegExp(`${id} \\(“Twin”\\)`));

  const unknown = await post(harness, ws, '/routes', { entry_video: 'Nothing has this title' });
  assert.equal(unknown.status, 400, unknown.raw);
  assert.match(unknown.body.error.message, /entry_video: no video is titled exactly “Nothing has this title”/);

  const archived = await ws.addVideo({ title: 'Old', archived: true });
  const processing = await ws.addVideo({ title: 'Fresh', status: 'processing' });
  for (const [reference, why] of [
    [archived, /is archived/],
    ['Old', /is archived/],
    [processing, /is not ready yet \(processing\)/],
  ] as const) {
    const res = await post(harness, ws, '/routes', { entry_video: reference });
    assert.equal(res.status, 400, res.raw);
    assert.match(res.body.error.message, why);
  }

  // A shape problem and a database problem in one answer.
  const both = await post(harness, ws, '/routes', { entry_video: 'Nothing either', name: '' });
  assert.equal(both.status, 400, both.raw);
  assert.deepEqual(problemFields(both).sort(), ['entry_video', 'name']);
  assert.equal(
    await harness.database.db
      .selectFrom('routes')
      .where('workspace_id', '=', ws.id)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n)),
    2,
    'only the two accepted calls made routes',
  );
});

test('add_route_step and add_route_branches: every kind of target, and re-wiring keeps the ids of choices whose label stays', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await newRoute(harness, ws, 'Which plan?');
  const id = route.route_id;
  const before = route.updated_at;
  await ws.addVideo({ title: 'Pro plan' });
  await ws.addVideo({ title: 'Starter plan' });

  const step = await post(harness, ws, `/routes/${id}/steps`, { video: 'Pro plan' });
  assert.equal(step.status, 200, step.raw);
  assert.equal(step.body.step_count, 2);
  assert.equal(step.body.steps[1].step_id, step.body.step_id);
  assert.equal(step.body.steps[1].entry, false);
  assert.ok(step.body.updated_at >= before);
  assert.deepEqual(
    step.body.problems.map((p: { code: string; step_id: string }) => [p.code, p.step_id]),
    [['unreachable_step', step.body.step_id]],
    'a step nothing leads to is a problem until a choice does',
  );
  const pro = step.body.step_id as string;

  const wired = await post(harness, ws, `/routes/${id}/branches`, {
    question: 'Which plan fits you?',
    ask_at_second: 30,
    branches: [
      { label: 'Pro', to_step_id: pro },
      { label: 'Starter', to_video: 'Starter plan' },
      { label: 'Pricing page', url: 'https://example.com/pricing' },
      { label: 'Talk to us', lead_form: true },
      { label: 'Not now', end: true },
    ],
  });
  assert.equal(wired.status, 200, wired.raw);
  assert.equal(wired.body.step_count, 3, 'to_video added a step');
  const entry = wired.body.steps[0];
  const starter = wired.body.steps[2];
  assert.equal(starter.video.title, 'Starter plan');
  assert.deepEqual([entry.question, entry.ask_at_second], ['Which plan fits you?', 30]);
  assert.deepEqual(
    entry.choices.map((c: Record<string, unknown>) => [c.label, c.target, c.to_step_id, c.url, c.chosen, c.share]),
    [
      ['Pro', 'step', pro, null, 0, 0],
      ['Starter', 'step', starter.step_id, null, 0, 0],
      ['Pricing page', 'url', null, 'https://example.com/pricing', 0, 0],
      ['Talk to us', 'lead_form', null, null, 0, 0],
      ['Not now', 'end', null, null, 0, 0],
    ],
  );
  assert.deepEqual(wired.body.problems, []);

  // The Pro step wired on from_step_id; then the entry step re-wired: "pro" keeps its id whatever the case.
  const fromPro = await post(harness, ws, `/routes/${id}/branches`, {
    from_step_id: pro,
    question: 'Ready?',
    branches: [
      { label: 'Again', to_step_id: pro },
      { label: 'Done', end: true },
    ],
  });
  assert.equal(fromPro.status, 200, fromPro.raw);
  assert.deepEqual(
    fromPro.body.steps[1].choices.map((c: { label: string }) => c.label),
    ['Again', 'Done'],
  );
  const rewired = await post(harness, ws, `/routes/${id}/branches`, {
    branches: [
      { label: 'Finish', end: true },
      { label: ' pro ', to_step_id: pro },
    ],
  });
  assert.equal(rewired.status, 200, rewired.raw);
  const choices = rewired.body.steps[0].choices;
  const old = new Map(entry.choices.map((c: { label: string; choice_id: string }) => [c.label, c.choice_id]));
  assert.deepEqual(
    choices.map((c: { label: string }) => c.label),
    ['Finish', 'pro'],
  );
  assert.equal(choices[1].choice_id, old.get('Pro'), 'the same label (trimmed, any case) keeps the choice’s id');
  assert.ok(![...old.values()].includes(choices[0].choice_id), 'a new label is a new choice');
  assert.deepEqual([rewired.body.steps[0].question, rewired.body.steps[0].ask_at_second], [null, null]);
  const stored = await harness.database.db
    .selectFrom('route_choices')
    .where('workspace_id', '=', ws.id)
    .where('step_id', '=', entry.step_id)
    .select(['id', 'label', 'retired_at'])
    .execute();
  const retired = stored.filter((c) => c.retired_at !== null).map((c) => c.label);
  assert.deepEqual(retired.sort(), ['Not now', 'Pricing page', 'Starter', 'Talk to us'], 'dropped choices are kept, retired');
  assert.equal(stored.filter((c) => c.retired_at === null).length, 2);
  assert.deepEqual(
    rewired.body.problems.map((p: { code: string; step_id: string }) => [p.code, p.step_id]),
    [['unreachable_step', starter.step_id]],
    'the starter step lost the only choice leading to it',
  );

  // A route and a step of another route of the same workspace cannot be mixed.
  const other = await newRoute(harness, ws, 'Elsewhere');
  const mixed = await post(harness, ws, `/routes/${id}/branches`, {
    from_step_id: other.entry_step_id,
    branches: [{ label: 'There', to_step_id: other.entry_step_id }],
  });
  assert.equal(mixed.status, 400, mixed.raw);
  assert.deepEqual(problemFields(mixed), ['from_step_id', 'branches[0].to_step_id']);
  assert.match(mixed.body.error.message, /is not a step of this route/);
});

test('add_route_branches names every problem at once, shape and database alike', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await newRoute(harness, ws, 'Start here');
  const foreign = await harness.workspace();
  const theirs = await foreign.addRoute();

  const res = await post(harness, ws, `/routes/${route.route_id}/branches`, {
    question: 'Pick one',
    ask_at_second: 61,
    branches: [
      { label: 'Fine', end: true },
      { label: '', end: true },
      { label: 'FINE', lead_form: true },
      { label: 'Insecure', url: 'http://example.com/page' },
      { label: 'Theirs', to_step_id: theirs.stepIds[0] },
      { label: 'Ghost', to_video: 'No such video' },
      { label: 'Both', end: true, lead_form: true },
    ],
  });
  assert.equal(res.status, 400, res.raw);
  assert.equal(res.body.error.code, 'invalid_request');
  assert.deepEqual(problemFields(res).sort(), [
    'ask_at_second',
    'branches',
    'branches[1].label',
    'branches[2].label',
    'branches[3].url',
    'branches[4].to_step_id',
    'branches[5].to_video',
    'branches[6]',
  ]);
  const message = res.body.error.message as string;
  assert.match(message, /branches: lists 7 items; at most 6 are accepted/);
  assert.match(message, /branches\[2\]\.label: repeats the label of branches\[0\]\.label/);
  assert.match(message, /branches\[3\]\.url: must be an https link/);
  assert.ok(message.includes(`branches[4].to_step_id: no route step in this workspace has the id ${theirs.stepIds[0]}`), message);
  assert.match(message, /branches\[5\]\.to_video: no video is titled exactly “No such video”/);
  assert.match(message, /branches\[6\]: needs exactly one target .*it has 2: lead_form, end/);
  assert.match(message, /ask_at_second: is past the end of the step’s video, which is 60 seconds long/);
  assert.ok(!message.includes('Route entry'), 'nothing of another workspace’s step is shown, only the id that was sent');

  // A valid shape with problems only the database shows: the handler names them all too.
  const loop = await post(harness, ws, `/routes/${route.route_id}/branches`, {
    branches: [
      { label: 'Again', to_step_id: route.entry_step_id },
      { label: 'Once more', to_step_id: route.entry_step_id },
    ],
  });
  assert.equal(loop.status, 400, loop.raw);
  assert.match(loop.body.error.message, /branches: every choice plays step 1 \(“Start here”\) again; add a way out/);
  // A step id no step of the workspace has (another workspace's) is not_found, whatever else is wrong.
  const unknownFrom = await post(harness, ws, `/routes/${route.route_id}/branches`, {
    from_step_id: theirs.stepIds[0],
    branches: [{ label: 'Fine', to_video: 'Nothing' }],
  });
  assert.equal(unknownFrom.status, 404, unknownFrom.raw);
  assert.equal(unknownFrom.body.error.code, 'not_found');
  assert.equal(unknownFrom.body.error.message, `No route step with id ${theirs.stepIds[0]} in this workspace.`);
  assert.deepEqual(problemFields(unknownFrom), ['from_step_id']);
  const nothingWired = await harness.request('GET', `/v1/routes/${route.route_id}`, { token: ws.key });
  assert.deepEqual(nothingWired.body.steps[0].choices, [], 'a refused call changes nothing');
});

test('a route has at most 50 steps, whichever operation adds them', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const video = await ws.addVideo({ title: 'Loop' });
  const full = await ws.addRoute({ videoIds: Array.from({ length: 50 }, () => video) });
  const step = await post(harness, ws, `/routes/${full.id}/steps`, { video: 'Loop' });
  assert.equal(step.status, 400, step.raw);
  assert.match(step.body.error.message, /video: would add a step to a route of 50; a route has at most 50 steps/);
  const almost = await ws.addRoute({ videoIds: Array.from({ length: 49 }, () => video) });
  await ws.addVideo({ title: 'Other' });
  await ws.addVideo({ title: 'Third' });
  const branches = await post(harness, ws, `/routes/${almost.id}/branches`, {
    branches: [
      { label: 'A', to_video: 'Third' },
      { label: 'B', to_video: 'Other' },
    ],
  });
  assert.equal(branches.status, 400, branches.raw);
  assert.match(branches.body.error.message, /branches: would add 2 steps to a route of 49/);
  const shared = await post(harness, ws, `/routes/${almost.id}/branches`, {
    branches: [
      { label: 'A', to_video: 'Loop' },
      { label: 'B', to_video: video },
    ],
  });
  assert.equal(shared.status, 200, shared.raw);
  assert.equal(shared.body.step_count, 49, 'a step of that video nothing led to is played, not a new one added');
  assert.equal(shared.body.steps[0].choices[0].to_step_id, shared.body.steps[1].step_id, 'the first such step');
  assert.equal(shared.body.steps[0].choices[0].to_step_id, shared.body.steps[0].choices[1].to_step_id);
});

test('update_route: going live is refused while there are problems, each named; then live, paused, archived and back', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await newRoute(harness, ws, 'Welcome');
  const id = route.route_id;
  await ws.addVideo({ title: 'Orphan' });
  await ws.addVideo({ title: 'Circle' });
  const orphan = await post(harness, ws, `/routes/${id}/steps`, { video: 'Orphan' });
  const wired = await post(harness, ws, `/routes/${id}/branches`, { branches: [{ label: 'Go round', to_video: 'Circle' }] });
  const circle = wired.body.steps[2].step_id;
  await post(harness, ws, `/routes/${id}/branches`, {
    from_step_id: circle,
    branches: [{ label: 'Back', to_step_id: route.entry_step_id }],
  });

  const patch = (body: unknown) => harness.request('PATCH', `/v1/routes/${id}`, { token: ws.key, body });
  const refused = await patch({ status: 'live', name: 'Renamed' });
  assert.equal(refused.status, 400, refused.raw);
  assert.deepEqual(problemFields(refused), ['status', 'status', 'status']);
  assert.match(refused.body.error.message, /status: cannot be live: step 1 \(“Welcome”\): no chain of choices from it reaches an end/);
  assert.match(refused.body.error.message, /step 2 \(“Orphan”\): no choice leads to it from the entry step/);
  assert.match(refused.body.error.message, /step 3 \(“Circle”\): no chain of choices/);
  const unchanged = await harness.request('GET', `/v1/routes/${id}`, { token: ws.key });
  assert.deepEqual([unchanged.body.name, unchanged.body.status], ['Welcome', 'draft'], 'a refused update changes nothing');
  assert.deepEqual(
    unchanged.body.problems.map((p: { code: string }) => p.code),
    ['no_way_to_end', 'unreachable_step', 'no_way_to_end'],
  );

  await post(harness, ws, `/routes/${id}/branches`, {
    from_step_id: circle,
    branches: [
      { label: 'Back', to_step_id: route.entry_step_id },
      { label: 'Orphan', to_step_id: orphan.body.step_id },
    ],
  });
  const live = await patch({ status: 'live', name: '  Renamed  ' });
  assert.equal(live.status, 200, live.raw);
  assert.deepEqual([live.body.status, live.body.name, live.body.problems], ['live', 'Renamed', []]);
  assert.ok(live.body.updated_at > route.updated_at);
  for (const status of ['paused', 'archived', 'draft', 'live']) {
    const res = await patch({ status });
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.status, status);
  }
  const same = await patch({ name: 'Renamed' });
  assert.equal(same.body.updated_at, (await patch({})).body.updated_at, 'nothing changed, nothing moved');
  assert.equal((await patch({ name: '   ' })).status, 400);
  assert.equal((await patch({ status: 'deleted' })).status, 400);
});

test('list_routes: newest first, archived ones only when asked, filtered by video and status, cursors bound to filters', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const shared = await ws.addVideo({ title: 'Shared' });
  const alone = await ws.addVideo({ title: 'Alone' });
  const made: string[] = [];
  for (let i = 0; i < 5; i++) {
    const route = await ws.addRoute({ name: `Route ${i}`, videoIds: i % 2 === 0 ? [alone, shared] : [alone] });
    made.push(route.id);
    // A second apart, so that newest first is one order whatever the clock's resolution.
    const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, i));
    await harness.database.db.updateTable('routes').set({ created_at: createdAt }).where('id', '=', route.id).execute();
  }
  const archived = await ws.addRoute({ name: 'Gone', status: 'archived', videoIds: [shared] });
  const live = await ws.addRoute({ name: 'On air', status: 'live', videoIds: [shared] });
  const list = (query: string) => harness.request('GET', `/v1/routes${query}`, { token: ws.key });

  const all = await list('');
  assert.equal(all.status, 200, all.raw);
  assert.deepEqual(all.body.routes.map((r: { route_id: string }) => r.route_id).sort(), [...made, live.id].sort());
  assert.equal(all.body.pagination.total, 6);
  const first = all.body.routes.find((r: { route_id: string }) => r.route_id === made[0]);
  assert.deepEqual([first.step_count, first.entry_video, first.starts, first.completions], [2, { video_id: alone, title: 'Alone' }, 0, 0]);

  const usingShared = await list(`?video_id=${shared}`);
  assert.deepEqual(
    usingShared.body.routes.map((r: { name: string }) => r.name).sort(),
    ['On air', 'Route 0', 'Route 2', 'Route 4'],
    'a video used by a later step counts too',
  );
  assert.deepEqual(
    (await list('?status=archived')).body.routes.map((r: { route_id: string }) => r.route_id),
    [archived.id],
  );
  assert.deepEqual(
    (await list(`?status=live&video_id=${shared}`)).body.routes.map((r: { route_id: string }) => r.route_id),
    [live.id],
  );

  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof list>> = await list(`?status=draft&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(page.status, 200, page.raw);
    assert.equal(page.body.pagination.total, 5);
    seen.push(...page.body.routes.map((r: { route_id: string }) => r.route_id));
    cursor = page.body.pagination.next_cursor;
  } while (cursor);
  assert.deepEqual(seen, [...made].reverse(), 'every draft once, newest first');
  const firstPage = await list('?status=draft&limit=2');
  const reused = await list(`?status=live&limit=2&cursor=${firstPage.body.pagination.next_cursor}`);
  assert.equal(reused.status, 400, reused.raw);
  assert.match(reused.body.error.message, /cursor: was issued for another route or other filters/);
});

test('plans, scopes and tenancy: free plans, read keys and another workspace’s routes and steps are refused', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await newRoute(harness, ws, 'Mine');
  const free = await harness.workspace('free');
  await free.addVideo({ title: 'Mine' });
  const limited = await post(harness, free, '/routes', { entry_video: 'Mine' });
  assert.equal(limited.status, 403, limited.raw);
  assert.deepEqual([limited.body.error.code, limited.body.error.details.entitlement], ['plan_limit', 'interactive_routes']);
  assert.equal((await harness.request('GET', '/v1/routes', { token: free.key })).body.error.code, 'plan_limit');

  const reader = await ws.mintKey({ scopes: TIER_SCOPES.read });
  const read = await harness.request('GET', `/v1/routes/${route.route_id}`, { token: reader.key });
  assert.equal(read.status, 200, read.raw);
  const write = await harness.request('PATCH', `/v1/routes/${route.route_id}`, { token: reader.key, body: { status: 'paused' } });
  assert.equal(write.status, 403, write.raw);
  assert.deepEqual([write.body.error.code, write.body.error.details.required_scope], ['forbidden', 'routes:write']);

  const other = await harness.workspace();
  const theirs = await other.addRoute({ name: 'Theirs' });
  for (const [method, path, body] of [
    ['GET', `/routes/${theirs.id}`, undefined],
    ['PATCH', `/routes/${theirs.id}`, { status: 'paused' }],
    ['POST', `/routes/${theirs.id}/steps`, { video: 'Mine' }],
    ['POST', `/routes/${theirs.id}/branches`, { branches: [{ label: 'End', end: true }] }],
  ] as const) {
    const res = await harness.request(method, `/v1${path}`, { token: ws.key, body });
    assert.equal(res.status, 404, `${method} ${path}: ${res.raw}`);
    assert.equal(res.body.error.code, 'not_found');
  }
  const theirStep = await post(harness, ws, `/routes/${route.route_id}/branches`, {
    from_step_id: theirs.stepIds[0],
    branches: [{ label: 'Over there', to_step_id: theirs.stepIds[0] }],
  });
  assert.equal(theirStep.status, 404, theirStep.raw);
  assert.equal(theirStep.body.error.code, 'not_found');
  assert.equal(theirStep.body.error.message, `No route step with id ${theirs.stepIds[0]} in this workspace.`);
  assert.deepEqual(problemFields(theirStep), ['from_step_id', 'branches[0].to_step_id']);
  assert.ok(!theirStep.raw.includes('Theirs'), 'nothing of the other workspace’s route is shown');
  // A video id is not a title: another workspace's, or one nobody has, is not_found too.
  const theirVideo = await other.addVideo({ title: 'Their video' });
  for (const [path, body] of [
    ['/routes', { entry_video: theirVideo }],
    [`/routes/${route.route_id}/steps`, { video: theirVideo }],
    [`/routes/${route.route_id}/branches`, { branches: [{ label: 'Theirs', to_video: theirVideo }] }],
    [`/routes/${route.route_id}/branches`, { branches: [{ label: 'Nobody’s', to_video: randomUUID() }] }],
  ] as const) {
    const res = await post(harness, ws, path, body);
    assert.equal(res.status, 404, `${path}: ${res.raw}`);
    assert.match(res.body.error.message, /^No video with id [0-9a-f-]{36} in this workspace\.$/);
    assert.ok(!res.raw.includes('Their video'));
  }
  const theirRow = await harness.database.db
    .selectFrom('routes')
    .select(['status', 'name'])
    .where('id', '=', theirs.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(theirRow, { status: 'draft', name: 'Theirs' });
});

test('archiving a video a route plays: the step shows unavailable, get_route reports broken_video, going live is refused', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await newRoute(harness, ws, 'Hello');
  const next = await ws.addVideo({ title: 'Next' });
  await post(harness, ws, `/routes/${route.route_id}/branches`, { branches: [{ label: 'On', to_video: next }] });
  const archive = await harness.request('PATCH', `/v1/videos/${next}`, { token: ws.key, body: { archived: true } });
  assert.equal(archive.status, 200, archive.raw);

  const res = await harness.request('GET', `/v1/routes/${route.route_id}`, { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  const step = res.body.steps[1];
  assert.deepEqual(step.video, { video_id: next, title: 'Next', available: false });
  assert.deepEqual(
    res.body.problems.map((p: { code: string; step_id: string }) => [p.code, p.step_id]),
    [['broken_video', step.step_id]],
  );
  const live = await harness.request('PATCH', `/v1/routes/${route.route_id}`, { token: ws.key, body: { status: 'live' } });
  assert.equal(live.status, 400, live.raw);
  assert.match(live.body.error.message, /status: cannot be live: step 2 \(“Next”\): its video is archived/);

  // Over MCP: the same operations, the same answers.
  const client = await connectMcp(t, harness.app, ws.key);
  const got = await callTool(client, 'get_route', { route_id: route.route_id });
  assert.notEqual(got.isError, true, JSON.stringify(got.content));
  assert.deepEqual(got.structuredContent.problems, res.body.problems);
  await harness.request('PATCH', `/v1/videos/${next}`, { token: ws.key, body: { archived: false } });
  const wentLive = await callTool(client, 'update_route', { route_id: route.route_id, status: 'live' });
  assert.notEqual(wentLive.isError, true, JSON.stringify(wentLive.content));
  assert.equal(wentLive.structuredContent.status, 'live');
  const refused = await callTool(client, 'add_route_branches', {
    route_id: route.route_id,
    branches: [{ label: 'Loop', to_step_id: route.entry_step_id }],
  });
  assert.equal(refused.isError, true);
  assert.equal(refused.structuredContent.error.code, 'invalid_request');
  assert.match(refused.structuredContent.error.message, /every choice plays step 1/);
  const listed = await callTool(client, 'list_routes', { video_id: next });
  assert.deepEqual(
    listed.structuredContent.routes.map((r: { route_id: string }) => r.route_id),
    [route.route_id],
  );
});

test('a live route stays sound: wiring that would strand viewers, a lone new step and live-on-live over problems are refused', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await newRoute(harness, ws, 'Start');
  await ws.addVideo({ title: 'Next' });
  const wired = await post(harness, ws, `/routes/${route.route_id}/branches`, { branches: [{ label: 'Go on', to_video: 'Next' }] });
  assert.equal(wired.status, 200, wired.raw);
  const next = wired.body.steps[1].step_id;
  const live = await harness.request('PATCH', `/v1/routes/${route.route_id}`, { token: ws.key, body: { status: 'live' } });
  assert.equal(live.status, 200, live.raw);

  // Next back to Start, with no way out: a loop viewers would be stuck in. Nothing of it is kept.
  const loop = await post(harness, ws, `/routes/${route.route_id}/branches`, {
    from_step_id: next,
    branches: [{ label: 'Back', to_step_id: route.entry_step_id }],
  });
  assert.equal(loop.status, 400, loop.raw);
  assert.deepEqual(problemFields(loop), ['branches', 'branches']);
  assert.match(loop.body.error.message, /would give the live route a problem viewers would meet: step 1 \(“Start”\): no chain of choices/);
  const after = await harness.request('GET', `/v1/routes/${route.route_id}`, { token: ws.key });
  assert.deepEqual(after.body.steps[1].choices, [], 'the refused wiring left nothing behind');
  assert.deepEqual(after.body.problems, []);

  // A step on its own would be unreachable; added and wired in one call, it is fine.
  await ws.addVideo({ title: 'Extra' });
  const lone = await post(harness, ws, `/routes/${route.route_id}/steps`, { video: 'Extra' });
  assert.equal(lone.status, 400, lone.raw);
  assert.match(lone.body.error.message, /video: cannot be added to a live route on its own/);
  const throughBranches = await post(harness, ws, `/routes/${route.route_id}/branches`, {
    from_step_id: next,
    branches: [
      { label: 'More', to_video: 'Extra' },
      { label: 'Done', end: true },
    ],
  });
  assert.equal(throughBranches.status, 200, throughBranches.raw);
  assert.equal(throughBranches.body.step_count, 3);
  assert.deepEqual(throughBranches.body.problems, []);

  // A video archived while live breaks the route; asking for live again says so, with a bad name too.
  await harness.database.db
    .updateTable('videos')
    .set({ archived: true })
    .where('title', '=', 'Extra')
    .where('workspace_id', '=', ws.id)
    .execute();
  const again = await harness.request('PATCH', `/v1/routes/${route.route_id}`, { token: ws.key, body: { status: 'live', name: ' ' } });
  assert.equal(again.status, 400, again.raw);
  assert.deepEqual(problemFields(again), ['name', 'status']);
  assert.match(again.body.error.message, /status: cannot be live: step 3 \(“Extra”\): its video is archived/);
  // Earlier problems do not block other edits of a live route.
  const relabel = await post(harness, ws, `/routes/${route.route_id}/branches`, { branches: [{ label: 'Continue', to_step_id: next }] });
  assert.equal(relabel.status, 200, relabel.raw);
});

test('to_video sent again plays the step it made instead of adding another; labels must show and compare in one Unicode form', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await newRoute(harness, ws, 'Start');
  await ws.addVideo({ title: 'Security basics' });
  const wiring = {
    question: 'Which?',
    branches: [
      { label: 'More', to_video: 'Security basics' },
      { label: 'Stop', end: true },
    ],
  };
  for (let i = 0; i < 3; i++) {
    const res = await post(harness, ws, `/routes/${route.route_id}/branches`, wiring);
    assert.equal(res.status, 200, res.raw);
    assert.equal(res.body.step_count, 2, `send ${i + 1}: one step for the video`);
    assert.deepEqual(res.body.problems, []);
  }
  // A step added on its own, then named by its video: wired, not doubled.
  await ws.addVideo({ title: 'Pricing' });
  const added = await post(harness, ws, `/routes/${route.route_id}/steps`, { video: 'Pricing' });
  const wiredIn = await post(harness, ws, `/routes/${route.route_id}/branches`, {
    branches: [
      { label: 'Price', to_video: 'Pricing' },
      { label: 'More', to_video: 'Security basics' },
    ],
  });
  assert.equal(wiredIn.status, 200, wiredIn.raw);
  assert.equal(wiredIn.body.step_count, 3);
  assert.equal(wiredIn.body.steps[0].choices[0].to_step_id, added.body.step_id);
  assert.deepEqual(wiredIn.body.problems, []);

  const unseen = await post(harness, ws, `/routes/${route.route_id}/branches`, {
    question: 'Line one\nline two',
    branches: [
      { label: '\u200b', end: true },
      { label: 'a\u202eb', end: true },
      { label: 'Caf\u00e9', end: true },
      { label: 'Cafe\u0301', end: true },
    ],
  });
  assert.equal(unseen.status, 400, unseen.raw);
  assert.deepEqual(problemFields(unseen), ['question', 'branches[0].label', 'branches[1].label', 'branches[3].label']);
  assert.match(unseen.body.error.message, /branches\[3\]\.label: repeats the label of branches\[2\]\.label/);
});

test('add_route_branches: a choice opens an active event type’s booking page; unknown, foreign and inactive ones are named', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await newRoute(harness, ws, 'Interested?');
  const intro = await ws.addEventType({ name: 'Intro call' });
  const retired = await ws.addEventType({ name: 'Old call', active: false });
  const other = await harness.workspace();
  const foreign = await other.addEventType({ name: 'Their call' });

  const refused = await post(harness, ws, `/routes/${route.route_id}/branches`, {
    branches: [
      { label: 'Unknown', event_type_id: '00000000-0000-4000-8000-000000000000' },
      { label: 'Theirs', event_type_id: foreign },
      { label: 'Old', event_type_id: retired },
      { label: 'Two targets', event_type_id: intro, end: true },
      { label: '', event_type_id: intro },
    ],
  });
  assert.equal(refused.status, 400, refused.raw);
  const problems = Object.fromEntries(
    refused.body.error.details.errors.map((error: { field: string; problem: string }) => [error.field, error.problem]),
  );
  assert.deepEqual(Object.keys(problems).sort(), [
    'branches[0].event_type_id',
    'branches[1].event_type_id',
    'branches[2].event_type_id',
    'branches[3]',
    'branches[4].label',
  ]);
  assert.equal(problems['branches[0].event_type_id'], 'no event type in this workspace has the id 00000000-0000-4000-8000-000000000000');
  assert.equal(
    problems['branches[1].event_type_id'],
    `no event type in this workspace has the id ${foreign}`,
    'another workspace’s event type reads as unknown',
  );
  assert.ok(!refused.raw.includes('Their call'), 'nothing of the other workspace is named');
  assert.match(problems['branches[2].event_type_id'], /is inactive \(“Old call”\)/);
  assert.match(problems['branches[3]'], /exactly one target \(.*event_type_id.*\); it has 2: event_type_id, end/);

  // Well-formed, the same unknown ids are not_found, named with the fields that sent them.
  const missing = await post(harness, ws, `/routes/${route.route_id}/branches`, {
    branches: [
      { label: 'Unknown', event_type_id: '00000000-0000-4000-8000-000000000000' },
      { label: 'Theirs', event_type_id: foreign },
      { label: 'Old', event_type_id: retired },
    ],
  });
  assert.equal(missing.status, 404, missing.raw);
  assert.equal(
    missing.body.error.message,
    `No event type with id 00000000-0000-4000-8000-000000000000; no event type with id ${foreign} in this workspace.`,
  );
  assert.deepEqual(
    missing.body.error.details.errors.map((error: { field: string }) => error.field),
    ['branches[0].event_type_id', 'branches[1].event_type_id'],
  );
  assert.ok(!missing.raw.includes('Their call'), 'nothing of the other workspace is named');

  const wired = await post(harness, ws, `/routes/${route.route_id}/branches`, {
    question: 'Want to talk?',
    branches: [
      { label: 'Book a call', event_type_id: intro.toUpperCase() },
      { label: 'Not now', end: true },
    ],
  });
  assert.equal(wired.status, 200, wired.raw);
  const [book, notNow] = wired.body.steps[0].choices;
  assert.deepEqual(
    [book.target, book.event_type_id, book.booking_url, book.url, book.to_step_id],
    ['booking', intro, `http://localhost:3000/book/${intro}`, null, null],
  );
  assert.deepEqual([notNow.event_type_id, notNow.booking_url], [null, null]);
  assert.deepEqual(wired.body.problems, []);
  const live = await harness.request('PATCH', `/v1/routes/${route.route_id}`, { token: ws.key, body: { status: 'live' } });
  assert.equal(live.status, 200, 'a booking choice is a way out of the route');

  // Deactivated later: the route reports it, like a broken video, and get_route shows it.
  const off = await harness.request('PATCH', `/v1/scheduling/event-types/${intro}`, { token: ws.key, body: { active: false } });
  assert.equal(off.status, 200, off.raw);
  const shown = await harness.request('GET', `/v1/routes/${route.route_id}`, { token: ws.key });
  assert.deepEqual(
    shown.body.problems.map((p: { code: string; step_id: string }) => [p.code, p.step_id]),
    [['inactive_event_type', route.entry_step_id]],
  );
  assert.match(shown.body.problems[0].message, /“Book a call” opens the booking page of “Intro call”, which is inactive/);
  const relive = await harness.request('PATCH', `/v1/routes/${route.route_id}`, { token: ws.key, body: { status: 'live' } });
  assert.equal(relive.status, 400, 'asking for live again names the problem');
  assert.match(relive.body.error.message, /which is inactive/);
});

test('list_routes by a video not of the workspace is not_found, not an empty list', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const other = await harness.workspace();
  const theirVideo = await other.addVideo({ title: 'Their video' });
  await other.addRoute({ name: 'Theirs', videoIds: [theirVideo] });
  for (const videoId of [theirVideo, randomUUID()]) {
    const res = await harness.request('GET', `/v1/routes?video_id=${videoId}`, { token: ws.key });
    assert.equal(res.status, 404, res.raw);
    assert.deepEqual([res.body.error.code, res.body.error.message], ['not_found', `No video with id ${videoId} in this workspace.`]);
  }
  const mine = await harness.request('GET', `/v1/routes?video_id=${await ws.addVideo()}`, { token: ws.key });
  assert.equal(mine.status, 200, mine.raw);
  assert.deepEqual(mine.body.routes, []);
});
