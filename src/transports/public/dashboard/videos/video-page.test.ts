/**
 * The video's page, driven as a browser drives it (inject with the session cookie): what each role
 * sees and is offered, the parts read from their operations (retention with its moments, the daily
 * window, leads, transcript search), and the caption form: it writes (checked through the API),
 * refuses a post without the CSRF token and a role without videos:write, and sends problems back
 * next to their field with the text kept.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../../test/helpers/app.ts';
import { browser, csrfOf, signIn } from '../../../../../test/helpers/people.ts';
import { type Event, viewer, watch } from '../../../../../test/helpers/viewing.ts';
import { upsertLeadRecord } from '../../../../domains/leads/index.ts';

const PASSWORD = 'correct horse battery staple';

const CAPTIONS =
  'WEBVTT\n\n00:00.500 --> 00:04.000\nWelcome to the pricing tour.\n\n00:04.000 --> 00:09.000\nAnnual plans save two months.\n\n00:09.000 --> 00:14.000\nAsk us about pricing for teams.\n';

async function person(harness: TestApp, ws: TestWorkspace, role: 'owner' | 'admin' | 'member' | 'viewer') {
  const member = await ws.addMember({ role, password: PASSWORD });
  return signIn(harness.app, member.email, PASSWORD);
}

/** Ten views of a 100-second video: all watch the first half, half of them the rest (a drop-off at 0:50). */
async function watchedTenTimes(harness: TestApp, videoId: string): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const batches: Event[][] = [[{ type: 'progress', ranges: [[0, 50]] }]];
    if (i >= 5) batches.push([{ type: 'progress', ranges: [[50, 100]] }]);
    await watch(harness, videoId, viewer(`v${i}-${videoId.slice(0, 6)}`), batches);
  }
}

test('every role sees the video page; Edit, captions and Delete video only for the roles that may use them', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Pricing tour', description: 'How our plans work', duration_seconds: 100 });
  const offered = {
    owner: { edit: true, captions: true, del: true },
    admin: { edit: true, captions: true, del: true },
    member: { edit: true, captions: true, del: false },
    viewer: { edit: false, captions: false, del: false },
  } as const;
  for (const [role, expected] of Object.entries(offered) as [keyof typeof offered, (typeof offered)['owner']][]) {
    const page = await person(harness, ws, role);
    const res = await page.get(`/app/videos/${videoId}`);
    assert.equal(res.statusCode, 200, `${role}: ${res.body.slice(0, 300)}`);
    const html = res.body;
    assert.match(html, /<h1>Pricing tour<\/h1>/);
    assert.match(html, /How our plans work/);
    for (const heading of ['Retention', 'Views, watch time and conversions', 'Leads from this video', 'Transcript', 'Share and embed']) {
      assert.ok(html.includes(`>${heading}</h2>`), `${role} sees ${heading}`);
    }
    assert.equal(html.includes(`href="/app/videos/${videoId}/edit">Edit</a>`), expected.edit, `${role}: Edit`);
    assert.equal(html.includes(`action="/app/videos/${videoId}/captions"`), expected.captions, `${role}: captions`);
    assert.equal(html.includes('>Delete video</button>'), expected.del, `${role}: Delete video`);
    // The share codes: the watch page and an iframe of the embed page, in read-only fields.
    assert.match(html, new RegExp(`id="share-watch-url"[^>]*readonly value="http://localhost:3000/watch/${videoId}"`));
    assert.ok(html.includes(`&#60;iframe src=&#34;http://localhost:3000/embed/${videoId}&#34;`), 'the embed snippet');
    // The player plays our own media, asked for by path from the dashboard's origin.
    assert.match(html, new RegExp(`<video id="player"[^>]* src="/media/${videoId}"`));
    assert.doesNotMatch(html, /style="|<script>/, 'nothing inline');
  }
});

