/**
 * At-least-once webhook delivery across sender crashes (DESIGN §7, reliability.md §4.2): a burst of
 * video.created events is being delivered to a real loopback receiver (slow enough that deliveries
 * are in flight, and failing some first attempts with 500) when the process that sends them is
 * SIGKILLed, twice. Afterwards every acknowledged write's event has arrived, verified with the
 * standardwebhooks package, and nothing is left pending or exhausted; duplicates are counted, and
 * bounded by what the killed senders had in flight.
 *
 * On PGlite the server does everything in one process, so the kill takes the API down too and it is
 * restarted on the same data. On PostgreSQL (TEST_DATABASE_URL) the API and the worker are separate
 * processes, as in production, and only the worker is killed while the API keeps taking writes.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import test from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { scratchDatabase } from '../helpers/scratch-database.ts';
import { type BackgroundProcess, http, type ServerProcess, startBackground, startServer, tempDir } from '../helpers/server-process.ts';
import { eventually, type Received, startReceiver, verify } from '../helpers/webhooks.ts';

const ROUNDS = 2;
const EVENTS_PER_ROUND = 120;
const WRITERS = 4;
const CONCURRENCY = 8;
const ENV = {
  CUEPOINT_RATE_LIMIT: '100000',
  CUEPOINT_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
  CUEPOINT_WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,400ms,800ms',
  CUEPOINT_WEBHOOK_TIMEOUT_MS: '5000',
  CUEPOINT_WEBHOOK_POLL_MS: '50',
  CUEPOINT_WEBHOOK_CONCURRENCY: String(CONCURRENCY),
};

const targets = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])] as const;

for (const target of targets) {
  test(`a sender killed during a burst loses no event; duplicates are bounded (${target})`, { timeout: 240_000 }, async (t) => {
    const dataDir = tempDir(t);
    const env: Record<string, string> = { ...ENV };
    if (target === 'postgres') env.DATABASE_URL = await scratchDatabase(t, process.env.TEST_DATABASE_URL as string);
    const split = target === 'postgres';

    // The receiver: answers after 40 ms, and fails the first attempt of about one event in five.
    const receiver = await startReceiver(t);
    const firstSeen = new Set<string>();
    receiver.answer((request) => {
      const flaky = createHash('sha256').update(request.id).digest()[0]! % 5 === 0;
      const first = !firstSeen.has(request.id);
      firstSeen.add(request.id);
      return flaky && first ? { status: 500, delay: 40 } : { status: 204, delay: 40 };
    });

    let api: ServerProcess = await startServer(t, { dataDir, env, args: split ? ['--role', 'api'] : [] });
    const token = await api.firstKey();
    let worker: BackgroundProcess | undefined = split ? startBackground(t, { dataDir, env, args: ['--role', 'worker'] }) : undefined;
    const endpoint = await http(`${api.url}/v1/webhook-endpoints`, {
      method: 'POST',
      token,
      body: { name: 'Crash test', url: receiver.url },
    });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    const secret = endpoint.body.secret as string;

    const acknowledged = new Set<string>(); // video ids whose creation returned 201
    for (let round = 1; round <= ROUNDS; round++) {
      const before = receiver.received.length;
      await burst(api, token, round, acknowledged);
      // Kill the sender once this round's deliveries are flowing, at a random point among them.
      await eventually(() => receiver.received.length >= before + 10, `round ${round}: deliveries to start`, 60_000);
      await sleep(Math.floor(Math.random() * 150));
      const inFlightAtKill = receiver.received.length - before;
      if (split) {
        worker?.kill('SIGKILL');
        assert.equal((await worker?.exited)?.signal, 'SIGKILL');
        worker = startBackground(t, { dataDir, env, args: ['--role', 'worker'] });
      } else {
        api.kill('SIGKILL');
        assert.equal((await api.exited).signal, 'SIGKILL');
        api = await startServer(t, { dataDir, env });
      }
      t.diagnostic(`round ${round}: SIGKILL after ${inFlightAtKill} of ${EVENTS_PER_ROUND} requests had arrived`);
    }

    // Everything settles: no delivery left pending or failed.
    const log = await eventually(
      async () => {
        const all = await listDeliveries(api, token, endpoint.body.endpoint_id);
        return all.every((d) => d.status === 'succeeded' || d.status === 'exhausted') ? all : undefined;
      },
      'every delivery to finish',
      120_000,
    );

    const verified = receiver.received.filter((r) => r.headers['webhook-id'] !== undefined).map((r) => ({ r, payload: verify(r, secret) }));
    assert.equal(verified.length, receiver.received.length, 'every request verifies');
    const delivered = new Map<string, Received[]>();
    for (const { r, payload } of verified) {
      assert.equal(payload.id, r.id, 'webhook-id is the event id');
      delivered.set(payload.data.video_id, [...(delivered.get(payload.data.video_id) ?? []), r]);
    }
    const lost = [...acknowledged].filter((videoId) => !delivered.has(videoId));
    assert.deepEqual(lost, [], 'every acknowledged write’s event was delivered');
    const exhausted = log.filter((d) => d.status === 'exhausted');
    assert.deepEqual(exhausted, [], 'no delivery ran out of attempts');
    assert.equal(new Set(log.map((d) => d.event_id)).size, log.length, 'one delivery per event');
    for (const d of log) assert.ok(firstSeen.has(d.event_id), `delivery ${d.delivery_id} reached the receiver`);

    // Duplicates: a 2xx that arrived more than once. Only an attempt in flight when its sender died can repeat.
    const successes = new Map<string, number>();
    for (const r of receiver.received) if (r.status === 204) successes.set(r.id, (successes.get(r.id) ?? 0) + 1);
    const duplicates = [...successes.values()].reduce((sum, n) => sum + n - 1, 0);
    t.diagnostic(
      `${acknowledged.size} writes acknowledged, ${log.length} deliveries, ${receiver.received.length} requests received, ` +
        `${duplicates} duplicate successes (bound: ${ROUNDS} kills × ${CONCURRENCY} in flight)`,
    );
    assert.ok(duplicates <= ROUNDS * CONCURRENCY, `${duplicates} duplicates`);
  });
}

/** WRITERS concurrent writers create EVENTS_PER_ROUND videos (each a video.created event). */
async function burst(api: ServerProcess, token: string, round: number, acknowledged: Set<string>): Promise<void> {
  let next = 0;
  const writer = async () => {
    while (next < EVENTS_PER_ROUND) {
      const n = next++;
      const res = await http(`${api.url}/v1/videos/uploads`, {
        method: 'POST',
        token,
        body: { file_name: `r${round}-${n}.mp4`, file_size: 1000 },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      acknowledged.add(res.body.video_id);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
}

async function listDeliveries(api: ServerProcess, token: string, endpointId: string) {
  const rows: { delivery_id: string; event_id: string; status: string }[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?limit=100&cursor=${encodeURIComponent(cursor)}` : '?limit=100';
    const page = await http(`${api.url}/v1/webhook-endpoints/${endpointId}/deliveries${query}`, { token });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    rows.push(...page.body.deliveries);
    cursor = page.body.pagination.next_cursor;
  } while (cursor);
  return rows;
}
