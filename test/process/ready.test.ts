/**
 * Liveness, readiness and the database at the process level (DESIGN §5, §7):
 * - a server whose PostgreSQL is unreachable at start-up (it migrates first) exits 1 quickly, saying
 *   which database it could not reach, and never starts listening; and says so without a stack trace;
 * - on a running embedded server /health says the process lives and /ready that it can serve;
 * - with PostgreSQL (TEST_DATABASE_URL), a database outage made by a loopback TCP proxy while
 *   requests run: they and later calls get 503 with Retry-After (never a dropped connection), /ready
 *   is 503 while /health stays 200, and service comes back by itself when the database does.
 */
import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import test from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { scratchDatabase } from '../helpers/scratch-database.ts';
import { freePort, http, onCleanup, runCli, startServer, tempDir } from '../helpers/server-process.ts';

const UNREACHABLE = 'postgres://postgres@127.0.0.1:1/x';

test('start with an unreachable PostgreSQL exits 1 quickly and never listens', { timeout: 60_000 }, async (t) => {
  const port = await freePort();
  const began = Date.now();
  const run = await runCli(t, ['start'], {
    dataDir: tempDir(t),
    env: { DATABASE_URL: UNREACHABLE, HOST: '127.0.0.1', PORT: String(port) },
  });
  assert.equal(run.code, 1, run.stderr);
  assert.ok(Date.now() - began < 20_000, `gave up after ${Date.now() - began} ms`);
  assert.match(run.stderr, /ECONNREFUSED 127\.0\.0\.1:1\b/, 'says what failed, and where');
  assert.equal(run.stdout, '', 'no workspace was announced');
  await assert.rejects(fetch(`http://127.0.0.1:${port}/health`), 'nothing listens');
});

// The CLI header promises refusals "exit with 1 and a message saying what to do", as it does for
// configuration errors and a busy data dir: no stack trace for a database that is not there.
test('start with an unreachable PostgreSQL explains itself without a stack trace', { timeout: 60_000 }, async (t) => {
  const run = await runCli(t, ['start'], {
    dataDir: tempDir(t),
    env: { DATABASE_URL: UNREACHABLE, HOST: '127.0.0.1', PORT: String(await freePort()) },
  });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /DATABASE_URL/, 'names the setting to check');
  assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack trace');
  assert.doesNotMatch(run.stderr, /node_modules/, 'no internal paths');
});

test('/health and /ready on a running embedded server', { timeout: 180_000 }, async (t) => {
  const server = await startServer(t, { dataDir: tempDir(t) });
  for (const [path, status] of [
    ['/health', 'ok'],
    ['/ready', 'ready'],
  ] as const) {
    const response = await http(`${server.url}${path}`);
    assert.equal(response.status, 200, path);
    assert.deepEqual(response.body, { status }, path);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/, path);
    assert.ok(response.headers.get('x-request-id'), `${path} has a request id`);
  }
  // Probes need no credential; the API does.
  assert.equal((await http(`${server.url}/v1/workspace`)).status, 401);
});

if (process.env.TEST_DATABASE_URL) {
  // Connections cut while queries run make pg Clients emit 'error'; pg-pool only listens on idle
  // clients, so src/db/client.ts listens on every connected one, or the process would die here.
  test('a PostgreSQL outage under load: 503s with Retry-After, /health stays up, recovery without restart', {
    timeout: 90_000,
  }, async (t) => {
    const target = new URL(await scratchDatabase(t, process.env.TEST_DATABASE_URL as string));
    const proxy = await startProxy(t, target.hostname, Number(target.port || 5432));
    const viaProxy = new URL(target);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const server = await startServer(t, { dataDir: tempDir(t), env: { DATABASE_URL: viaProxy.toString() } });
    const token = await server.firstKey();
    const alive = () => `server ${server.stderr() ? `stderr:\n${server.stderr().slice(0, 1500)}` : 'stderr empty'}`;

    // Cut the database while requests are running, so pooled connections die mid-query: the
    // moment a real outage usually starts.
    const burst = Array.from({ length: 40 }, () => http(`${server.url}/v1/workspace`, { token }));
    await Promise.race(burst);
    await proxy.down();
    const results = await Promise.allSettled(burst);
    for (const result of results) {
      assert.equal(result.status, 'fulfilled', `a request in flight got no answer; ${alive()}`);
      assert.ok([200, 503].includes(result.value.status), `in flight: ${result.value.status}`);
    }

    const began = Date.now();
    const api = await http(`${server.url}/v1/workspace`, { token });
    assert.equal(api.status, 503, JSON.stringify(api.body));
    assert.equal(api.body.error.code, 'service_unavailable');
    assert.ok(Number(api.headers.get('retry-after')) > 0, 'Retry-After');
    const ready = await http(`${server.url}/ready`);
    assert.equal(ready.status, 503);
    assert.ok(Number(ready.headers.get('retry-after')) > 0, 'Retry-After on /ready');
    assert.ok(Date.now() - began < 8000, `503s took ${Date.now() - began} ms`);
    assert.equal((await http(`${server.url}/health`)).status, 200, 'the process itself is fine');

    await proxy.up();
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await http(`${server.url}/v1/workspace`, { token })).status;
      if (status !== 200) await sleep(200);
    }
    assert.equal(status, 200, 'service resumes by itself');
    assert.equal((await http(`${server.url}/ready`)).status, 200);
  });
}

/** A loopback TCP proxy to PostgreSQL that can go down (refuse and cut every connection) and up again. */
async function startProxy(t: test.TestContext, host: string, port: number) {
  const sockets = new Set<Socket>();
  const listenPort = await freePort();
  let server: Server | undefined;
  const up = async () => {
    server = createServer((client) => {
      const upstream = connect(port, host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => {});
        socket.on('close', () => {
          sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((ok) => server?.listen(listenPort, '127.0.0.1', ok));
  };
  const down = async () => {
    const closed = new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
    for (const socket of sockets) socket.destroy();
    await closed;
    server = undefined;
  };
  await up();
  onCleanup(t, down);
  return { port: listenPort, up, down };
}