test('retention with its drop-off marked and listed; daily views for the chosen window; leads of the video', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Setup guide', duration_seconds: 100 });
  const otherVideo = await ws.addVideo({ title: 'Another' });
  await watchedTenTimes(harness, videoId);
  const db = harness.database.db;
  await db.updateTable('workspaces').set({ mask_pii: false }).where('id', '=', ws.id).execute();
  const captured = await upsertLeadRecord(db, {
    workspaceId: ws.id,
    fields: { email: 'dana.lead@example.com', name: 'Dana Lead' },
    author: 'watch page',
    source: 'video',
    sourceVideoId: videoId,
    at: new Date(),
  });
  await upsertLeadRecord(db, {
    workspaceId: ws.id,
    fields: { email: 'other.lead@example.com', name: 'Other Lead' },
    author: 'watch page',
    source: 'video',
    sourceVideoId: otherVideo,
    at: new Date(),
  });
  const page = await person(harness, ws, 'member');

  const html = (await page.get(`/app/videos/${videoId}`)).body;
  // The curve: 100 points in its table, the drop-off at 0:50 marked and listed with its time.
  assert.match(html, /<figcaption id="retention-caption">Share of views still watching<\/figcaption>/);
  assert.equal((html.match(/<table id="retention-table">[\s\S]*?<\/table>/)?.[0].match(/<tr>/g) ?? []).length, 101);
  assert.match(html, /<g class="marker drop">/);
  assert.match(html, /0:50–0:51<\/span> <strong>Drop-off<\/strong>/);
  assert.match(html, /50% of views leave here/);
  // The default window is the last 30 days: 30 rows in each daily table, today's views among them.
  const views = html.match(/<table id="daily-views-table">[\s\S]*?<\/table>/)?.[0] ?? '';
  assert.equal((views.match(/<tr>/g) ?? []).length, 31);
  assert.match(views, /<td>10<\/td>/);
  assert.match(html, /aria-current="true"><span class="video-preset-last">Last <\/span>30 days</);
  // Lifetime tiles from get_video.
  assert.match(html, /<p class="label">Views<\/p><p class="value">10<\/p>/);
  // The leads it brought, linked to their pages; not the other video's.
  assert.match(html, new RegExp(`<a href="/app/leads/${captured.lead.id}">Dana Lead</a>`));
  assert.ok(!html.includes('Other Lead'));

  // Last 7 days: 7 rows. Chosen dates: exactly those days.
  const week = (await page.get(`/app/videos/${videoId}?range=7`)).body;
  assert.equal((week.match(/<table id="daily-views-table">[\s\S]*?<\/table>/)?.[0].match(/<tr>/g) ?? []).length, 8);
  assert.match(week, /aria-current="true"><span class="video-preset-last">Last <\/span>7 days</);
  const chosen = (await page.get(`/app/videos/${videoId}?from=2026-01-01&to=2026-01-10`)).body;
  const chosenTable = chosen.match(/<table id="daily-views-table">[\s\S]*?<\/table>/)?.[0] ?? '';
  assert.equal((chosenTable.match(/<tr>/g) ?? []).length, 11);
  assert.match(chosenTable, /Jan 1</);
  assert.match(chosen, /name="from" value="2026-01-01"/);
  // A date that is not one comes back next to its field; the operation's own refusal (backwards) is said.
  const wrong = (await page.get(`/app/videos/${videoId}?from=2026-13-01&to=2026-01-10`)).body;
  assert.match(wrong, /name="from" value="2026-13-01" aria-invalid="true" aria-describedby="range-from-error"/);
  assert.match(wrong, /id="range-from-error">Choose the first day\./);
  const backwards = (await page.get(`/app/videos/${videoId}?from=2026-02-01&to=2026-01-10`)).body;
  assert.match(backwards, /class="alert" role="alert">The request has 1 problem: from_date: must be on or before/);
});

test('the leads part masks names and emails as the workspace does', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Masked' });
  await harness.database.db.updateTable('workspaces').set({ mask_pii: true }).where('id', '=', ws.id).execute();
  await upsertLeadRecord(harness.database.db, {
    workspaceId: ws.id,
    fields: { email: 'secret.person@example.com', name: 'Secret Person' },
    author: 'watch page',
    source: 'video',
    sourceVideoId: videoId,
    at: new Date(),
  });
  const html = (await (await person(harness, ws, 'owner')).get(`/app/videos/${videoId}`)).body;
  assert.ok(!html.includes('secret.person@example.com') && !html.includes('Secret Person'), 'nothing personal in the page');
  assert.match(html, /s\*\*\*@e\*\*\*\.com/);
  assert.match(html, /Names and emails are masked/);
});

