/**
 * search over HTTP: one ranked list across videos (stemmed words, typos in titles), transcript
 * moments, routes (names, questions, choices) and leads (name, email, notes), each with where to go
 * next; leads only with leads:read and masked while masking is on (no partial or fuzzy matches of
 * personal fields then); each kind left out without its read scope; another workspace never found.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../test/helpers/app.ts';
import { wireStep } from '../../../../test/helpers/routes.ts';
import { saveTranscript } from '../../transcripts/index.ts';

interface Result {
  kind: string;
  id: string;
  title: string;
  snippet: string;
  score: number;
  start_seconds: number | null;
  next: { operation: string; arguments: Record<string, unknown> };
  url: string | null;
}

const searchFor = async (harness: TestApp, token: string, q: string) => {
  const res = await harness.request('GET', `/v1/search?q=${encodeURIComponent(q)}`, { token });
  assert.equal(res.status, 200, res.raw);
  return res.body as { q: string; results: Result[]; left_out: { kind: string; needs_scope: string }[] };
};

const kindsAndTitles = (body: { results: Result[] }) => body.results.map((result) => `${result.kind}:${result.title}`);

async function library(harness: TestApp, ws: TestWorkspace) {
  const northwind = await ws.addVideo({
    title: 'Customer story: Northwind',
    description: 'How Northwind cut onboarding time in half.',
    tags: ['customers'],
  });
  const pricing = await ws.addVideo({ title: 'Pricing explained', description: 'Plans and what they include.', tags: ['sales'] });
  const tour = await ws.addVideo({ title: 'Product tour', description: 'A walk through the product.' });
  await harness.database.db.transaction().execute((trx) =>
    saveTranscript(
      trx,
      ws.id,
      tour,
      {
        source: 'captions',
        language: 'en',
        segments: [
          { start_seconds: 0, end_seconds: 5, text: 'Welcome to the tour.' },
          { start_seconds: 31.5, end_seconds: 36, text: 'Our prices start at ten dollars.' },
        ],
      },
      new Date(),
    ),
  );
  const route = await ws.addRoute({ name: 'Find your plan', status: 'live', videoIds: [tour, pricing] });
  await wireStep(harness, ws.id, route, route.stepIds[0] as string, 'Which budget fits you?', [
    { label: 'Under a thousand', target: 'step', to: route.stepIds[1] as string },
    { label: 'Talk to sales', target: 'end' },
  ]);
  const jane = await ws.addLead({ email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe' });
  await harness.request('PATCH', `/v1/leads/${jane}`, { token: ws.key, body: { notes: 'Asked about annual pricing for 40 seats.' } });
  return { northwind, pricing, tour, route: route.id, jane };
}

test('search: one ranked list across kinds, each with where to go next', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('business');
  const made = await library(harness, ws);
  await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { mask_pii: false } });

  const price = await searchFor(harness, ws.key, 'pricing');
  assert.deepEqual(kindsAndTitles(price).sort(), ['lead:Jane Doe', 'transcript:Product tour', 'video:Pricing explained']);
  assert.equal(price.results[0]?.kind, 'video', 'a title match ranks first');
  const video = price.results.find((result) => result.kind === 'video') as Result;
  assert.deepEqual(
    [video.id, video.next, video.url],
    [made.pricing, { operation: 'get_video', arguments: { video_id: made.pricing } }, `http://localhost:3000/watch/${made.pricing}`],
  );
  assert.match(video.snippet, /\*\*/);
  const moment = price.results.find((result) => result.kind === 'transcript') as Result;
  assert.deepEqual(
    [moment.id, moment.start_seconds, moment.snippet, moment.url],
    [made.tour, 31.5, 'Our **prices** start at ten dollars.', `http://localhost:3000/watch/${made.tour}?t=31`],
  );
  assert.deepEqual(moment.next, { operation: 'get_video_transcript', arguments: { video_id: made.tour, offset: 21 } });
  const lead = price.results.find((result) => result.kind === 'lead') as Result;
  assert.deepEqual(
    [lead.id, lead.snippet, lead.url, lead.next.operation],
    [made.jane, 'Asked about annual **pricing** for 40 seats.', null, 'get_lead'],
  );
  for (const result of price.results) assert.ok(result.score > 0 && result.score <= 1, JSON.stringify(result));

  // A typo in a name; a route by its question and by a choice's label.
  assert.deepEqual(kindsAndTitles(await searchFor(harness, ws.key, 'Northwnd')), ['video:Customer story: Northwind']);
  const budget = await searchFor(harness, ws.key, 'budget');
  assert.deepEqual(kindsAndTitles(budget), ['route:Find your plan']);
  assert.deepEqual(
    [budget.results[0]?.next, budget.results[0]?.url],
    [{ operation: 'get_route', arguments: { route_id: made.route } }, `http://localhost:3000/r/${made.route}`],
  );
  assert.deepEqual(kindsAndTitles(await searchFor(harness, ws.key, 'thousand')), ['route:Find your plan']);
  // Without masking, a lead by part of the email and by a misspelt name.
  assert.deepEqual(kindsAndTitles(await searchFor(harness, ws.key, 'jane.doe@')), ['lead:Jane Doe']);
  assert.deepEqual(kindsAndTitles(await searchFor(harness, ws.key, 'Jane Deo')), ['lead:Jane Doe']);
  assert.deepEqual(price.left_out, []);

  // Another workspace's library is never found.
  const other = await harness.workspace('business');
  assert.deepEqual((await searchFor(harness, other.key, 'Northwind')).results, []);
  // Nothing found is an empty list, not an error; limit bounds the list.
  assert.deepEqual((await searchFor(harness, ws.key, 'zebra')).results, []);
  const one = await harness.request('GET', '/v1/search?q=price&limit=1', { token: ws.key });
  assert.equal(one.body.results.length, 1);
});

