/**
 * DESIGN §7: no acknowledged write is lost when the server is killed with SIGKILL and restarted, and
 * the embedded database restarts cleanly after the kill (stale lock files are the service's job).
 *
 * Jepsen-style (reliability.md §5.4): writers fire POST /v1/api-keys with unique names and
 * Idempotency-Keys and record every 201; at a random moment the process is SIGKILLed mid-burst, then
 * restarted on the same data. Afterwards every acknowledged key is listed, no name exists twice, and
 * replaying an acknowledged Idempotency-Key returns the very same response marked as a replay.
 * Runs on PGlite always, and on PostgreSQL too when TEST_DATABASE_URL is set.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { scratchDatabase } from '../helpers/scratch-database.ts';
import { http, type ServerProcess, startServer, tempDir } from '../helpers/server-process.ts';

const ROUNDS = 3;
const WRITERS = 12;
const BASE_ENV = { CUEPOINT_RATE_LIMIT: '100000' };

interface Ack {
  name: string;
  key_id: string;
  // biome-ignore lint/suspicious/noExplicitAny: compared whole with deepEqual
  body: any;
}

const targets = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])] as const;

for (const target of targets) {
  test(`SIGKILL during a write burst loses no acknowledged write (${target})`, { timeout: 300_000 }, async (t) => {
    const dataDir = tempDir(t);
    const env: Record<string, string> = { ...BASE_ENV };
    if (target === 'postgres') env.DATABASE_URL = await scratchDatabase(t, process.env.TEST_DATABASE_URL as string);

    let server = await startServer(t, { dataDir, env });
    const token = await server.firstKey();
    const acked = new Map<string, Ack>(); // Idempotency-Key → what the server acknowledged

    for (let round = 1; round <= ROUNDS; round++) {
      const inFlight = await burstThenKill(t, server, token, round, acked);
      if (target === 'pglite') {
        // The kill left our lock behind: the restart below must recognise it as stale by itself.
        assert.ok(existsSync(join(dataDir, 'cuepoint.lock')), 'a SIGKILLed server leaves its lock file');
      }
      server = await startServer(t, { dataDir, env });
      await checkNothingLost(server, token, acked, inFlight);
      t.diagnostic(`round ${round}: ${acked.size} writes acknowledged so far, ${inFlight.length} in flight at the kill`);
    }
  });
}

/** Runs WRITERS sequential writers until SIGKILL; returns the keys whose requests got no answer. */
async function burstThenKill(
  t: test.TestContext,
  server: ServerProcess,
  token: string,
  round: number,
  acked: Map<string, Ack>,
): Promise<string[]> {
  const unanswered: string[] = [];
  const unexpected: string[] = [];
  let ackedThisRound = 0;
  let firstAnswer = () => {};
  const answered = new Promise<void>((resolve) => {
    firstAnswer = resolve;
  });
  const writer = async (w: number) => {
    for (let i = 0; ; i++) {
      const key = `crash-r${round}-w${w}-${i}-${Math.random().toString(36).slice(2, 8)}`;
      let response: Awaited<ReturnType<typeof http>>;
      try {
        response = await createKey(server, token, key);
      } catch {
        unanswered.push(key); // the connection died with the process: outcome unknown
        return;
      }
      firstAnswer();
      if (response.status !== 201) {
        unexpected.push(`${response.status} ${JSON.stringify(response.body)}`);
        return;
      }
      acked.set(key, { name: key, key_id: response.body.key_id, body: response.body });
      ackedThisRound++;
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));

  // Kill at a random point once writes are flowing, so the kill lands among commits, not before them.
  // The first answer is the signal (or every writer giving up, which the assertions below report).
  await Promise.race([answered, Promise.all(writers)]);
  assert.deepEqual(unexpected, [], 'every answered write succeeds');
  assert.ok(ackedThisRound > 0, 'writes were acknowledged before the kill');
  const delay = Math.floor(Math.random() * 400);
  t.diagnostic(`round ${round}: SIGKILL ${delay} ms after the first acknowledgement`);
  await sleep(delay);
  server.kill('SIGKILL');
  const exit = await server.exited;
  assert.equal(exit.signal, 'SIGKILL');
  await Promise.all(writers);
  assert.deepEqual(unexpected, [], 'every answered write succeeds');
  return unanswered;
}

function createKey(server: ServerProcess, token: string, idempotencyKey: string) {
  return http(`${server.url}/v1/api-keys`, {
    method: 'POST',
    token,
    body: { name: idempotencyKey, scope: 'read' },
    headers: { 'idempotency-key': idempotencyKey },
  });
}

async function checkNothingLost(server: ServerProcess, token: string, acked: Map<string, Ack>, inFlight: string[]): Promise<void> {
  const listed = await listAllKeys(server, token);
  const ids = new Set(listed.map((k) => k.key_id));
  const lost = [...acked.values()].filter((a) => !ids.has(a.key_id));
  assert.deepEqual(
    lost.map((a) => a.name),
    [],
    'every acknowledged key survives the kill',
  );
  const names = listed.map((k) => k.name);
  assert.equal(new Set(names).size, names.length, 'no write was applied twice');

  // Replays answer from the stored response: same status, same body, marked as a replay.
  await inBatches([...acked], 8, async ([key, ack]) => {
    const replay = await createKey(server, token, key);
    assert.equal(replay.status, 201, `replay of ${key}`);
    assert.equal(replay.headers.get('idempotency-replayed'), 'true', `replay of ${key} is marked`);
    assert.deepEqual(replay.body, ack.body, `replay of ${key} returns the original response`);
  });
  // A request cut off by the kill either committed (replayed now), rolled back (runs now), or left a
  // claim that is still locked (409): never a 5xx, never a second key.
  await inBatches(inFlight, 8, async (key) => {
    const retry = await createKey(server, token, key);
    assert.ok([201, 409].includes(retry.status), `retry of in-flight ${key}: ${retry.status} ${JSON.stringify(retry.body)}`);
    if (retry.status === 201) acked.set(key, { name: key, key_id: retry.body.key_id, body: retry.body });
  });
}

async function listAllKeys(server: ServerProcess, token: string): Promise<{ key_id: string; name: string }[]> {
  const keys: { key_id: string; name: string }[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?limit=100&cursor=${encodeURIComponent(cursor)}` : '?limit=100';
    const page = await http(`${server.url}/v1/api-keys${query}`, { token });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    keys.push(...page.body.api_keys);
    cursor = page.body.pagination.next_cursor;
  } while (cursor);
  return keys;
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}
