/**
 * Authorization codes on the real database: redeemed once, by their client, within their minute, with
 * the same redirect URI, the PKCE verifier and the same resource; a second redemption is a replay the
 * caller hears about; two redemptions racing cannot both win; nothing but a hash is stored.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { registerClient } from '../clients/clients.queries.ts';
import { CODE_LIFETIME_MS, type CodeGrant, issueAuthorizationCode, redeemAuthorizationCode, sweepExpiredCodes } from './codes.queries.ts';

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const RESOURCE = 'http://localhost:3000/mcp';

async function setUp(t: Parameters<typeof startTestApp>[0]) {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const person = await ws.addMember({ role: 'admin' });
  const client = await registerClient(
    harness.database.db,
    { clientName: 'Claude', clientUri: null, redirectUris: ['http://127.0.0.1/callback'] },
    new Date(),
  );
  const grant: CodeGrant = {
    clientId: client.clientId,
    userId: person.userId,
    workspaceId: ws.id,
    redirectUri: 'http://127.0.0.1:51000/callback',
    scopes: ['videos:read', 'analytics:read'],
    codeChallenge: createHash('sha256').update(VERIFIER).digest('base64url'),
    resource: RESOURCE,
  };
  const redeem = (
    code: unknown,
    now: Date,
    change: Partial<{ clientId: string; redirectUri: unknown; verifier: unknown; resource: unknown }> = {},
  ) =>
    redeemAuthorizationCode(harness.database.db, {
      code,
      clientId: client.clientId,
      redirectUri: grant.redirectUri,
      verifier: VERIFIER,
      resource: RESOURCE,
      now,
      ...change,
    });
  return { db: harness.database.db, grant, redeem };
}

test('a code is redeemed once; the second time is a replay naming what the first gave', async (t) => {
  const { db, grant, redeem } = await setUp(t);
  const now = new Date();
  const code = await issueAuthorizationCode(db, grant, now);
  assert.match(code, /^[A-Za-z0-9_-]{43}$/);
  const stored = await db.selectFrom('oauth_codes').selectAll().where('client_id', '=', grant.clientId).execute();
  assert.equal(stored.length, 1);
  assert.equal(JSON.stringify(stored).includes(code), false, 'only a hash of the code is stored');
  const first = await redeem(code, new Date(now.getTime() + 1000));
  assert.ok(first.ok);
  assert.deepEqual(first.grant, grant);
  const second = await redeem(code, new Date(now.getTime() + 2000));
  assert.ok(!second.ok);
  assert.equal(second.description, 'The code was already used.');
  assert.deepEqual(second.replayOf, { codeHash: first.codeHash, grant });
  // Without a resource in the token request, the code's own applies.
  const other = await issueAuthorizationCode(db, grant, now);
  assert.ok((await redeem(other, now, { resource: undefined })).ok);
});

test('two redemptions racing: exactly one wins', async (t) => {
  const { db, grant, redeem } = await setUp(t);
  const now = new Date();
  const code = await issueAuthorizationCode(db, grant, now);
  const results = await Promise.all(Array.from({ length: 5 }, () => redeem(code, now)));
  assert.equal(results.filter((result) => result.ok).length, 1);
});

test('every mismatch is refused, and spends the code', async (t) => {
  const { db, grant, redeem } = await setUp(t);
  const now = new Date();
  const cases: [Parameters<typeof redeem>[2], Date, string][] = [
    [{ clientId: 'cue_client_someone_else' }, now, 'The code is not valid.'],
    [{}, new Date(now.getTime() + CODE_LIFETIME_MS), 'The code has expired: ask the person again.'],
    [{ redirectUri: 'http://127.0.0.1:51001/callback' }, now, 'redirect_uri must be the one the authorization request named.'],
    [{ redirectUri: undefined }, now, 'redirect_uri must be the one the authorization request named.'],
    [{ verifier: `${VERIFIER.slice(0, -1)}Y` }, now, "code_verifier does not match the authorization request's code_challenge."],
    [{ verifier: undefined }, now, "code_verifier does not match the authorization request's code_challenge."],
    [{ resource: 'http://localhost:3000/v1' }, now, `resource must be ${RESOURCE}, as the authorization request said.`],
  ];
  for (const [change, at, description] of cases) {
    const code = await issueAuthorizationCode(db, grant, now);
    const refused = await redeem(code, at, change);
    assert.deepEqual(refused, { ok: false, description }, JSON.stringify(change));
    assert.equal((await redeem(code, now)).ok, false, 'the code is spent');
  }
  for (const code of [undefined, '', 'x'.repeat(201), 'not-a-code-anyone-issued']) {
    const refused = await redeem(code, now);
    assert.ok(!refused.ok);
    assert.match(refused.description, /code is missing or malformed|The code is not valid/);
  }
});

test('codes past their lifetime by the sweep’s age are removed', async (t) => {
  const { db, grant } = await setUp(t);
  const now = new Date();
  await issueAuthorizationCode(db, grant, new Date(now.getTime() - 2 * 24 * 60 * 60 * 1000));
  const fresh = await issueAuthorizationCode(db, grant, now);
  assert.ok((await sweepExpiredCodes(db, new Date(now.getTime() - 24 * 60 * 60 * 1000))) >= 1);
  const left = await db.selectFrom('oauth_codes').select('code_hash').where('client_id', '=', grant.clientId).execute();
  assert.deepEqual(
    left.map((row) => row.code_hash),
    [createHash('sha256').update(fresh).digest('hex')],
  );
});