test('search: leads masked while masking is on, whole matches only; each kind needs its read scope', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('business');
  const made = await library(harness, ws);
  const masked = await searchFor(harness, ws.key, 'jane');
  assert.deepEqual(
    masked.results.map((result) => [result.kind, result.id, result.title, result.snippet]),
    [['lead', made.jane, 'J***', 'j***@e***.com']],
  );
  for (const probe of ['jan', 'jane.doe@', 'Jnae']) {
    assert.deepEqual((await searchFor(harness, ws.key, probe)).results, [], `${probe}: no partial or fuzzy match while masked`);
  }
  assert.deepEqual(kindsAndTitles(await searchFor(harness, ws.key, 'jane.doe@example.com')), ['lead:J***']);
  // Notes match in part, as in list_leads; the title stays masked.
  assert.deepEqual(kindsAndTitles(await searchFor(harness, ws.key, '40 seats')), ['lead:J***']);

  const noLeads = await ws.mintKey({ scopes: ['workspace:read', 'videos:read', 'transcripts:read', 'routes:read'] });
  const withoutLeads = await searchFor(harness, noLeads.key, 'price');
  assert.deepEqual(kindsAndTitles(withoutLeads).sort(), ['transcript:Product tour', 'video:Pricing explained']);
  assert.deepEqual(withoutLeads.left_out, [{ kind: 'lead', needs_scope: 'leads:read' }]);
  const bare = await ws.mintKey({ scopes: ['workspace:read'] });
  const nothing = await searchFor(harness, bare.key, 'price');
  assert.deepEqual(nothing.results, []);
  assert.deepEqual(
    nothing.left_out.map((kind) => kind.kind),
    ['video', 'transcript', 'route', 'lead'],
  );
  const none = await ws.mintKey({ scopes: ['videos:read'] });
  assert.equal((await harness.request('GET', '/v1/search?q=x', { token: none.key })).status, 403);
  const bad = await harness.request('GET', '/v1/search?q=%20&limit=0', { token: ws.key });
  assert.deepEqual(bad.body.error.details.errors.map((e: { field: string }) => e.field).sort(), ['limit', 'q']);
});
