/**
 * POST /leads/capture: a capture creates the lead, links the browser (crediting its earlier
 * sessions), records the submission and counts it once per (lead, video); a known email gets the
 * same answer and is enriched, not duplicated; every bad input, token and disabled form is a 4xx
 * that writes nothing; submissions are limited per page view and per browser.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace, testConfig } from '../../../../test/helpers/app.ts';
import { answerProblems, HOSTILE, nestedArrayText, PROTOTYPE_NAMES } from '../../../../test/helpers/hostile-inputs.ts';
import { BROWSER, pageView, watch } from '../../../../test/helpers/viewing.ts';
import { buildApp } from '../../../app.ts';
import { openDatabase } from '../../../db/client.ts';
import { buildDependencies } from '../../../dependencies.ts';
import { ENGAGEMENT_POINTS } from '../../../domains/leads/index.ts';
import { ANSWER_FLOOR_MS } from '../http/answer-floor.ts';
import { CAPTURE_LIMITS, LeadCaptureBody } from './lead-capture.ts';

const FORM = { placement: 'at_second', at_second: 10, fields: ['first_name', 'phone'] };

async function capture(harness: TestApp, body: unknown, headers: Record<string, string> = {}) {
  const res = await harness.app.inject({
    method: 'POST',
    url: '/leads/capture',
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER, ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers, raw: res.body };
}

/** A browser's viewer id, new on every run (Redis keeps rate buckets between runs). */
const newViewer = () => `viewer_${randomUUID().replaceAll('-', '')}`;

async function videoWithForm(harness: TestApp, ws: TestWorkspace, form: unknown = FORM): Promise<string> {
  const videoId = await ws.addVideo({ title: 'Pricing walkthrough', duration_seconds: 60 });
  const res = await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { lead_form: form } });
  assert.equal(res.status, 200, res.raw);
  return videoId;
}

/** The token with one character of its signature changed (always to a different one). */
const tampered = (token: string) => {
  const at = token.length - 10;
  return `${token.slice(0, at)}${token[at] === 'x' ? 'y' : 'x'}${token.slice(at + 1)}`;
};

/** What a workspace holds of leads: for "nothing written" checks. */
async function written(harness: TestApp, workspaceId: string) {
  const db = harness.database.db;
  const count = async (table: 'leads' | 'lead_viewers' | 'lead_activities') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const events = (await harness.eventTypes(workspaceId)).filter((type) => type.startsWith('lead.'));
  const stats = await db.selectFrom('video_stats').select('leads').where('workspace_id', '=', workspaceId).execute();
  return {
    leads: await count('leads'),
    viewers: await count('lead_viewers'),
    activities: await count('lead_activities'),
    events,
    statLeads: stats.reduce((sum, row) => sum + row.leads, 0),
  };
}

