/**
 * The PostgreSQL client's timeouts (src/db/client.ts), on a private PostgreSQL: a statement slower
 * than the timeout is cancelled by the server and counts as an outage (503), and the connection
 * stays usable; a connection that stops answering altogether (packets go nowhere, as in a network
 * partition) times out on the client side and is closed, not handed back to the pool, where every
 * later query would have queued behind the one that will never be answered; and while PostgreSQL is
 * frozen, ping (what /ready asks) says false within its timeout.
 */
import assert from 'node:assert/strict';
import { connect, createServer, type Socket } from 'node:net';
import test from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { describeUnavailable, outageError } from '../../src/core/pipeline/unavailable.ts';
import { openDatabase } from '../../src/db/client.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { startPrivatePostgres } from '../helpers/private-services.ts';
import { freePort, onCleanup } from '../helpers/server-process.ts';

const TIMEOUT_MS = 500;

test('a statement past the timeout is cancelled by the server: an outage, and the connection stays usable; a lock wait is not an outage', {
  timeout: 120_000,
}, async (t) => {
  const postgres = await startPrivatePostgres(t);
  const database = await openDatabase({ kind: 'postgres', url: postgres.url, timeoutMs: TIMEOUT_MS, poolSize: 1 });
  onCleanup(t, () => closeWithin(database));
  const slow = await sql`select pg_sleep(5)`.execute(database.db).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(slow instanceof Error, 'the slow statement failed');
  assert.equal((slow as { code?: string }).code, '57014', `cancelled by statement_timeout: ${slow.message}`);
  assert.ok(describeUnavailable(slow), 'counted as the database being unavailable');
  const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
  assert.deepEqual(rows, [{ one: 1 }], 'the one pooled connection still works');

  // Waiting for a row another transaction holds is not an outage: lock_timeout (four fifths of the
  // timeout) ends the wait first, and the answer says the database is up and busy with those rows.
  await sql`create table held (id int primary key)`.execute(database.db);
  await sql`insert into held values (1)`.execute(database.db);
  const holder = await openDatabase({ kind: 'postgres', url: postgres.url, poolSize: 1 });
  onCleanup(t, () => closeWithin(holder));
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked = () => {};
  const holding = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holderDone = holder.db.transaction().execute(async (trx) => {
    await sql`select id from held where id = 1 for update`.execute(trx);
    locked();
    await released;
  });
  await holding;
  const waited = await sql`update held set id = 1 where id = 1`.execute(database.db).then(
    () => undefined,
    (error: unknown) => error,
  );
  release();
  await holderDone;
  assert.ok(waited instanceof Error, 'the write behind the lock failed');
  assert.equal((waited as { code?: string }).code, '55P03', `ended by lock_timeout: ${waited.message}`);
  const answer = outageError(waited);
  assert.deepEqual(
    [answer?.status, answer?.headers, answer?.message],
    [
      503,
      { 'Retry-After': '1' },
      'Other requests are changing the same records right now, and this one waited too long for them. Retry in a moment.',
    ],
  );
});

test('a connection that stops answering is closed after the timeout, not returned to the pool', { timeout: 120_000 }, async (t) => {
  const postgres = await startPrivatePostgres(t);
  const setup = await openDatabase({ kind: 'postgres', url: postgres.url });
  await migrateToLatest(setup.db); // for the credential lookup below
  await setup.close();
  const proxy = await startBlackholeProxy(t, postgres.port);
  const url = new URL(postgres.url);
  url.port = String(proxy.port);
  // One connection, so the query after the timeout would have to use the same one if it were kept.
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), timeoutMs: TIMEOUT_MS, poolSize: 1 });
  onCleanup(t, () => closeWithin(database));
  await sql`select 1`.execute(database.db);
  assert.equal(proxy.connections(), 1);

  proxy.silenceOpenConnections();
  const lost = await sql`select 1`.execute(database.db).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(lost instanceof Error, 'the query on the silent connection failed');
  assert.match(lost.message, /Query read timeout/);
  assert.ok(describeUnavailable(lost), 'counted as the database being unavailable');

  // Kysely's reads (the connection released without an error) and the credential lookup (pg's
  // pool.query) both get a fresh connection.
  const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
  assert.deepEqual(rows, [{ one: 1 }], 'a new connection answers');
  assert.equal(await database.findCredential('0'.repeat(64)), undefined);
  assert.equal(proxy.connections(), 2, 'exactly one new connection replaced the silent one');
});

test('while PostgreSQL is frozen, ping says false within its timeout, and true once it thaws', { timeout: 120_000 }, async (t) => {
  const postgres = await startPrivatePostgres(t);
  const database = await openDatabase({ kind: 'postgres', url: postgres.url, timeoutMs: TIMEOUT_MS });
  onCleanup(t, () => closeWithin(database));
  assert.equal(await database.ping(), true);
  postgres.freeze();
  assert.equal(await database.ping(), false);
  postgres.thaw();
  // The ping that gave up may still hold its connection until the client's own read timeout; ask
  // again with pauses, for up to 15 s, rather than a fixed number of times in a row.
  let ready = false;
  for (const deadline = Date.now() + 15_000; !ready && Date.now() < deadline; await sleep(50)) ready = await database.ping();
  assert.equal(ready, true, 'ready again without reopening the database');
});

/**
 * Closes the database, or fails the test if that takes over 10 s: a pool that cannot close after a
 * fault is a defect to see, not a file that never ends (CI would wait on it for its whole limit).
 */
async function closeWithin(database: { close(): Promise<void> }): Promise<void> {
  const closed = await Promise.race([database.close().then(() => true), sleep(10_000).then(() => false)]);
  assert.ok(closed, 'the database did not close within 10 s after the fault');
}

/**
 * A loopback TCP proxy whose open connections can be silenced: their bytes are swallowed in both
 * directions while the sockets stay open, as when packets are dropped on the way. New connections
 * are forwarded normally.
 */
async function startBlackholeProxy(t: test.TestContext, upstreamPort: number) {
  const port = await freePort();
  const open = new Set<Socket>();
  let accepted = 0;
  const server = createServer((client) => {
    accepted += 1;
    const upstream = connect(upstreamPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        open.delete(client);
        open.delete(upstream);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  onCleanup(t, async () => {
    for (const socket of open) socket.destroy();
    await new Promise<void>((ok) => server.close(() => ok()));
  });
  return {
    port,
    connections: () => accepted,
    silenceOpenConnections() {
      for (const socket of open) {
        socket.unpipe();
        socket.removeAllListeners('data');
        socket.on('data', () => {});
      }
    },
  };
}
