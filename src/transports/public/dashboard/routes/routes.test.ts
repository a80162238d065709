/**
 * The routes area (issue 28): the list and a route's page render for every role; a writer creates a
 * route, adds a step, wires choices (to a step, a new step of a video, a link, the end), goes live,
 * pauses, resumes and archives, each checked through the API; problems come back beside their fields
 * with what was typed kept; a viewer is offered no control and the server refuses their posts anyway.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { csrfOf, signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

test('every role reads the list and a route’s page with its graph; only writers are offered the controls', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const tour = await ws.addVideo({ title: 'Product tour' });
  const starter = await ws.addVideo({ title: 'The starter plan' });
  const route = await ws.addRoute({ name: 'Which plan fits you?', videoIds: [tour, starter] });
  for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
    const member = await ws.addMember({ role, password: PASSWORD });
    const person = await signIn(harness.app, member.email, PASSWORD);
    const list = await person.get('/app/routes');
    assert.equal(list.statusCode, 200, `${role}: ${list.body.slice(0, 300)}`);
    assert.match(list.body, /<a href="\/app\/routes\/[^"]+">Which plan fits you\?<\/a>/);
    assert.match(list.body, /<span class="share"><svg/, `${role}: the completion rate as a share bar`);
    const page = await person.get(`/app/routes/${route.id}`);
    assert.equal(page.statusCode, 200);
    assert.match(
      page.body,
      /<svg viewBox="[^"]+" width="\d+" height="\d+" role="img" aria-labelledby="route-graph-title route-graph-desc">/,
    );
    assert.match(page.body, /<title id="route-graph-title">The graph of “Which plan fits you\?”<\/title>/);
    assert.match(page.body, /<ol class="route-steps">.*Step 1: Product tour.*Step 2: The starter plan/s);
    assert.match(page.body, /no choice leads to it from the entry step/, 'the API’s problem is shown');
    assert.match(page.body, /<h2 id="funnel-heading">Funnel<\/h2><p class="empty">No visits yet/, 'the funnel, empty before any visit');
    const writes = role !== 'viewer';
    assert.equal(/New route/.test(list.body), writes, `${role}: New route offered?`);
    assert.equal(/>Go live<\/button>/.test(page.body), writes, `${role}: Go live offered?`);
    assert.equal(/Edit choices/.test(page.body), writes, `${role}: Edit choices offered?`);
  }
});

test('a member builds a route from the forms: create, add a step, wire it, go live, pause, resume, archive', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const tour = await ws.addVideo({ title: 'Product tour' });
  const starter = await ws.addVideo({ title: 'The starter plan' });
  const team = await ws.addVideo({ title: 'The team plan' });
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const person = await signIn(harness.app, member.email, PASSWORD);
  const list = await person.get('/app/routes');
  const csrf = csrfOf(list.body);
  assert.match(list.body, /<option value="[^"]+">Product tour<\/option>/, 'ready videos are offered');

  assert.equal((await person.post('/app/routes', { entry_video: tour, name: 'No token' })).statusCode, 403, 'no CSRF token');
  const created = await person.post('/app/routes', { csrf, entry_video: tour, name: 'Which plan fits you?' });
  assert.equal(created.statusCode, 303);
  const location = created.headers.location as string;
  assert.match(location, /^\/app\/routes\/[0-9a-f-]{36}\?done=created$/);
  const routeId = location.split('/')[3]?.split('?')[0] as string;
  const api = async () => (await harness.request('GET', `/v1/routes/${routeId}`, { token: ws.key })).body;
  assert.equal((await api()).name, 'Which plan fits you?');
  assert.match((await person.get(location)).body, /The route is created as a draft/);

  assert.equal((await person.post(`/app/routes/${routeId}/steps`, { csrf, video: starter })).statusCode, 303);
  const withStep = await api();
  assert.equal(withStep.steps.length, 2);
  const [entry, second] = withStep.steps as { step_id: string }[];

  const editor = await person.get(`/app/routes/${routeId}/steps/${entry?.step_id}`);
  assert.equal(editor.statusCode, 200);
  assert.match(editor.body, /<script src="\/app\/assets\/routes-editor\.js\?v=[^"]+" defer><\/script>/);
  const wired = await person.post(`/app/routes/${routeId}/steps/${entry?.step_id}`, {
    csrf,
    question: 'How big is your team?',
    label_0: 'Just me',
    target_0: 'step',
    to_step_0: second?.step_id as string,
    label_1: '2 to 10',
    target_1: 'new_step',
    to_video_1: team,
    label_2: 'Read the pricing',
    target_2: 'url',
    url_2: 'https://example.com/pricing',
    label_3: 'Not now',
    target_3: 'end',
  });
  assert.equal(wired.statusCode, 303, wired.body.slice(0, 500));
  const graph = await api();
  const choices = graph.steps[0].choices.map((c: { label: string; target: string }) => `${c.label}:${c.target}`);
  assert.deepEqual(choices, ['Just me:step', '2 to 10:step', 'Read the pricing:url', 'Not now:end']);
  assert.equal(graph.steps[0].question, 'How big is your team?');
  assert.equal(graph.steps.length, 3, 'the new step of “The team plan” was added');
  assert.deepEqual(graph.problems, []);

  for (const [status, label] of [
    ['live', 'Go live'],
    ['paused', 'Pause'],
    ['live', 'Resume'],
    ['archived', 'Archive'],
  ] as const) {
    const page = await person.get(`/app/routes/${routeId}`);
    assert.match(
      page.body,
      new RegExp(`<input type="hidden" name="status" value="${status}"><button type="submit"[^>]*>${label}</button>`),
    );
    const moved = await person.post(`/app/routes/${routeId}/status`, { csrf, status });
    assert.equal(moved.statusCode, 303);
    assert.equal((await api()).status, status);
  }
  assert.equal((await person.get('/app/routes')).body.includes('Which plan fits you?'), false, 'archived routes leave the list');
  assert.match((await person.get('/app/routes?status=archived')).body, /Which plan fits you\?/);
});

test('problems come back beside their fields with the values kept', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const tour = await ws.addVideo({ title: 'Product tour' });
  const route = await ws.addRoute({ name: 'Draft route', videoIds: [tour, await ws.addVideo({ title: 'Loose end' })] });
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const person = await signIn(harness.app, owner.email, PASSWORD);
  const csrf = csrfOf((await person.get('/app/routes')).body);

  const noVideo = await person.post('/app/routes', { csrf, entry_video: '', name: 'Kept name' });
  assert.equal(noVideo.statusCode, 400);
  assert.match(
    noVideo.body,
    /<select id="route-entry" name="entry_video" required aria-invalid="true" aria-describedby="route-entry-error">/,
  );
  assert.match(noVideo.body, /<span class="field-error" id="route-entry-error">[^<]+<\/span>/);
  assert.match(noVideo.body, /value="Kept name"/);

  const live = await person.post(`/app/routes/${route.id}/status`, { csrf, status: 'live' });
  assert.equal(live.statusCode, 400);
  assert.match(live.body, /It did not go live: fix these first/);
  assert.match(live.body, /no choice leads to it from the entry step/);
  assert.equal((await harness.request('GET', `/v1/routes/${route.id}`, { token: ws.key })).body.status, 'draft');

  const blankName = await person.post(`/app/routes/${route.id}/name`, { csrf, name: '   ' });
  assert.equal(blankName.statusCode, 400);
  assert.match(blankName.body, /<span class="field-error" id="route-name-error">/);

  const wired = await person.post(`/app/routes/${route.id}/steps/${route.stepIds[0]}`, {
    csrf,
    question: 'Pick one',
    label_0: 'Pricing',
    target_0: 'url',
    url_0: 'http://example.com/not-https',
    label_2: 'pricing',
    target_2: 'end',
    label_3: 'No target at all',
  });
  assert.equal(wired.statusCode, 400);
  assert.match(
    wired.body,
    /<input type="url" id="url-0" name="url_0"[^>]*value="http:\/\/example.com\/not-https" aria-invalid="true" aria-describedby="url-0-error">/,
  );
  assert.match(wired.body, /<span class="field-error" id="url-0-error">[^<]*https/);
  assert.match(wired.body, /<input type="text" id="label-2" name="label_2"[^>]*aria-invalid="true"/, 'the duplicate label, on its own row');
  assert.match(wired.body, /<span class="field-error" id="target-3-error">/, 'a choice without a target, beside its target');
  assert.match(wired.body, /value="Pick one"/, 'the question is kept');
  const unchanged = await harness.request('GET', `/v1/routes/${route.id}`, { token: ws.key });
  assert.deepEqual(unchanged.body.steps[0].choices, [], 'nothing was saved');
});

test('a viewer’s posts are refused by the server, and a free plan is told routes are not in it', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const tour = await ws.addVideo({ title: 'Product tour' });
  const route = await ws.addRoute({ videoIds: [tour] });
  const viewer = await ws.addMember({ role: 'viewer', password: PASSWORD });
  const person = await signIn(harness.app, viewer.email, PASSWORD);
  const csrf = csrfOf((await person.get('/app/routes')).body);
  assert.equal((await person.post('/app/routes', { csrf, entry_video: tour })).statusCode, 403);
  assert.equal((await person.post(`/app/routes/${route.id}/status`, { csrf, status: 'archived' })).statusCode, 403);
  assert.equal((await person.post(`/app/routes/${route.id}/steps`, { csrf, video: tour })).statusCode, 403);
  assert.equal(
    (await person.post(`/app/routes/${route.id}/steps/${route.stepIds[0]}`, { csrf, label_0: 'x', target_0: 'end' })).statusCode,
    403,
  );
  assert.equal((await person.get(`/app/routes/${route.id}/steps/${route.stepIds[0]}`)).statusCode, 303, 'the editor sends a viewer back');
  assert.equal((await harness.request('GET', `/v1/routes/${route.id}`, { token: ws.key })).body.status, 'draft');

  const free = await harness.workspace('free');
  const owner = await free.addMember({ role: 'owner', password: PASSWORD });
  const list = await (await signIn(harness.app, owner.email, PASSWORD)).get('/app/routes');
  assert.equal(list.statusCode, 200);
  assert.match(list.body, /come with the Pro and Business plans/);
  assert.equal((await person.get('/app/routes/not-a-route')).statusCode, 404);
});
