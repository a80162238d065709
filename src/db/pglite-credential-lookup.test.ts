/**
 * The embedded database's prepared credential lookup answers exactly what the plain query answers,
 * takes anything but a hash of ours the plain way, and recovers when its statement is gone.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { createWorkspace } from '../create-workspace.ts';
import { FIND_CREDENTIAL_SQL, openDatabase } from './client.ts';
import { preparedCredentialLookup } from './pglite-credential-lookup.ts';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

test('the prepared lookup finds a key by its hash as the plain query does, and misses what is not there', async (t) => {
  const database = await openDatabase({ kind: 'pglite-memory' });
  t.after(() => database.close());
  const { apiKey, workspace } = await createWorkspace(database.db, { name: 'Lookup', plan: 'pro', now: new Date() });
  const lookup = preparedCredentialLookup<{ workspace_id: string; scopes: string[] }>(database.db, FIND_CREDENTIAL_SQL);
  const plain = (await database.db.executeQuery(CompiledQuery.raw(FIND_CREDENTIAL_SQL, [hashOf(apiKey)]))).rows[0];

  const found = await lookup(hashOf(apiKey));
  assert.deepEqual(found, plain);
  assert.equal(found?.workspace_id, workspace.id);
  assert.ok(Array.isArray(found?.scopes) && found.scopes.length > 0);
  assert.equal(await lookup(hashOf('cue_sk_nothing')), undefined);
  // Not a hash of ours: never spliced into SQL, looked up (and missed) with a bound parameter.
  assert.equal(await lookup("') or true --"), undefined);
  const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(database.db);
  assert.deepEqual(
    rows.map((row) => row.name),
    ['find_credential'],
  );
});

test('a lookup whose statement was dropped answers the plain way and prepares it again', async (t) => {
  const database = await openDatabase({ kind: 'pglite-memory' });
  t.after(() => database.close());
  const { apiKey, workspace } = await createWorkspace(database.db, { name: 'Dropped', plan: 'pro', now: new Date() });
  const lookup = preparedCredentialLookup<{ workspace_id: string }>(database.db, FIND_CREDENTIAL_SQL);
  assert.equal((await lookup(hashOf(apiKey)))?.workspace_id, workspace.id);
  await sql`deallocate find_credential`.execute(database.db);
  assert.equal((await lookup(hashOf(apiKey)))?.workspace_id, workspace.id, 'answered although the statement was gone');
  assert.equal((await lookup(hashOf(apiKey)))?.workspace_id, workspace.id);
  const { rows } = await sql<{ count: number }>`select count(*)::int as count from pg_prepared_statements`.execute(database.db);
  assert.equal(rows[0]?.count, 1, 'prepared again');
});
