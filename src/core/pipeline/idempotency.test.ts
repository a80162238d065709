/**
 * Idempotent writes: replay with Idempotency-Replayed, 409 for another request under the same key or
 * one still running, keys private to their credential, exactly one effect from 50 concurrent
 * identical requests, and nothing stored for requests refused before they ran.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { Type } from 'typebox';
import { startTestApp } from '../../../test/helpers/app.ts';
import { catalog } from '../../catalog.ts';
import type { Database } from '../../db/tables/index.ts';
import { defineOperation } from '../operation.ts';

async function countKeys(db: Kysely<Database>, workspaceId: string, name: string): Promise<number> {
  const rows = await sql<{
    n: number;
  }>`select count(*)::int as n from credentials where workspace_id = ${workspaceId} and name = ${name}`.execute(db);
  return rows.rows[0]?.n ?? 0;
}

/** A write that fails unexpectedly the first time and succeeds after, like a transient outage. */
function flakyWrite() {
  let calls = 0;
  return defineOperation({
    name: 'flaky_write',
    summary: 'Fails once',
    description: 'Test-only write that throws an unexpected error on its first call and succeeds after that.',
    method: 'POST',
    path: '/test/flaky',
    group: 'Test',
    scope: 'videos:write',
    write: true,
    errors: [],
    input: Type.Object({ value: Type.String() }, { additionalProperties: false }),
    output: Type.Object({ calls: Type.Integer() }),
    example: { value: 'x' },
    async handler() {
      calls++;
      if (calls === 1) throw new Error('transient failure');
      return { calls };
    },
  });
}

test('the same key and request replays the stored response; a different request is 409', async (t) => {
  const { request, workspace, database } = await startTestApp(t);
  const ws = await workspace();
  const headers = { 'idempotency-key': 'order-42' };
  const first = await request('POST', '/v1/api-keys', { token: ws.key, body: { name: 'Reporting', scope: 'read' }, headers });
  assert.equal(first.status, 201, first.raw);
  assert.equal(first.headers['idempotency-replayed'], undefined);
  const again = await request('POST', '/v1/api-keys', {
    token: ws.key,
    body: { scope: 'read', name: 'Reporting' },
    headers: { 'idempotency-key': '"order-42"' },
  });
  assert.equal(again.status, 201);
  assert.equal(again.headers['idempotency-replayed'], 'true');
  assert.deepEqual(again.body, first.body);
  assert.equal(await countKeys(database.db, ws.id, 'Reporting'), 1);

  const different = await request('POST', '/v1/api-keys', { token: ws.key, body: { name: 'Other', scope: 'read' }, headers });
  assert.equal(different.status, 409);
  assert.equal(different.body.error.code, 'conflict');
  assert.equal(different.body.error.details.reason, 'idempotency_key_reused');
  const otherOperation = await request('PATCH', `/v1/videos/${await ws.addVideo()}`, { token: ws.key, body: {}, headers });
  assert.equal(otherOperation.status, 409, 'a key names one request, whatever the operation');
});

test('keys are private to the credential that sent them', async (t) => {
  const { request, workspace, database } = await startTestApp(t);
  const ws = await workspace();
  const other = await ws.mintKey();
  const headers = { 'idempotency-key': 'shared-key' };
  const mine = await request('POST', '/v1/api-keys', { token: ws.key, body: { name: 'Mine' }, headers });
  const theirs = await request('POST', '/v1/api-keys', { token: other.key, body: { name: 'Mine' }, headers });
  assert.equal(theirs.status, 201);
  assert.equal(theirs.headers['idempotency-replayed'], undefined);
  assert.notEqual(theirs.body.key_id, mine.body.key_id);
  assert.equal(await countKeys(database.db, ws.id, 'Mine'), 2);
});

test('50 concurrent identical requests with one key have exactly one effect', async (t) => {
  const { request, workspace, database } = await startTestApp(t);
  const ws = await workspace();
  const headers = { 'idempotency-key': 'burst-1' };
  const send = () => request('POST', '/v1/api-keys', { token: ws.key, body: { name: 'Burst' }, headers });
  const responses = await Promise.all(Array.from({ length: 50 }, send));
  const created = responses.filter((r) => r.status === 201);
  const conflicts = responses.filter((r) => r.status === 409);
  assert.equal(created.length + conflicts.length, 50, responses.map((r) => r.status).join(','));
  assert.ok(created.length >= 1);
  assert.equal(new Set(created.map((r) => r.body.key_id)).size, 1, 'every success is the same key');
  for (const c of conflicts) assert.equal(c.body.error.details.reason, 'idempotency_request_in_progress');
  assert.equal(await countKeys(database.db, ws.id, 'Burst'), 1);
  const replay = await send();
  assert.equal(replay.headers['idempotency-replayed'], 'true');
  assert.equal(replay.body.key_id, created[0]?.body.key_id);
});

