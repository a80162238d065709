import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';

test('get_workspace reports plan, entitlements, usage, settings, the caller and assistant guidance', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace('free');
  await ws.addVideo({ file_size: 1000 });
  await ws.addVideo({ file_size: 500, archived: true, status: 'processing' });
  const reader = await ws.mintKey({ scopes: ['workspace:read'] });
  const res = await request('GET', '/v1/workspace', { token: reader.key });
  assert.equal(res.status, 200, res.raw);
  assert.equal(res.body.workspace_id, ws.id);
  assert.equal(res.body.plan, 'free');
  assert.deepEqual(res.body.entitlements, { interactive_routes: false, webhooks: false, scheduling: false });
  assert.deepEqual(res.body.limits, { videos_max: 25, requests_per_minute: 120 });
  assert.deepEqual(res.body.usage, { videos: 2, videos_ready: 1, videos_archived: 1, storage_bytes: 1500, api_keys: 2 });
  assert.deepEqual(res.body.settings, {
    mask_pii: true,
    timezone: 'UTC',
    stripe_webhook_configured: false,
    stripe_webhook_url: `http://localhost:3000/stripe/webhooks/${ws.id}`,
    channel_slug: res.body.settings.channel_slug,
    channel_url: `http://localhost:3000/c/${res.body.settings.channel_slug}`,
  });
  assert.match(res.body.settings.channel_slug, /^test-[0-9a-f]{8}$/, 'a new workspace’s slug is made from its name');
  assert.deepEqual(res.body.credential, { key_id: reader.id, kind: 'api_key', role: 'owner', tier: 'read', scopes: ['workspace:read'] });
  assert.match(res.body.assistant_guidance, /Archive instead of deleting/);
});
