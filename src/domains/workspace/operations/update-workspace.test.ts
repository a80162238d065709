import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { collect, pageView, viewer } from '../../../../test/helpers/viewing.ts';

test('update_workspace sets the name and settings, validates the time zone, and needs workspace:manage', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const res = await harness.request('PATCH', '/v1/workspace', {
    token: ws.key,
    body: { name: 'Acme', timezone: 'europe/paris', mask_pii: false, assistant_guidance: 'Be brief.' },
  });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual(
    [res.body.name, res.body.settings, res.body.assistant_guidance],
    ['Acme', { ...res.body.settings, mask_pii: false, timezone: 'Europe/Paris' }, 'Be brief.'],
  );
  const read = await harness.request('GET', '/v1/workspace', { token: ws.key });
  assert.deepEqual([read.body.settings.mask_pii, read.body.settings.timezone], [false, 'Europe/Paris']);

  const unchanged = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: {} });
  assert.deepEqual([unchanged.status, unchanged.body.name], [200, 'Acme']);

  // An unknown zone is a schema problem, reported together with every other one.
  const bad = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { timezone: 'Mars/Olympus', name: '' } });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.error.details.errors.map((e: { field: string }) => e.field).sort(), ['name', 'timezone']);
  for (const timezone of ['Mars/Olympus', '+01:00', '']) {
    const zone = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { timezone } });
    assert.deepEqual([zone.status, zone.body.error.details.errors[0].field], [400, 'timezone'], timezone);
  }
  const problem = bad.body.error.details.errors.find((e: { field: string }) => e.field === 'timezone').problem;
  assert.equal(problem, 'must be an IANA time zone name, such as Europe/Paris or UTC');
  const alias = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { timezone: 'US/Eastern' } });
  assert.deepEqual([alias.status, alias.body.settings.timezone], [200, 'America/New_York']);

  const reader = await ws.mintKey({ scopes: ['workspace:read'] });
  const denied = await harness.request('PATCH', '/v1/workspace', { token: reader.key, body: { name: 'Nope' } });
  assert.deepEqual([denied.status, denied.body.error.details.required_scope], [403, 'workspace:manage']);
});

test('the name, shown as the public channel’s heading, must show something and hold no line breaks or direction overrides', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  for (const name of ['   ', '\u200B', '\u3164', '\u2800\u2800', '\u0301', '\uFFA0', 'Acme\nVideos', '\u202Eosla', 'x'.repeat(201)]) {
    const bad = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { name } });
    assert.deepEqual([bad.status, bad.body.error?.details.errors[0].field], [400, 'name'], JSON.stringify(name));
  }
  const good = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { name: 'Ünïon Vide\u0301o 🎬 עברית' } });
  assert.deepEqual([good.status, good.body.name], [200, 'Ünïon Vide\u0301o 🎬 עברית']);
});

test('after a time zone change, new viewing sessions count on days in the new zone', async (t) => {
  const now = new Date('2026-03-01T03:00:00Z');
  const harness = await startTestApp(t, { clock: () => now });
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 60 });
  const play = () =>
    collect(harness, {
      token: pageView(videoId, now).token,
      viewer_id: viewer('tz'),
      sequence: 1,
      events: [{ type: 'progress', ranges: [[0, 5]] }],
    });
  await play();
  await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { timezone: 'America/Los_Angeles' } });
  await play();
  const days = await harness.database.db
    .selectFrom('video_daily_stats')
    .select(['day', 'views'])
    .where('video_id', '=', videoId)
    .orderBy('day')
    .execute();
  assert.deepEqual(days, [
    { day: '2026-02-28', views: 1 },
    { day: '2026-03-01', views: 1 },
  ]);
});

test('update_workspace takes the Stripe signing secret write-only: sealed, never returned, removable', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ';
  const set = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { stripe_webhook_secret: secret } });
  assert.equal(set.status, 200, set.raw);
  assert.equal(set.body.settings.stripe_webhook_configured, true);
  assert.equal(set.body.settings.stripe_webhook_url, `http://localhost:3000/stripe/webhooks/${ws.id}`);
  assert.ok(!set.raw.includes(secret), 'the secret never comes back');
  const stored = await harness.database.db
    .selectFrom('workspaces')
    .select('stripe_signing_secret')
    .where('id', '=', ws.id)
    .executeTakeFirstOrThrow();
  assert.ok(stored.stripe_signing_secret && !stored.stripe_signing_secret.includes(secret.slice(6)), 'kept sealed');
  const read = await harness.request('GET', '/v1/workspace', { token: ws.key });
  assert.ok(!read.raw.includes(secret));
  for (const bad of ['sk_live_123', 'whsec_short', 'whsec_has spaces in it 0123456789']) {
    const res = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { stripe_webhook_secret: bad } });
    assert.deepEqual([res.status, res.body.error.details.errors[0].field], [400, 'stripe_webhook_secret'], bad);
  }
  const removed = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { stripe_webhook_secret: null } });
  assert.equal(removed.body.settings.stripe_webhook_configured, false);
});
