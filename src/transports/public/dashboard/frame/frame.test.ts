/**
 * The dashboard's frame (issue 28): the primary navigation with DESIGN §10's names, each area offered
 * to the roles that can read it and marked where the page is; search in the top bar; the stylesheet
 * and scripts served as versioned files under a policy with nothing inline.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { browser, signIn } from '../../../../../test/helpers/people.ts';
import { statementsOf } from '../../../../../test/helpers/server-timing.ts';

const PASSWORD = 'correct horse battery staple';
const navigationOf = (html: string) => [...html.matchAll(/<nav class="primary"[^>]*>(.*?)<\/nav>/g)].map((m) => m[1] ?? '').join('');
const labelsOf = (nav: string) => [...nav.matchAll(/>([^<]+)<\/a>/g)].map((m) => m[1]);

test('the navigation names every area an owner may open, in DESIGN §10’s order, and marks the current one', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const person = await signIn(harness.app, owner.email, PASSWORD);
  const home = await person.get('/app');
  assert.equal(home.statusCode, 200);
  assert.deepEqual(labelsOf(navigationOf(home.body)), ['Videos', 'Leads', 'Revenue', 'Routes', 'Scheduling', 'Channel', 'Settings']);
  assert.doesNotMatch(navigationOf(home.body), /aria-current/, 'home is no area of the navigation');
  const videoId = await ws.addVideo({ title: 'Frame check' });
  const video = await person.get(`/app/videos/${videoId}`);
  assert.match(navigationOf(video.body), /<a href="\/app\/videos" aria-current="page">Videos<\/a>/);
  assert.match(home.body, /<form class="search" role="search" method="get" action="\/app\/search">/);
  assert.match(home.body, /<a class="skip" href="#content">Skip to content<\/a>/);
  assert.match(home.body, /<main id="content">/);
});

test('a viewer is not offered the areas their role cannot read', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const viewer = await ws.addMember({ role: 'viewer', password: PASSWORD });
  const person = await signIn(harness.app, viewer.email, PASSWORD);
  const labels = labelsOf(navigationOf((await person.get('/app')).body));
  // The read tier holds every :read scope: a viewer reads every area, and writes none.
  assert.deepEqual(labels, ['Videos', 'Leads', 'Revenue', 'Routes', 'Scheduling', 'Channel', 'Settings']);
});

test('the stylesheet and the script are files with a content hash, cached for a year; the page policy has nothing inline', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const page = await (await signIn(harness.app, owner.email, PASSWORD)).get('/app');
  const policy = String(page.headers['content-security-policy']);
  assert.match(policy, /style-src 'self'(;|$)/);
  assert.match(policy, /script-src 'self'(;|$)/);
  assert.doesNotMatch(policy, /unsafe-inline|sha256-/);
  assert.doesNotMatch(page.body, /<style|<script>| style="/);
  const stylesheet = /<link rel="stylesheet" href="(\/app\/assets\/dashboard\.css\?v=[\w-]+)">/.exec(page.body)?.[1];
  const script = /<script src="(\/app\/assets\/dashboard\.js\?v=[\w-]+)" defer>/.exec(page.body)?.[1];
  assert.ok(stylesheet && script, 'both are linked with their version');
  const anyone = browser(harness.app);
  const css = await anyone.get(stylesheet);
  assert.equal(css.statusCode, 200);
  assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
  assert.equal(css.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.match(css.body, /nav\.primary/);
  const js = await anyone.get(script);
  assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.match(js.body, /dashboard-search/);
  assert.equal((await anyone.get('/app/assets/dashboard.css?v=old')).headers['cache-control'], 'no-cache');
  assert.equal((await anyone.get('/app/assets/nothing.js')).statusCode, 404);
  assert.equal((await anyone.get('/app/assets/..%2F..%2Fapp.ts')).statusCode, 404);
});

test('a person in several workspaces has each by name in the switcher, read in one statement however many there are', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const person = await signIn(harness.app, owner.email, PASSWORD);
  const alone = await person.get('/app/settings/members');
  assert.doesNotMatch(alone.body, /id="workspace-switch"/, 'no switcher with one workspace');
  const others = [await harness.workspace(), await harness.workspace()];
  for (const other of others) {
    await harness.database.db
      .insertInto('members')
      .values({
        id: randomUUID(),
        workspace_id: other.id,
        user_id: owner.userId,
        role: 'member',
        created_at: new Date(),
        updated_at: new Date(),
      })
      .execute();
  }
  const several = await person.get('/app/settings/members');
  const options = [...several.body.matchAll(/<option value="([0-9a-f-]{36})"[^>]*>([^<]+)<\/option>/g)].map((m) => [m[1], m[2]]);
  const names = await harness.database.db
    .selectFrom('workspaces')
    .select(['id', 'name'])
    .where('id', 'in', [ws.id, ...others.map((o) => o.id)])
    .execute();
  assert.deepEqual(new Map(options as [string, string][]), new Map(names.map((row) => [row.id, row.name])));
  assert.equal(statementsOf(several), statementsOf(alone), 'two more workspaces, no more statements');
});