test('business errors are stored and replayed; refusals before the handler are not stored', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const missing = '00000000-0000-4000-8000-000000000000';
  const notFound = await request('PATCH', `/v1/videos/${missing}`, {
    token: ws.key,
    body: { title: 'x' },
    headers: { 'idempotency-key': 'nf' },
  });
  assert.equal(notFound.status, 404);
  const replayed = await request('PATCH', `/v1/videos/${missing}`, {
    token: ws.key,
    body: { title: 'x' },
    headers: { 'idempotency-key': 'nf' },
  });
  assert.equal(replayed.status, 404);
  assert.equal(replayed.headers['idempotency-replayed'], 'true');
  assert.deepEqual(replayed.body, notFound.body);

  const invalid = await request('POST', '/v1/api-keys', { token: ws.key, body: { name: '' }, headers: { 'idempotency-key': 'v1' } });
  assert.equal(invalid.status, 400);
  const fixed = await request('POST', '/v1/api-keys', { token: ws.key, body: { name: 'Fixed' }, headers: { 'idempotency-key': 'v1' } });
  assert.equal(fixed.status, 201, 'a request refused by validation did not use up its key');

  const reader = await ws.mintKey({ scopes: ['videos:read'] });
  const refused = await request('POST', '/v1/api-keys', { token: reader.key, body: { name: 'R' }, headers: { 'idempotency-key': 'r1' } });
  assert.equal(refused.status, 403);
  assert.equal(refused.headers['idempotency-replayed'], undefined);
});

test('Idempotency-Key must be 1–255 printable characters', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  for (const key of ['x'.repeat(256), 'tab\tkey', '""']) {
    const res = await request('POST', '/v1/api-keys', { token: ws.key, body: { name: 'K' }, headers: { 'idempotency-key': key } });
    assert.equal(res.status, 400, key);
    assert.match(res.body.error.message, /Idempotency-Key/);
  }
  const longest = await request('POST', '/v1/api-keys', {
    token: ws.key,
    body: { name: 'K' },
    headers: { 'idempotency-key': 'k'.repeat(255) },
  });
  assert.equal(longest.status, 201);
});

test('a 500 releases the key, so retrying once runs the request again', async (t) => {
  const { request, workspace } = await startTestApp(t, { operations: [...catalog, flakyWrite()] });
  const ws = await workspace();
  const headers = { 'idempotency-key': 'retry-me' };
  const failed = await request('POST', '/v1/test/flaky', { token: ws.key, body: { value: 'a' }, headers });
  assert.equal(failed.status, 500);
  const retried = await request('POST', '/v1/test/flaky', { token: ws.key, body: { value: 'a' }, headers });
  assert.equal(retried.status, 200);
  assert.deepEqual(retried.body, { calls: 2 });
  const replayed = await request('POST', '/v1/test/flaky', { token: ws.key, body: { value: 'a' }, headers });
  assert.equal(replayed.headers['idempotency-replayed'], 'true');
  assert.deepEqual(replayed.body, { calls: 2 });
});

test('a claim abandoned by a crashed process is taken over after its lock times out', async (t) => {
  const { request, workspace, database } = await startTestApp(t);
  const ws = await workspace();
  const credential = await database.db.selectFrom('credentials').select('id').where('workspace_id', '=', ws.id).executeTakeFirstOrThrow();
  const { fingerprintOf } = await import('./idempotency.ts');
  const stale = new Date(Date.now() - 120_000);
  await database.db
    .insertInto('idempotency_keys')
    .values({
      credential_id: credential.id,
      key: 'crashed',
      workspace_id: ws.id,
      operation: 'create_api_key',
      fingerprint: fingerprintOf('create_api_key', { name: 'Recovered' }),
      state: 'running',
      locked_at: stale,
      expires_at: new Date(Date.now() + 3_600_000),
    })
    .execute();
  const res = await request('POST', '/v1/api-keys', {
    token: ws.key,
    body: { name: 'Recovered' },
    headers: { 'idempotency-key': 'crashed' },
  });
  assert.equal(res.status, 201, res.raw);
  assert.equal(await countKeys(database.db, ws.id, 'Recovered'), 1);
});