test('a capture creates the lead, links the browser with its earlier sessions, and counts it on the video', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await videoWithForm(harness, ws);
  const viewerId = newViewer();
  // The browser watched the whole video once before, anonymously.
  const earlier = await watch(harness, videoId, viewerId, [[{ type: 'progress', ranges: [[0, 60]] }]]);
  const view = pageView(videoId);

  const res = await capture(harness, {
    token: view.token,
    viewer_id: viewerId,
    email: 'Ada@Example.com',
    first_name: 'Ada',
    phone: '+44 20 7946 0958',
  });
  assert.equal(res.status, 202, res.raw);
  assert.deepEqual(res.body, { ok: true });
  assert.equal(res.headers['cache-control'], 'no-store');

  const db = harness.database.db;
  const lead = await db.selectFrom('leads').selectAll().where('workspace_id', '=', ws.id).executeTakeFirstOrThrow();
  assert.deepEqual(
    [lead.email, lead.first_name, lead.phone, lead.source, lead.source_video_id],
    ['Ada@Example.com', 'Ada', '+44 20 7946 0958', 'video', videoId],
  );
  const links = await db.selectFrom('lead_viewers').select(['viewer_id', 'lead_id']).where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(links, [{ viewer_id: viewerId, lead_id: lead.id }]);
  const activities = await db.selectFrom('lead_activities').selectAll().where('lead_id', '=', lead.id).execute();
  assert.deepEqual(activities.map((row) => row.kind).sort(), ['form_submitted', 'status_changed']);
  const activity = activities.find((row) => row.kind === 'form_submitted');
  // The earlier viewing and the form together make the lead engaged on its own (lead-status.ts).
  assert.equal(lead.status, 'engaged');
  assert.equal(activity?.kind, 'form_submitted');
  assert.equal(activity?.video_id, videoId);
  assert.deepEqual(activity?.data, { session_id: view.sessionId, placement: 'at_second', fields: ['email', 'first_name', 'phone'] });
  // The form's points plus the earlier session's: a return, a minute watched, the whole video.
  const earlierPoints = ENGAGEMENT_POINTS.session + ENGAGEMENT_POINTS.perMinuteWatched + ENGAGEMENT_POINTS.fullyWatched;
  assert.ok(Math.abs(lead.engagement_points - (ENGAGEMENT_POINTS.formSubmitted + earlierPoints)) < 0.01, String(lead.engagement_points));
  const session = await db.selectFrom('viewing_sessions').select('viewer_id').where('id', '=', earlier).executeTakeFirstOrThrow();
  assert.equal(session.viewer_id, viewerId, 'the earlier session belongs to the linked browser');

  const stats = await db.selectFrom('video_stats').select('leads').where('video_id', '=', videoId).executeTakeFirstOrThrow();
  assert.equal(stats.leads, 1);
  const days = await db.selectFrom('video_daily_stats').select(['day', 'leads']).where('video_id', '=', videoId).execute();
  assert.equal(
    days.reduce((sum, day) => sum + day.leads, 0),
    1,
  );
  const video = await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key });
  assert.equal(video.body.stats.leads, 1);

  const events = await db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('workspace_id', '=', ws.id)
    .where('type', 'like', 'lead.%')
    .execute();
  assert.deepEqual(
    events.map((event) => event.type),
    ['lead.created'],
  );
  const created = events[0]?.data as { lead_id: string; lead: { email: string; source: string; source_video: unknown } };
  assert.equal(created.lead_id, lead.id);
  assert.equal(created.lead.source, 'video');
  assert.deepEqual(created.lead.source_video, { video_id: videoId, title: 'Pricing walkthrough' });
});