test('captions: uploaded through the form, searched in the transcript; refused without CSRF or the right; problems by their field', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Captioned', duration_seconds: 100 });
  const member = await person(harness, ws, 'member');
  const page = await member.get(`/app/videos/${videoId}`);
  assert.match(page.body, /No transcript yet/);
  const csrf = csrfOf(page.body);

  const saved = await member.post(`/app/videos/${videoId}/captions`, { csrf, format: 'webvtt', language: 'en', text: CAPTIONS });
  assert.equal(saved.statusCode, 303);
  assert.equal(saved.headers.location, `/app/videos/${videoId}?done=captions#transcript`);
  const transcript = await harness.request('GET', `/v1/videos/${videoId}/transcript`, { token: ws.key });
  assert.equal(transcript.status, 200, transcript.raw);
  assert.deepEqual(
    transcript.body.segments.map((s: { text: string }) => s.text),
    ['Welcome to the pricing tour.', 'Annual plans save two months.', 'Ask us about pricing for teams.'],
  );
  const after = (await member.get(`/app/videos/${videoId}?done=captions`)).body;
  assert.match(after, /The captions are saved/);
  assert.match(after, /3 lines, from uploaded captions, language en/);
  // The same file again changes nothing, and says so.
  const again = await member.post(`/app/videos/${videoId}/captions`, { csrf, format: 'webvtt', language: 'en', text: CAPTIONS });
  assert.equal(again.headers.location, `/app/videos/${videoId}?done=captions-unchanged#transcript`);

  // Search: the lines that say it, the words marked, the count said.
  const found = (await member.get(`/app/videos/${videoId}?q=PRICING`)).body;
  assert.match(found, /2 of 3 lines say “PRICING”/);
  assert.match(found, /Welcome to the <mark>pricing<\/mark> tour\./);
  assert.ok(!found.includes('Annual plans save two months.'));
  assert.match((await member.get(`/app/videos/${videoId}?q=enterprise`)).body, /No line says “enterprise”/);

  // Without the token, or from another site: refused, nothing written.
  const before = (await harness.request('GET', `/v1/videos/${videoId}/transcript`, { token: ws.key })).body.updated_at;
  const noToken = await member.post(`/app/videos/${videoId}/captions`, {
    format: 'srt',
    language: 'de',
    text: '1\n00:00:01,000 --> 00:00:02,000\nHallo\n',
  });
  assert.equal(noToken.statusCode, 403);
  const elsewhere = await member.post(
    `/app/videos/${videoId}/captions`,
    { csrf, format: 'srt', language: 'de', text: '1\n00:00:01,000 --> 00:00:02,000\nHallo\n' },
    { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
  );
  assert.equal(elsewhere.statusCode, 403);

  // A viewer is not offered the form, and the server refuses the post anyway.
  const viewerPage = await person(harness, ws, 'viewer');
  const viewerCsrf = csrfOf((await viewerPage.get(`/app/videos/${videoId}`)).body);
  const refused = await viewerPage.post(`/app/videos/${videoId}/captions`, {
    csrf: viewerCsrf,
    format: 'srt',
    language: 'de',
    text: '1\n00:00:01,000 --> 00:00:02,000\nHallo\n',
  });
  assert.equal(refused.statusCode, 403);
  assert.match(refused.body, /<h1>Not done<\/h1>/);
  assert.equal((await harness.request('GET', `/v1/videos/${videoId}/transcript`, { token: ws.key })).body.updated_at, before);

  // Problems come back next to their field, with what was sent kept.
  const broken = 'WEBVTT\n\nnot a timing line\nWords\n';
  const bad = await member.post(`/app/videos/${videoId}/captions`, { csrf, format: 'webvtt', language: 'not a language!', text: broken });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.body, /The captions were not saved/);
  assert.match(
    bad.body,
    /id="caption-language" type="text" name="language" value="not a language!"[^>]*aria-invalid="true" aria-describedby="caption-language-error"/,
  );
  assert.match(bad.body, /<span class="field-error" id="caption-language-error">/);
  assert.ok(bad.body.includes('WEBVTT\n\nnot a timing line\nWords\n</textarea>'), 'the text is kept');
  const badText = await member.post(`/app/videos/${videoId}/captions`, { csrf, format: 'webvtt', language: 'en', text: broken });
  assert.equal(badText.statusCode, 400);
  assert.match(badText.body, /id="caption-text"[^>]*aria-invalid="true"/);
  assert.match(badText.body, /<span class="field-error" id="caption-text-error">[^<]+/);
});

test('a video that is not ready shows why instead of a player, and no share codes; an unknown id is a 404', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const processing = await ws.addVideo({ title: 'Still processing', status: 'processing' });
  const failed = await ws.addVideo({ title: 'Broken file', status: 'failed', failure_reason: 'The file has no video stream.' });
  const archived = await ws.addVideo({ title: 'Old one', archived: true });
  const page = await person(harness, ws, 'viewer');
  const one = (await page.get(`/app/videos/${processing}`)).body;
  assert.match(one, /Processing: the player appears when the video is ready/);
  assert.match(one, /The watch page and the embed code are ready when the video is\./);
  assert.ok(!one.includes('<video'));
  assert.match((await page.get(`/app/videos/${failed}`)).body, /Processing failed[\s\S]*The file has no video stream\./);
  const old = (await page.get(`/app/videos/${archived}`)).body;
  assert.match(old, /<span class="status archived">archived<\/span>/);
  assert.match(old, /Archived videos are not served/);
  const missing = await page.get('/app/videos/00000000-0000-4000-8000-000000000000');
  assert.equal(missing.statusCode, 404);
  assert.match(missing.body, /No such video/);
  // Signed out: to the sign-in page and back.
  const stranger = await browser(harness.app).get(`/app/videos/${processing}`);
  assert.equal(stranger.statusCode, 303);
  assert.equal(stranger.headers.location, `/sign-in?next=/app/videos/${processing}`);
});
