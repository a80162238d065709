/**
 * Minting, listing and revoking keys: equal-or-lower access (scopes and lifetime), the three ways to
 * ask for scopes, tiers, kinds and expiry, secrets shown once and stored only as a hash; revoking only
 * what the caller's scopes cover, never the last admin credential (also under concurrent revocations),
 * and when a key was last used.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { AppError } from '../../../core/errors.ts';
import { TIER_SCOPES } from '../../../core/scopes.ts';
import { hashToken } from '../../../core/secrets/tokens.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { revokeCredential } from '../api-keys.queries.ts';

async function idOfKey(database: DatabaseHandle, key: string): Promise<string> {
  const row = await database.db.selectFrom('credentials').select('id').where('token_hash', '=', hashToken(key)).executeTakeFirstOrThrow();
  return row.id;
}

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
    'created_by',
    'expires_at',
    'key_id',
    'kind',
    'last_used_at',
    'name',
    'prefix',
    'resource',
    'scopes',
    'tier',
  ]);
  assert.equal(list.body.api_keys[0].resource, null, 'a minted key works everywhere');

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
  // The app's clock is moved past the expiry instead of waiting for it, which a busy machine could overshoot.
  let now = new Date();
  const { request, workspace } = await startTestApp(t, { clock: () => now });
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
    body: { name: 'Soon', expires_at: new Date(now.getTime() + 60_000).toISOString() },
  });
  assert.equal(soon.status, 201);
  now = new Date(now.getTime() + 60_000);
  const names = async () =>
    (await request('GET', '/v1/api-keys', { token: ws.key })).body.api_keys.map((k: { name: string }) => k.name).sort();
  assert.deepEqual(await names(), ['Admin key', 'Claude']);
  await request('DELETE', `/v1/api-keys/${assistant.body.key_id}`, { token: ws.key });
  assert.deepEqual(await names(), ['Admin key']);
});

test('a key cannot outlive the credential that mints it; by default it expires with it', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const minterExpiry = new Date(Date.now() + 60 * 60 * 1000);
  const minter = await ws.mintKey({ kind: 'assistant', expiresAt: minterExpiry });

  const later = await request('POST', '/v1/api-keys', {
    token: minter.key,
    body: { name: 'Later', expires_at: new Date(minterExpiry.getTime() + 1000).toISOString() },
  });
  assert.equal(later.status, 403, later.raw);
  assert.equal(later.body.error.code, 'forbidden');
  assert.equal(later.body.error.details.latest_expires_at, minterExpiry.toISOString());
  assert.match(later.body.error.message, new RegExp(`expires at ${minterExpiry.toISOString()}`));

  const never = await request('POST', '/v1/api-keys', { token: minter.key, body: { name: 'Never, asked of an expiring key' } });
  assert.equal(never.status, 201, never.raw);
  assert.equal(never.body.expires_at, minterExpiry.toISOString(), 'an API key minted by an expiring credential expires with it');
  const assistant = await request('POST', '/v1/api-keys', { token: minter.key, body: { name: 'Assistant', kind: 'assistant' } });
  assert.equal(assistant.body.expires_at, minterExpiry.toISOString(), 'the 30-day default is cut to the minter’s expiry');
  const exact = await request('POST', '/v1/api-keys', {
    token: minter.key,
    body: { name: 'Exact', expires_at: minterExpiry.toISOString() },
  });
  assert.equal(exact.status, 201, exact.raw);
  const sooner = new Date(minterExpiry.getTime() - 60_000).toISOString();
  const earlier = await request('POST', '/v1/api-keys', { token: minter.key, body: { name: 'Earlier', expires_at: sooner } });
  assert.equal(earlier.body.expires_at, sooner);

  // A minter that lasts longer than 30 days leaves the assistant default alone; one that never expires, everything.
  const longMinter = await ws.mintKey({ expiresAt: new Date(Date.now() + 90 * 86_400_000) });
  const longAssistant = await request('POST', '/v1/api-keys', { token: longMinter.key, body: { name: 'A', kind: 'assistant' } });
  const days = (Date.parse(longAssistant.body.expires_at) - Date.parse(longAssistant.body.created_at)) / 86_400_000;
  assert.equal(Math.round(days), 30);
  const fromAdmin = await request('POST', '/v1/api-keys', { token: ws.key, body: { name: 'Forever' } });
  assert.equal(fromAdmin.body.expires_at, null);
});

test('a key can only revoke keys whose scopes it holds', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const manager = await ws.mintKey({ scopes: ['workspace:manage'] });
  const broad = await ws.mintKey({ scopes: ['workspace:manage', 'videos:read', 'leads:read'] });
  const refused = await request('DELETE', `/v1/api-keys/${broad.id}`, { token: manager.key });
  assert.equal(refused.status, 403, refused.raw);
  assert.equal(refused.body.error.code, 'forbidden');
  assert.deepEqual(refused.body.error.details.missing_scopes, ['videos:read', 'leads:read']);
  assert.equal(refused.body.error.details.required_scope, 'videos:read');
  assert.match(refused.body.error.message, /lacks videos:read, leads:read/);
  assert.equal((await request('GET', '/v1/api-keys', { token: broad.key })).status, 200, 'the broader key still works');

  const narrow = await ws.mintKey({ scopes: ['workspace:manage'] });
  const allowed = await request('DELETE', `/v1/api-keys/${narrow.id}`, { token: manager.key });
  assert.equal(allowed.status, 200, allowed.raw);
  assert.equal(allowed.body.revoked_self, false);
  const byBroad = await request('DELETE', `/v1/api-keys/${manager.id}`, { token: broad.key });
  assert.equal(byBroad.status, 200, 'a broader key revokes a narrower one');
});

test('the last active admin credential cannot be revoked; a key revoking itself is told so', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const keys = async (token: string) => (await request('GET', '/v1/api-keys', { token })).body.api_keys;
  const [admin] = await keys(ws.key);

  const alone = await request('DELETE', `/v1/api-keys/${admin.key_id}`, { token: ws.key });
  assert.equal(alone.status, 409, alone.raw);
  assert.equal(alone.body.error.code, 'conflict');
  assert.equal(alone.body.error.details.reason, 'last_admin_credential');
  assert.match(alone.body.error.message, /Mint another admin key first/);
  assert.equal((await request('GET', '/v1/workspace', { token: ws.key })).status, 200, 'still works');

  // Expired and revoked admin credentials do not count as another admin; a non-admin key never does.
  await ws.mintKey({ expiresAt: new Date(Date.now() + 1) });
  const revokedAdmin = await ws.mintKey();
  await request('DELETE', `/v1/api-keys/${revokedAdmin.id}`, { token: ws.key });
  await ws.mintKey({ scopes: TIER_SCOPES.write });
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal((await request('DELETE', `/v1/api-keys/${admin.key_id}`, { token: ws.key })).status, 409);

  // With an unexpired assistant token holding workspace:manage, the key may go, and says it revoked itself.
  const second = await ws.mintKey({
    kind: 'assistant',
    scopes: ['workspace:manage', ...TIER_SCOPES.read],
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  const self = await request('DELETE', `/v1/api-keys/${admin.key_id}`, { token: ws.key });
  assert.equal(self.status, 200, self.raw);
  assert.equal(self.body.revoked_self, true);
  assert.equal((await request('GET', '/v1/workspace', { token: ws.key })).status, 401);

  const last = await request('DELETE', `/v1/api-keys/${second.id}`, { token: second.key });
  assert.equal(last.status, 409, 'the assistant token is now the last admin credential');
  assert.equal((await request('GET', '/v1/workspace', { token: second.key })).status, 200);
});

test('two admin keys revoking each other at once: exactly one succeeds, an admin remains', async (t) => {
  const { request, workspace, database } = await startTestApp(t);
  for (let round = 0; round < 3; round++) {
    const ws = await workspace();
    const a = { id: await idOfKey(database, ws.key), key: ws.key };
    const b = await ws.mintKey();
    const [ab, ba] = await Promise.all([
      request('DELETE', `/v1/api-keys/${b.id}`, { token: a.key }),
      request('DELETE', `/v1/api-keys/${a.id}`, { token: b.key }),
    ]);
    const statuses = [ab.status, ba.status].sort();
    assert.equal(statuses.filter((s) => s === 200).length, 1, `round ${round}: ${ab.raw} / ${ba.raw}`);
    assert.ok(
      statuses.every((s) => s === 200 || s === 409 || s === 401),
      `round ${round}: ${statuses}`,
    );
    const remaining = await database.db
      .selectFrom('credentials')
      .select('id')
      .where('workspace_id', '=', ws.id)
      .where('revoked_at', 'is', null)
      .execute();
    assert.equal(remaining.length, 1);
  }
});

test('revocations of the last two admin keys serialise on the workspace: the second sees the first', async (t) => {
  const { workspace, database } = await startTestApp(t);
  const ws = await workspace();
  const aId = await idOfKey(database, ws.key);
  const b = await ws.mintKey();
  const admin = (credentialId: string) => ({ credentialId, scopes: new Set(TIER_SCOPES.admin) });

  let holding!: () => void;
  const firstHolds = new Promise<void>((resolve) => {
    holding = resolve;
  });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const first = database.db.transaction().execute(async (trx) => {
    await revokeCredential(trx, ws.id, b.id, admin(aId), new Date());
    holding();
    await gate;
  });
  await firstHolds;
  // The first transaction has revoked B and not committed; the second now tries to revoke A.
  const second = database.db.transaction().execute((trx) => revokeCredential(trx, ws.id, aId, admin(b.id), new Date()));
  const settled = second.then(
    () => 'revoked',
    (error: unknown) => error,
  );
  if (database.kind === 'postgres') {
    // On PostgreSQL, wait until the second is blocked on the workspace lock (PGlite has one connection: it queues).
    for (;;) {
      const waiting = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where wait_event_type = 'Lock' and query ilike '%for no key update%'`.execute(database.db);
      if ((waiting.rows[0]?.n ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  release();
  await first;
  const outcome = await settled;
  assert.ok(outcome instanceof AppError, `the second revocation must fail, got ${String(outcome)}`);
  assert.equal(outcome.code, 'conflict');
});

test('last_used_at: written when a key authenticates, at most once a minute, and listed', async (t) => {
  let now = new Date('2031-03-01T10:00:00.000Z');
  const { request, workspace, database } = await startTestApp(t, { clock: () => now });
  const ws = await workspace();
  const reader = await ws.mintKey({ scopes: ['workspace:read'] });
  const stamp = async () =>
    (
      await sql<{ last_used_at: Date | null; version: string }>`
        select last_used_at, xmin::text as version from credentials where id = ${reader.id}`.execute(database.db)
    ).rows[0];
  const listed = async () =>
    (await request('GET', '/v1/api-keys', { token: ws.key })).body.api_keys.find((k: { key_id: string }) => k.key_id === reader.id);

  assert.equal((await stamp())?.last_used_at, null);
  assert.equal((await listed()).last_used_at, null);
  assert.equal((await request('GET', '/v1/workspace', { token: reader.key })).status, 200);
  const first = await stamp();
  assert.equal(first?.last_used_at?.toISOString(), '2031-03-01T10:00:00.000Z');

  now = new Date('2031-03-01T10:00:59.000Z');
  for (let i = 0; i < 3; i++) assert.equal((await request('GET', '/v1/workspace', { token: reader.key })).status, 200);
  assert.equal((await request('GET', '/v1/api-keys', { token: reader.key })).status, 403, 'a refused scope still authenticated');
  assert.deepEqual(await stamp(), first, 'no write within the minute: the row is the same version');

  now = new Date('2031-03-01T10:01:00.000Z');
  await request('GET', '/v1/workspace', { token: reader.key });
  assert.equal((await stamp())?.last_used_at?.toISOString(), '2031-03-01T10:01:00.000Z');
  assert.equal((await listed()).last_used_at, '2031-03-01T10:01:00.000Z');
});