test('a known email gets the same answer; it gains what it lacked, keeps what it held, is never duplicated, and counts once per video', async (t) => {
  // The one test that times answers keeps the production floor (the test app's default is 0).
  const harness = await startTestApp(t, { answerFloorMs: ANSWER_FLOOR_MS });
  const ws = await harness.workspace();
  const videoId = await videoWithForm(harness, ws);
  const other = await videoWithForm(harness, ws, { placement: 'end' });
  const known = await ws.addLead({ email: 'known@example.com', first_name: 'K', source: 'api' });
  const viewerId = newViewer();
  const view = pageView(videoId);

  const timed = async (body: unknown) => {
    const started = performance.now();
    const answer = await capture(harness, body);
    return { ...answer, took: performance.now() - started };
  };
  const unknownAnswer = await timed({ token: pageView(videoId).token, viewer_id: newViewer(), email: 'new@example.com' });
  // Anyone can type a known address: the lead's name and email spelling stay, its missing phone is filled.
  const knownAnswer = await timed({
    token: view.token,
    viewer_id: viewerId,
    email: 'KNOWN@example.com',
    first_name: 'Mallory',
    phone: '+1 555 010 0199',
  });
  assert.deepEqual([knownAnswer.status, knownAnswer.raw], [unknownAnswer.status, unknownAnswer.raw]);
  assert.deepEqual(Object.keys(knownAnswer.headers).sort(), Object.keys(unknownAnswer.headers).sort());
  // Nor does its timing: both wait for the floor, which is above the work either does (a lower
  // bound, which no load on the machine can make fail).
  for (const answer of [unknownAnswer, knownAnswer]) assert.ok(answer.took >= ANSWER_FLOOR_MS - 1, `answered in ${answer.took} ms`);

  // A double submit: the same lead, a second submission in its history, still one lead on the video.
  const double = await capture(harness, { token: view.token, viewer_id: viewerId, email: 'KNOWN@example.com', first_name: 'Kim' });
  assert.equal(double.status, 202);
  const db = harness.database.db;
  const leads = await db
    .selectFrom('leads')
    .select(['id', 'email', 'first_name', 'phone', 'source'])
    .where('workspace_id', '=', ws.id)
    .orderBy('email')
    .execute();
  assert.deepEqual(leads, [
    { id: known, email: 'known@example.com', first_name: 'K', phone: '+1 555 010 0199', source: 'api' },
    { id: leads[1]?.id, email: 'new@example.com', first_name: null, phone: null, source: 'video' },
  ]);
  const submissions = await db.selectFrom('lead_activities').select('kind').where('lead_id', '=', known).execute();
  assert.deepEqual(
    submissions.map((row) => row.kind),
    ['form_submitted', 'form_submitted'],
  );
  const links = await db.selectFrom('lead_viewers').select('viewer_id').where('lead_id', '=', known).execute();
  assert.deepEqual(links, [{ viewer_id: viewerId }]);
  const onVideo = await db.selectFrom('video_stats').select('leads').where('video_id', '=', videoId).executeTakeFirstOrThrow();
  assert.equal(onVideo.leads, 2, 'two leads captured on the video, the double submit counted once');

  // The same lead on another video counts there too.
  assert.equal((await capture(harness, { token: pageView(other).token, viewer_id: viewerId, email: 'KNOWN@example.com' })).status, 202);
  const onOther = await db.selectFrom('video_stats').select('leads').where('video_id', '=', other).executeTakeFirstOrThrow();
  assert.equal(onOther.leads, 1);

  // lead.updated names what changed, only when something did: the enrichment, then the third
  // submission's points made the lead engaged (lead-status.ts).
  const updates = await db
    .selectFrom('events')
    .select('data')
    .where('workspace_id', '=', ws.id)
    .where('type', '=', 'lead.updated')
    .execute();
  assert.deepEqual(
    updates.map((event) => (event.data as { changed: string[] }).changed),
    [['phone'], ['status']],
  );
  const status = await db.selectFrom('leads').select('status').where('id', '=', known).executeTakeFirstOrThrow();
  assert.equal(status.status, 'engaged');
});

test('two submissions of a new email at the same moment make one lead, counted once', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await videoWithForm(harness, ws, { placement: 'end' });
  const viewerId = newViewer();
  const answers = await Promise.all(
    [pageView(videoId), pageView(videoId)].map((view) =>
      capture(harness, { token: view.token, viewer_id: viewerId, email: 'twice@example.com' }),
    ),
  );
  assert.deepEqual(
    answers.map((answer) => answer.status),
    [202, 202],
  );
  const db = harness.database.db;
  const leads = await db.selectFrom('leads').select('id').where('workspace_id', '=', ws.id).execute();
  assert.equal(leads.length, 1);
  const stats = await db.selectFrom('video_stats').select('leads').where('video_id', '=', videoId).executeTakeFirstOrThrow();
  assert.equal(stats.leads, 1);
  const links = await db.selectFrom('lead_viewers').select('viewer_id').where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(links, [{ viewer_id: viewerId }]);
  assert.deepEqual(
    (await harness.eventTypes(ws.id)).filter((type) => type.startsWith('lead.')),
    ['lead.created'],
  );
});

