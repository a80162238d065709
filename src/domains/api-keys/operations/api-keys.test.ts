/**
 * Minting, listing and revoking keys: equal-or-lower access, the three ways to ask for scopes,
 * tiers, kinds and expiry, secrets shown once and stored only as a hash.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { hashToken } from '../../../core/tokens.ts';

test('create_api_key takes a tier, a scope string or an array, and shows the key once', async (t) => {
  const { request, workspace, database } = await startTestApp(t);
  const ws = await workspace();
  const byTier = await request('POST', '/v1/api-keys', { token: ws.key, body: { name: 'Writer', scope: 'write' } });
  assert.equal(byTier.status, 201, byTier.raw);
  assert.equal(byTier.body.tier, 'write');
  assert.ok(!byTier.body.scopes.includes('workspace:manage'));
  assert.match(byTier.body.key, /^cue_live_[0-9A-Za-z]{38}$/);
  assert.equal(byTier.body.prefix, byTier.body.key.slice(0, 12));

  const byString = await request('POST', '/v1/api-keys', { token: ws.key, body: { name: 'Pair', scope: 'analytics:read  videos:read' } });
  assert.deepEqual(byString.body.scopes, ['videos:read', 'analytics:read']);
  assert.equal(byString.body.tier, 'read');
  const byArray = await request('POST', '/v1/api-keys', {
    token: ws.key,
    body: { name: 'Admin', scope: ['workspace:manage', 'videos:read'] },
  });
  assert.equal(byArray.body.tier, 'admin');
  const byDefault = await request('POST', '/v1/api-keys', { token: ws.key, body: { name: 'Default' } });
  assert.equal(byDefault.body.tier, 'read');
  assert.equal(byDefault.body.expires_at, null);

  const stored = await database.db
    .selectFrom('credentials')
    .select(['token_hash', 'prefix'])
    .where('id', '=', byTier.body.key_id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.token_hash, hashToken(byTier.body.key));
  const list = await request('GET', '/v1/api-keys', { token: ws.key });
  assert.doesNotMatch(list.raw, new RegExp(byTier.body.key));
  assert.equal(list.body.pagination.total, 5);
  assert.deepEqual(Object.keys(list.body.api_keys[0]).sort(), [
    'created_at',
    'expires_at',
    'key_id',
    'kind',
    'name',
    'prefix',
    'scopes',
    'tier',
  ]);

  const unknown = await request('POST', '/v1/api-keys', {
    token: ws.key,
    body: { name: 'Bad', scope: 'videos:read videos:delete everything' },
  });
  assert.equal(unknown.status, 400);
  assert.match(unknown.body.error.message, /videos:delete, everything/);
});

test('a key can only mint keys of equal or lower access', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const manager = await ws.mintKey({ scopes: ['workspace:manage', 'videos:read'] });
  const lower = await request('POST', '/v1/api-keys', { token: manager.key, body: { name: 'Lower', scope: 'videos:read' } });
  assert.equal(lower.status, 201);
  const higher = await request('POST', '/v1/api-keys', { token: manager.key, body: { name: 'Higher', scope: 'videos:read leads:read' } });
  assert.equal(higher.status, 403);
  assert.equal(higher.body.error.code, 'forbidden');
  assert.equal(higher.body.error.details.required_scope, 'leads:read');
  const tier = await request('POST', '/v1/api-keys', { token: manager.key, body: { name: 'Tier', scope: 'write' } });
  assert.equal(tier.status, 403);
});

test('assistant tokens expire after 30 days by default; expired and revoked keys leave the list', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const assistant = await request('POST', '/v1/api-keys', { token: ws.key, body: { name: 'Claude', kind: 'assistant', scope: 'read' } });
  assert.equal(assistant.status, 201, assistant.raw);
  assert.match(assistant.body.key, /^cue_asst_/);
  const days = (Date.parse(assistant.body.expires_at) - Date.parse(assistant.body.created_at)) / 86_400_000;
  assert.equal(Math.round(days), 30);
  const past = await request('POST', '/v1/api-keys', { token: ws.key, body: { name: 'Old', expires_at: '2020-01-01T00:00:00Z' } });
  assert.equal(past.status, 400);
  const soon = await request('POST', '/v1/api-keys', {
    token: ws.key,
    body: { name: 'Soon', expires_at: new Date(Date.now() + 250).toISOString() },
  });
  assert.equal(soon.status, 201);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const names = async () =>
    (await request('GET', '/v1/api-keys', { token: ws.key })).body.api_keys.map((k: { name: string }) => k.name).sort();
  assert.deepEqual(await names(), ['Admin key', 'Claude']);
  await request('DELETE', `/v1/api-keys/${assistant.body.key_id}`, { token: ws.key });
  assert.deepEqual(await names(), ['Admin key']);
});
