/**
 * /app/search (issue 28): `search` as the person, results grouped by kind and linked to their pages,
 * the matched words marked and everything else escaped; a viewer's leads masked or left out as the
 * API says; an empty box asks, a query the operation refuses comes back with its problem.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { browser, signIn } from '../../../../../test/helpers/people.ts';
import { markedSnippet } from './search-view.ts';

const PASSWORD = 'correct horse battery staple';

test('search groups videos, routes and leads, each linking to its page', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const videoId = await ws.addVideo({ title: 'Zanzibar pricing walkthrough' });
  const route = await ws.addRoute({ name: 'Zanzibar onboarding' });
  const leadId = await ws.addLead({ email: 'zed@example.com', first_name: 'Zanzibar', last_name: 'Fan' });
  const person = await signIn(harness.app, owner.email, PASSWORD);

  const page = await person.get('/app/search?q=zanzibar');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<h2 id="results-video">Videos <span class="count">1<\/span><\/h2>/);
  assert.match(page.body, new RegExp(`href="/app/videos/${videoId}"><strong>Zanzibar pricing walkthrough</strong>`));
  assert.match(page.body, new RegExp(`href="/app/routes/${route.id}"`));
  assert.match(page.body, new RegExp(`href="/app/leads/${leadId}"`));
  assert.match(page.body, /<mark>/);
  assert.match(page.body, /id="f-q" name="q" type="search" value="zanzibar"/);

  const empty = await person.get('/app/search');
  assert.match(empty.body, /Type what you are looking for/);
  const nothing = await person.get('/app/search?q=qwertyuiopasdf');
  assert.match(nothing.body, /Nothing found for “qwertyuiopasdf”/);
  const tooLong = await person.get(`/app/search?q=${'a'.repeat(201)}`);
  assert.equal(tooLong.statusCode, 400);
  assert.match(tooLong.body, /id="f-q-error"/);
  assert.equal((await browser(harness.app).get('/app/search?q=zanzibar')).statusCode, 303, 'signed out: to sign-in');
});

test('a viewer sees leads masked as the workspace says', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { mask_pii: true } });
  const viewer = await ws.addMember({ role: 'viewer', password: PASSWORD });
  await ws.addLead({ email: 'quinn@example.com', first_name: 'Quixotic', last_name: 'Buyer' });
  const person = await signIn(harness.app, viewer.email, PASSWORD);
  const page = await person.get('/app/search?q=quixotic');
  assert.equal(page.statusCode, 200);
  assert.ok(!page.body.includes('quinn@example.com') && !page.body.includes('Quixotic Buyer'), 'the address stays masked');
  const api = await harness.request('GET', '/v1/search?q=quixotic', { token: (await ws.mintKey({ createdByUser: viewer.userId })).key });
  assert.ok(
    api.body.results.some((r: { kind: string }) => r.kind === 'lead'),
    api.raw,
  );
  for (const result of api.body.results) assert.ok(page.body.includes(result.id), 'every result the API gives is on the page');
});

test('snippets are escaped, with the matched words marked and masked values left as they are', () => {
  assert.equal(markedSnippet('a **<b>** c'), 'a <mark>&#60;b&#62;</mark> c');
  assert.equal(markedSnippet('o***@e***.com'), 'o***@e***.com', 'masking is not a mark');
  assert.equal(markedSnippet('**Olga** o***@e***.com'), '<mark>Olga</mark> o***@e***.com');
});