test('bad input, tampered or expired tokens and a form that is off are 4xx and write nothing', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await videoWithForm(harness, ws, { placement: 'before', fields: ['first_name'] });
  const noForm = await ws.addVideo({ duration_seconds: 60 });
  const archived = await videoWithForm(harness, ws);
  await harness.database.db.updateTable('videos').set({ archived: true }).where('id', '=', archived).execute();
  const viewerId = newViewer();
  const token = () => pageView(videoId).token;
  const base = () => ({ token: token(), viewer_id: viewerId, email: 'ok@example.com' });

  const cases: [string, unknown, number, RegExp][] = [
    ['no email', { token: token(), viewer_id: viewerId }, 400, /email: is required/],
    ['invalid email', { ...base(), email: 'not-an-email' }, 400, /email: must be an email address/],
    ['oversized name', { ...base(), first_name: 'x'.repeat(101) }, 400, /first_name: must be at most 100 characters/],
    ['blank name', { ...base(), first_name: '   ' }, 400, /first_name: must show at least one character/],
    ['a name of invisible characters', { ...base(), first_name: '\u200B\u00AD' }, 400, /first_name: must show at least one character/],
    ['a line break in a name', { ...base(), first_name: 'Ada\r\nBcc: all@example.com' }, 400, /first_name: .*no control characters/],
    ['a terminal escape in a name', { ...base(), first_name: '\u001b[31mAda' }, 400, /first_name: .*no control characters/],
    ['a direction override in a name', { ...base(), first_name: 'Ada\u202Egnp.exe' }, 400, /first_name: .*direction overrides/],
    ['an unpaired surrogate in a name', { ...base(), first_name: 'Ada\uD800' }, 400, /first_name: .*invalid characters/],
    ['unknown field', { ...base(), company: 'Acme' }, 400, /company: is not a known field/],
    ['a field the form does not ask', { ...base(), phone: '+1 555 0100 22' }, 400, /phone: this video’s form does not ask for it/],
    ['bad viewer id', { ...base(), viewer_id: 'short' }, 400, /viewer_id/],
    ['every problem at once', { token: token(), viewer_id: 'x', email: 'nope', extra: 1 }, 400, /3 problems/],
    ['not JSON', '{"email":', 400, /not valid JSON/],
    ['tampered token', { ...base(), token: tampered(token()) }, 403, /viewing token is not valid/],
    ['token for another video', { ...base(), token: `${noForm}${token().slice(36)}` }, 403, /viewing token is not valid/],
    [
      'expired token',
      { ...base(), token: pageView(videoId, new Date(Date.now() - 2 * 86_400_000)).token },
      403,
      /viewing token has expired; reload the page/,
    ],
    ['form off', { ...base(), token: pageView(noForm).token }, 403, /lead form is off/],
    ['archived video', { ...base(), token: pageView(archived).token }, 404, /not available/],
    ['too large', { ...base(), first_name: 'x'.repeat(9000) }, 413, /at most 8 KiB/],
  ];
  for (const [name, body, status, message] of cases) {
    const res = await capture(harness, body);
    assert.equal(res.status, status, `${name}: ${res.raw}`);
    assert.match(res.body.error.message, message, name);
  }
  const wrongType = await capture(harness, 'email=ok@example.com', { 'content-type': 'application/x-www-form-urlencoded' });
  assert.equal(wrongType.status, 400, wrongType.raw);

  assert.deepEqual(await written(harness, ws.id), { leads: 0, viewers: 0, activities: 0, events: [], statLeads: 0 });
});

test('names in any script, with accents, joiners and emoji, are accepted as sent', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await videoWithForm(harness, ws, { placement: 'end', fields: ['first_name', 'last_name'] });
  const names = ['José', "O'Neil-Zoë", 'محمد', 'نرگس\u200Cی', '李小龍', 'Ada\u00A0Grace', '👩\u200D💻'];
  for (const [i, name] of names.entries()) {
    const res = await capture(harness, {
      token: pageView(videoId).token,
      viewer_id: newViewer(),
      email: `script${i}@example.com`,
      first_name: name,
      last_name: name,
    });
    assert.equal(res.status, 202, `${name}: ${res.raw}`);
  }
  const stored = await harness.database.db
    .selectFrom('leads')
    .select('first_name')
    .where('workspace_id', '=', ws.id)
    .orderBy('email')
    .execute();
  assert.deepEqual(
    stored.map((row) => row.first_name),
    names,
  );
});

