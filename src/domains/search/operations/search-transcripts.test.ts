/**
 * search_transcripts over HTTP: words found by their stem in the transcript's language, phrases,
 * exclusions, one video or all, archived videos only when asked, ranking, the snippet's marks, the
 * watch link's second and the transcript offset, another workspace's words never found, bad input.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../test/helpers/app.ts';
import { MOMENTS_RANKED_AT_MOST, saveTranscript } from '../../transcripts/index.ts';

type Cue = [number, number, string];

async function videoSaying(harness: TestApp, ws: TestWorkspace, title: string, cues: Cue[], language = 'en', fields = {}) {
  const id = await ws.addVideo({ title, ...fields });
  await harness.database.db.transaction().execute((trx) =>
    saveTranscript(
      trx,
      ws.id,
      id,
      {
        source: 'captions',
        language,
        segments: cues.map(([start_seconds, end_seconds, text]) => ({ start_seconds, end_seconds, text })),
      },
      new Date(),
    ),
  );
  return id;
}

const search = (harness: TestApp, ws: TestWorkspace, query: Record<string, string | number | boolean>) =>
  harness.request(
    'GET',
    `/v1/transcripts/search?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string]))}`,
    {
      token: ws.key,
    },
  );

const found = (res: { body: { hits: { video: { title: string }; start_seconds: number }[] } }) =>
  res.body.hits.map((hit) => `${hit.video.title}@${hit.start_seconds}`);

test('search_transcripts: stems, phrases, exclusions, one video, archived only when asked, ranked, marked, linked', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const tour = await videoSaying(harness, ws, 'Product tour', [
    [0, 4, 'Welcome to the product tour.'],
    [4, 9.5, 'Our prices are simple: one annual plan for every team.'],
    [9.5, 15, 'Enterprise customers get a dedicated manager.'],
  ]);
  const webinar = await videoSaying(harness, ws, 'Pricing webinar', [
    [0, 5, 'Today we talk about pricing, pricing and more pricing. 🎉'],
    [62.7, 70, 'The plan is annual, and enterprise pricing is custom.'],
  ]);
  await videoSaying(harness, ws, 'Old pricing', [[0, 3, 'Pricing from last year.']], 'en', { archived: true });
  const french = await videoSaying(harness, ws, 'Présentation', [[12, 18, 'Nos abonnements annuels sont simples.']], 'fr-FR');
  const other = await harness.workspace();
  await videoSaying(harness, other, 'Their pricing', [[0, 3, 'Pricing that is secret to the other workspace.']]);

  // "prices", "pricing" and "price" share a stem; the segment saying it three times ranks first.
  const stems = await search(harness, ws, { q: 'price' });
  assert.equal(stems.status, 200, stems.raw);
  assert.deepEqual(found(stems), ['Pricing webinar@0', 'Pricing webinar@62.7', 'Product tour@4']);
  const first = stems.body.hits[0];
  assert.deepEqual(first.video, { video_id: webinar, title: 'Pricing webinar' });
  assert.equal(first.snippet, 'Today we talk about **pricing**, **pricing** and more **pricing**. 🎉');
  assert.equal(first.watch_url, `http://localhost:3000/watch/${webinar}?t=0`);
  assert.ok(first.score > stems.body.hits[1].score && stems.body.hits[1].score > 0 && first.score <= 1);
  const later = stems.body.hits[1];
  assert.deepEqual([later.end_seconds, later.watch_url], [70, `http://localhost:3000/watch/${webinar}?t=62`]);

  // The offset is where the words start in get_video_transcript's text (an emoji before them counts as it does there).
  const transcript = await harness.request('GET', `/v1/videos/${webinar}/transcript?offset=${later.transcript_offset}&max_chars=8`, {
    token: ws.key,
  });
  assert.equal(transcript.body.text, 'The plan');

  const phrase = await search(harness, ws, { q: '"annual plan"' });
  assert.deepEqual(found(phrase), ['Product tour@4'], 'the words as written, next to each other');
  const excluded = await search(harness, ws, { q: 'annual -enterprise' });
  assert.deepEqual(found(excluded), ['Product tour@4']);
  const either = await search(harness, ws, { q: 'welcome or manager' });
  assert.deepEqual(found(either).sort(), ['Product tour@0', 'Product tour@9.5']);
  const oneVideo = await search(harness, ws, { q: 'pricing', video_id: tour });
  assert.deepEqual(found(oneVideo), ['Product tour@4']);
  const archived = await search(harness, ws, { q: 'last year', include_archived: true });
  assert.deepEqual([found(archived), archived.body.hits[0].watch_url], [['Old pricing@0'], null]);
  assert.deepEqual(found(await search(harness, ws, { q: 'last year' })), []);
  const limited = await search(harness, ws, { q: 'pricing', limit: 1 });
  assert.equal(limited.body.hits.length, 1);

  // French words by their French stem.
  const abonnement = await search(harness, ws, { q: 'abonnement annuel' });
  assert.deepEqual([found(abonnement), abonnement.body.hits[0].video.video_id], [['Présentation@12'], french]);

  // Another workspace's words are never found; its video is not_found.
  assert.deepEqual(found(await search(harness, ws, { q: 'secret' })), []);
  const theirs = (await harness.request('GET', '/v1/videos', { token: other.key })).body.videos[0].video_id;
  assert.equal((await search(harness, ws, { q: 'pricing', video_id: theirs })).status, 404);
  assert.equal((await search(harness, ws, { q: 'pricing', video_id: randomUUID() })).status, 404);
  // Words too common to index find nothing, and say nothing wrong.
  assert.deepEqual([(await search(harness, ws, { q: 'the and' })).status, found(await search(harness, ws, { q: 'the' }))], [200, []]);
});

test('search_transcripts: a word said more often than one search ranks still gives a full page; archived videos do not use up the bound', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  // Written first, so the index finds its segments first: more of them than a search ranks.
  const archivedCues: Cue[] = Array.from({ length: MOMENTS_RANKED_AT_MOST + 1 }, (_, i) => [
    i * 2,
    i * 2 + 2,
    `Invoice number ${i} is paid.`,
  ]);
  await videoSaying(harness, ws, 'Old invoices', archivedCues, 'en', { archived: true });
  await videoSaying(harness, ws, 'Billing basics', [
    [0, 3, 'Every invoice, every invoice, is sent at once.'],
    [3, 6, 'Nothing about money here.'],
    [6, 9, 'An invoice can be paid by card.'],
  ]);

  assert.deepEqual(found(await search(harness, ws, { q: 'invoice' })), ['Billing basics@0', 'Billing basics@6']);
  const everything = await search(harness, ws, { q: 'invoice', include_archived: true, limit: 50 });
  assert.equal(everything.body.hits.length, 50);
  assert.ok(everything.body.hits.every((hit: { snippet: string }) => /\*\*invoice\*\*/i.test(hit.snippet)));
  const scores = everything.body.hits.map((hit: { score: number }) => hit.score);
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
    'best first',
  );
});

test('search_transcripts: bad input names each problem; the scope is transcripts:read', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const bad = await search(harness, ws, { q: '   ', limit: 51, video_id: 'nope', include_archived: 'maybe' });
  assert.equal(bad.status, 400, bad.raw);
  assert.deepEqual(bad.body.error.details.errors.map((e: { field: string }) => e.field).sort(), [
    'include_archived',
    'limit',
    'q',
    'video_id',
  ]);
  const long = await search(harness, ws, { q: 'x'.repeat(201) });
  assert.equal(long.status, 400);
  const hostile = await search(harness, ws, { q: `'):*&|!<-> \\ "unclosed` });
  assert.equal(hostile.status, 200, 'websearch syntax never fails to parse');
  const reader = await ws.mintKey({ scopes: ['videos:read'] });
  const denied = await harness.request('GET', '/v1/transcripts/search?q=x', { token: reader.key });
  assert.deepEqual([denied.status, denied.body.error.details.required_scope], [403, 'transcripts:read']);
});
