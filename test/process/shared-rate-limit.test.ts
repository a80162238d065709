/**
 * DESIGN §4/§8: one rate-limit bucket per credential, shared by every API process through Redis.
 * With PostgreSQL and Redis (TEST_DATABASE_URL and REDIS_URL set), three API processes serve one
 * database: a `--processes 2` cluster on one port and a `--role api` process on another. 60
 * concurrent requests with one key, split across both ports, must let exactly 20 through (the
 * ceiling), not 20 per process. Without them, the same burst hits one embedded server and its
 * in-memory limiter, so the test always asserts a real limit. Either way the 429s carry Retry-After
 * and RateLimit headers, and a second key of the same workspace is untouched.
 *
 * The public pages' per-address limits share the same buckets: 30 cancel forms from one client
 * (named in X-Forwarded-For by loopback, the servers' trusted proxy) across the same processes get
 * exactly the production ceiling of 10 answered, and another client is untouched.
 */
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { ADDRESS_CEILINGS } from '../../src/transports/public/http/address-limits.ts';
import { scratchDatabase } from '../helpers/scratch-database.ts';
import { type HttpResult, http, runCli, type ServerProcess, startServer, tempDir } from '../helpers/server-process.ts';

const LIMIT = 20;
const BURST = 60;
/** Cancel forms from one client: three times the production ceiling per address. */
const CANCEL_BURST = 30;

// Three CLI runs and up to three server processes: the ceiling allows for a machine running several suites.
test('one credential, and one client of the public pages, get exactly their limit across every API process, and no more', {
  timeout: 300_000,
}, async (t) => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  const shared = Boolean(adminUrl && redisUrl);
  t.diagnostic(shared ? 'PostgreSQL + Redis: three API processes on two ports' : 'embedded: one process, in-memory limiter');

  const dataDir = tempDir(t);
  // A request waits for Redis 50 ms by default, then its process's own bucket decides: on a busy
  // machine that would let extra requests through. The fallback has tests of its own (test/faults/);
  // this one is about the shared bucket, so Redis gets all the time it needs.
  const env: Record<string, string> = {
    CUEPOINT_RATE_LIMIT: String(LIMIT),
    CUEPOINT_REDIS_TIMEOUT_MS: '5000',
    CUEPOINT_TRUSTED_PROXIES: '127.0.0.1,::1',
  };
  if (shared) {
    env.DATABASE_URL = await scratchDatabase(t, adminUrl as string);
    // Buckets are keyed by credential id, fresh here, so sharing Redis with other tests is safe.
    env.REDIS_URL = redisUrl as string;
  }
  // Credentials come from the CLI, before any server runs, so no request is spent making them.
  const workspace = await runCli(t, ['workspace', 'create', '--name', 'Limits', '--json'], { dataDir, env });
  assert.equal(workspace.code, 0, workspace.stderr);
  const { workspace_id: workspaceId, api_key: keyA } = JSON.parse(workspace.stdout);
  const second = await runCli(t, ['key', 'create', '--workspace', workspaceId, '--scope', 'read', '--json'], { dataDir, env });
  assert.equal(second.code, 0, second.stderr);
  const keyB: string = JSON.parse(second.stdout).key;
  const third = await runCli(t, ['key', 'create', '--workspace', workspaceId, '--scope', 'read', '--json'], { dataDir, env });
  assert.equal(third.code, 0, third.stderr);
  const warmUpKey: string = JSON.parse(third.stdout).key;

  const servers: ServerProcess[] = shared
    ? await Promise.all([
        startServer(t, { dataDir, env, args: ['--role', 'api', '--processes', '2'] }),
        startServer(t, { dataDir, env, args: ['--role', 'api'] }),
      ])
    : [await startServer(t, { dataDir, env })];
  if (shared && process.platform === 'linux') {
    const cluster = servers[0] as ServerProcess;
    const children = readFileSync(`/proc/${cluster.pid}/task/${cluster.pid}/children`, 'utf8').trim().split(/\s+/);
    assert.equal(children.length, 2, 'the cluster runs two API processes');
  }

  // Warm every process up with a key of its own (cluster workers are reached round-robin), so that
  // no process meets the burst cold.
  const warmUp = await Promise.all(
    servers.flatMap((s) => Array.from({ length: 8 }, () => http(`${s.url}/v1/workspace`, { token: warmUpKey }))),
  );
  assert.deepEqual(new Set(warmUp.map((r) => r.status)), new Set([200]));

  const responses = await Promise.all(
    Array.from({ length: BURST }, (_, i) => http(`${servers[i % servers.length]?.url}/v1/workspace`, { token: keyA })),
  );
  const allowed = responses.filter((r) => r.status === 200);
  const limited = responses.filter((r) => r.status === 429);
  assert.equal(allowed.length, LIMIT, `statuses: ${responses.map((r) => r.status).join(' ')}`);
  assert.equal(limited.length, BURST - LIMIT);

  // One atomic counter: each allowed request saw a different remaining count, LIMIT-1 down to 0.
  const remaining = allowed.map((r) => remainingOf(r)).sort((a, b) => a - b);
  assert.deepEqual(
    remaining,
    Array.from({ length: LIMIT }, (_, i) => i),
    'remaining counts of the allowed requests',
  );
  for (const response of limited) checkLimited(response);

  // The second key has a bucket of its own, full, whichever process answers.
  for (const [i, server] of servers.entries()) {
    const other = await http(`${server.url}/v1/workspace`, { token: keyB });
    assert.equal(other.status, 200, `second key on ${server.url}`);
    assert.equal(remainingOf(other), LIMIT - 1 - i);
  }

  // A client address, new on every run (Redis keeps buckets for a minute), behind the trusted proxy.
  const client = someClient();
  const cancels = await Promise.all(
    Array.from({ length: CANCEL_BURST }, (_, i) => cancelForm(servers[i % servers.length] as ServerProcess, client)),
  );
  const ceiling = ADDRESS_CEILINGS.booking_cancels;
  // A made-up booking: answered "this link is not valid", and counted, as guessing is.
  assert.equal(cancels.filter((r) => r.status === 404).length, ceiling, `statuses: ${cancels.map((r) => r.status).join(' ')}`);
  const refused = cancels.filter((r) => r.status === 429);
  assert.equal(refused.length, CANCEL_BURST - ceiling);
  for (const response of refused) assert.match(response.retryAfter ?? '', /^[1-9]\d*$/);
  assert.equal((await cancelForm(servers[0] as ServerProcess, someClient())).status, 404, 'another client');
});

const someClient = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** The invitee's cancel form for a booking that does not exist, sent through the proxy for `client`. */
async function cancelForm(server: ServerProcess, client: string): Promise<{ status: number; retryAfter: string | null }> {
  const response = await fetch(`${server.url}/bookings/${randomUUID()}/cancel`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client },
    body: new URLSearchParams({ token: 'not-the-secret' }).toString(),
    signal: AbortSignal.timeout(60_000),
  });
  await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after') };
}

function remainingOf(response: HttpResult): number {
  const match = /^"default";r=(\d+);t=(\d+)$/.exec(response.headers.get('ratelimit') ?? '');
  assert.ok(match, `RateLimit header: ${response.headers.get('ratelimit')}`);
  return Number(match[1]);
}

function checkLimited(response: HttpResult): void {
  assert.equal(response.body.error.code, 'rate_limited');
  assert.equal(response.headers.get('ratelimit-policy'), `"default";q=${LIMIT};w=60`);
  assert.equal(remainingOf(response), 0);
  const retryAfter = Number(response.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${response.headers.get('retry-after')}`);
}