test('submissions are limited per page view and per browser, with Retry-After', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await videoWithForm(harness, ws, { placement: 'end' });

  // One page view: the token's limit, whichever browser claims it.
  const view = pageView(videoId);
  for (let i = 0; i < CAPTURE_LIMITS.perToken; i++) {
    const res = await capture(harness, { token: view.token, viewer_id: newViewer(), email: `page${i}@example.com` });
    assert.equal(res.status, 202, res.raw);
  }
  const limited = await capture(harness, { token: view.token, viewer_id: newViewer(), email: 'one-more@example.com' });
  assert.equal(limited.status, 429, limited.raw);
  assert.equal(limited.body.error.code, 'rate_limited');
  assert.match(String(limited.headers['retry-after']), /^[1-9]\d*$/);

  // One browser: the viewer's limit, across fresh page views.
  const viewerId = newViewer();
  for (let i = 0; i < CAPTURE_LIMITS.perViewer; i++) {
    const res = await capture(harness, { token: pageView(videoId).token, viewer_id: viewerId, email: `browser${i}@example.com` });
    assert.equal(res.status, 202, res.raw);
  }
  const again = await capture(harness, { token: pageView(videoId).token, viewer_id: viewerId, email: 'browser-more@example.com' });
  assert.equal(again.status, 429);
  assert.ok(Number(again.headers['retry-after']) >= 1);

  const emails = await harness.database.db.selectFrom('leads').select('email').where('workspace_id', '=', ws.id).execute();
  assert.equal(emails.length, CAPTURE_LIMITS.perToken + CAPTURE_LIMITS.perViewer, 'refused submissions wrote nothing');
});

test('every hostile value in every field answers success or a small, documented 4xx, never a 5xx', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await videoWithForm(harness, ws, { placement: 'end', fields: ['first_name', 'last_name', 'phone'] });
  const failures: string[] = [];
  const post = async (payload: string) => {
    const res = await capture(harness, payload);
    const found = answerProblems(res.status, Buffer.byteLength(res.raw), res.body);
    if (found.length > 0) failures.push(`${payload.slice(0, 100)}: ${found.join(', ')}: ${res.raw.slice(0, 300)}`);
  };
  // A fresh page view and browser each time, so the limits do not hide what the fields answer.
  const valid = () => ({ token: pageView(videoId).token, viewer_id: newViewer(), email: 'fuzz@example.com' });
  let sent = 0;
  for (const value of HOSTILE) {
    for (const field of Object.keys(LeadCaptureBody.properties)) {
      await post(JSON.stringify({ ...valid(), [field]: value }));
      sent++;
    }
  }
  for (const name of PROTOTYPE_NAMES) await post(JSON.stringify({ ...valid(), [name]: 'x' }));
  await post(nestedArrayText(3_000));
  await post('{"__proto__":{"polluted":true}}');
  assert.ok(sent > 150, `sent ${sent}`);
  assert.deepEqual(failures, []);
});

test('PostgreSQL unreachable: a submission is a 503 with Retry-After, and retries do not use up the limits', async (t) => {
  // Port 1 on loopback refuses connections at once, like a stopped server.
  const database = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none' });
  const app = await buildApp(await buildDependencies(testConfig(join(tmpdir(), 'cuepoint-capture-outage')), { database }));
  t.after(async () => {
    await app.close();
    await database.close();
  });
  // One page view and browser retrying past the limits: each try is a 503, never a 429, since a
  // failure on our side is not counted against the viewer.
  const body = JSON.stringify({ token: pageView(randomUUID()).token, viewer_id: newViewer(), email: 'outage@example.com' });
  for (let i = 0; i <= CAPTURE_LIMITS.perViewer; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/leads/capture',
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
      payload: body,
    });
    assert.equal(res.statusCode, 503, `try ${i + 1}: ${res.body}`);
    assert.equal(res.json().error.code, 'service_unavailable');
    assert.equal(res.headers['retry-after'], '5');
  }
});
