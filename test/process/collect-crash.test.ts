/**
 * DESIGN §7 for viewing collection (issue 17): no acknowledged batch is lost and none is counted
 * twice when the service is SIGKILLed during a burst of POST /collect.
 *
 * Jepsen-style, like embedded-crash.test.ts: concurrent players send numbered batches of whole
 * seconds (some twice at once, some again after their answer) and every answer is recorded; at a
 * random moment mid-burst a process is SIGKILLed and restarted on the same data. A batch whose request
 * got no answer is sent again, as the player does (same session and sequence), and a few
 * acknowledged ones too, which must answer duplicate: true. Once the fold has caught up, each video's
 * analytics show exactly the views and watch time of every batch sent, counted once, and the stored
 * rows say the same: one raw batch per (session, sequence), sessions with the seconds their batches
 * play, rollups that add up.
 *
 * On PGlite one process collects and folds (role all), and it is killed three times. On PostgreSQL
 * (TEST_DATABASE_URL) the first kill takes down such a process too; then the API and the worker run
 * as separate processes, as in production, and the worker is killed while the API keeps collecting,
 * then the API while the worker keeps folding.
 */
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import test, { type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { createWorkspace } from '../../src/create-workspace.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { TEST_SECRET } from '../helpers/app.ts';
import { scratchDatabase } from '../helpers/scratch-database.ts';
import { type BackgroundProcess, http, type ServerProcess, startBackground, startServer, tempDir } from '../helpers/server-process.ts';
import { BURST_SERVER_ENV, type BurstVideo, type Expected, keyOf, sendBatch, startBurst, ViewingLedger } from '../helpers/viewing-burst.ts';
import { eventually } from '../helpers/webhooks.ts';

const PLAYERS = 8;
const DURATIONS = [45, 60, 90, 120];
/** Answers the API gives while its worker is down, and again once a new worker runs. */
const ANSWERS_AROUND_WORKER_RESTART = 60;
const ACKNOWLEDGED_RESENT_PER_ROUND = 12;
// Folds back to back rather than every 200 ms, so a kill often lands inside a fold's transaction.
const ENV = { CUEPOINT_RATE_LIMIT: '100000', CUEPOINT_SECRET: TEST_SECRET, CUEPOINT_VIEWING_FOLD_MS: '10', ...BURST_SERVER_ENV };

/** What is killed: the process that collects and folds, the worker alone, or the API alone. */
type Kill = 'all' | 'worker' | 'api';

/** The running service: an API that also folds (role all), or an API and a separate worker. */
interface Service {
  api: ServerProcess;
  worker?: BackgroundProcess;
}

const targets = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])] as const;

for (const target of targets) {
  test(`SIGKILL during a burst of viewing batches loses none and counts none twice (${target})`, { timeout: 240_000 }, async (t) => {
    const dataDir = tempDir(t);
    const env: Record<string, string> = { ...ENV };
    if (target === 'postgres') env.DATABASE_URL = await scratchDatabase(t, process.env.TEST_DATABASE_URL as string);
    const open = () =>
      env.DATABASE_URL ? openDatabase({ kind: 'postgres', url: env.DATABASE_URL }) : openDatabase({ kind: 'pglite', dataDir });

    // The workspace and its ready videos are made before the server starts: on PGlite the data
    // directory is the server's alone while it runs.
    const { apiKey, videos } = await withDatabase(open, (database) => prepare(database));
    const startApi = (role: 'all' | 'api') => startServer(t, { dataDir, env, args: ['--role', role] });
    const startWorker = () => startBackground(t, { dataDir, env, args: ['--role', 'worker'] });

    let service: Service = { api: await startApi('all') };
    const ledger = new ViewingLedger();
    const kills: Kill[] = target === 'postgres' ? ['all', 'worker', 'api'] : ['all', 'all', 'all'];
    for (const [i, kill] of kills.entries()) {
      const round = i + 1;
      service = await burstThenKill(t, { service, kill, round, ledger, videos, startApi, startWorker, split: target === 'postgres' });
      const { unanswered, storedUnanswered } = await resendAfterRestart(service.api.url, ledger);
      assert.deepEqual(ledger.unexpected, [], 'every answered batch is accepted');
      t.diagnostic(
        `round ${round}: ${ledger.batches.size} batches sent so far; ${unanswered} got no answer at the kill, ` +
          `${storedUnanswered} of them stored all the same`,
      );
    }

    checkAnswers(ledger);
    const expected = ledger.expected(videos.map((video) => video.id));
    const totals = await waitForFold(service.api.url, apiKey, expected);
    assert.deepEqual(totals, Object.fromEntries(expected), 'analytics count every batch sent exactly once');

    // Stopped gracefully, so the database can be read (on PGlite, only with the server gone).
    for (const running of service.worker ? [service.worker, service.api] : [service.api]) {
      running.kill('SIGTERM');
      assert.deepEqual(await running.exited, { code: 0, signal: null }, running.stderr());
    }
    await withDatabase(open, (database) => checkStored(database, ledger, expected));
  });
}

/** A workspace with one ready video per duration, straight into the database; its admin key. */
async function prepare(database: DatabaseHandle): Promise<{ apiKey: string; videos: BurstVideo[] }> {
  await migrateToLatest(database.db);
  const { workspace, apiKey } = await createWorkspace(database.db, { name: 'Crash test', plan: 'pro', now: new Date() });
  const videos = DURATIONS.map((durationSeconds) => ({ id: randomUUID(), durationSeconds }));
  const at = new Date();
  await database.db
    .insertInto('videos')
    .values(
      videos.map((video) => ({
        id: video.id,
        workspace_id: workspace.id,
        folder_id: null,
        title: `${video.durationSeconds} s`,
        status: 'ready' as const,
        source_url: null,
        file_name: null,
        file_size: null,
        duration_seconds: video.durationSeconds,
        width: null,
        height: null,
        failure_reason: null,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
  return { apiKey, videos };
}

async function withDatabase<T>(open: () => Promise<DatabaseHandle>, work: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  const database = await open();
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/**
 * One round: players collect, and at a random moment after the first answer `kill` is SIGKILLed and
 * restarted. Killing the API ends the players (their requests die with it); killing the worker alone
 * does not, so the API collects with no worker for a while and then alongside the new one.
 */
async function burstThenKill(
  t: TestContext,
  options: {
    service: Service;
    kill: Kill;
    round: number;
    ledger: ViewingLedger;
    videos: BurstVideo[];
    startApi: (role: 'all' | 'api') => Promise<ServerProcess>;
    startWorker: () => BackgroundProcess;
    /** After the first kill, run the API and the worker as separate processes. */
    split: boolean;
  },
): Promise<Service> {
  const { service, kill, round } = options;
  const burst = startBurst({
    url: service.api.url,
    ledger: options.ledger,
    videos: options.videos,
    secret: TEST_SECRET,
    players: PLAYERS,
    label: `r${round}`,
  });
  await burst.answeredAtLeast(1);
  assert.ok(burst.answered() > 0, `round ${round}: batches were acknowledged before the kill`);
  const delay = randomInt(800);
  await sleep(delay);
  t.diagnostic(`round ${round}: SIGKILL the ${kill === 'all' ? 'API and worker' : kill} ${delay} ms after the first answer`);

  if (kill === 'worker') {
    const worker = service.worker as BackgroundProcess;
    worker.kill('SIGKILL');
    assert.equal((await worker.exited).signal, 'SIGKILL');
    await burst.answeredAtLeast(burst.answered() + ANSWERS_AROUND_WORKER_RESTART);
    const restarted = options.startWorker();
    await burst.answeredAtLeast(burst.answered() + ANSWERS_AROUND_WORKER_RESTART);
    burst.stop();
    await burst.done;
    return { api: service.api, worker: restarted };
  }

  service.api.kill('SIGKILL');
  assert.equal((await service.api.exited).signal, 'SIGKILL');
  await burst.done;
  if (kill === 'api') return { api: await options.startApi('api'), worker: service.worker };
  if (!options.split) return { api: await options.startApi('all') };
  return { api: await options.startApi('api'), worker: options.startWorker() };
}

/**
 * What players do after the restart: send again every batch that never got an answer (it may or may
 * not have been stored before the kill); and a few acknowledged batches, whose answer must be that
 * they are stored already.
 */
async function resendAfterRestart(url: string, ledger: ViewingLedger): Promise<{ unanswered: number; storedUnanswered: number }> {
  const acknowledged = ledger.acknowledged();
  const resent = Array.from({ length: Math.min(ACKNOWLEDGED_RESENT_PER_ROUND, acknowledged.length) }, () =>
    acknowledged.splice(randomInt(acknowledged.length), 1),
  ).flat();
  const unanswered = ledger.neverAnswered();
  await inGroups(unanswered, 8, async (batch) => {
    assert.equal(await sendBatch(url, ledger, batch), 'answered', `resend of unanswered ${keyOf(batch)}: ${ledger.unexpected.join('; ')}`);
  });
  await inGroups(resent, 8, async (batch) => {
    assert.equal(
      await sendBatch(url, ledger, batch),
      'answered',
      `resend of acknowledged ${keyOf(batch)}: ${ledger.unexpected.join('; ')}`,
    );
    assert.equal(batch.answers.at(-1), true, `an acknowledged batch sent again is a duplicate: ${keyOf(batch)}`);
  });
  return { unanswered: unanswered.length, storedUnanswered: unanswered.filter((batch) => batch.answers[0] === true).length };
}

/**
 * Every batch sent was answered in the end, and stored once: at most one answer says it is new, and
 * when none does, a request for it died after storing it (its later answers say duplicate).
 */
function checkAnswers(ledger: ViewingLedger): void {
  const wrong: string[] = [];
  for (const batch of ledger.batches.values()) {
    const stored = batch.answers.filter((duplicate) => !duplicate).length;
    if (batch.answers.length === 0) wrong.push(`${keyOf(batch)} never answered`);
    else if (stored > 1) wrong.push(`${keyOf(batch)} stored ${stored} times (answers ${JSON.stringify(batch.answers)})`);
    else if (stored === 0 && batch.unanswered === 0) wrong.push(`${keyOf(batch)} only ever answered duplicate`);
  }
  assert.deepEqual(wrong, []);
}

/**
 * Each video's totals once the fold has caught up: polled until every video reaches its expected
 * numbers, or one passes them (a double count shows at once), within a generous bound.
 */
async function waitForFold(url: string, apiKey: string, expected: Map<string, Expected>): Promise<Record<string, Expected>> {
  let last: Record<string, Expected> = {};
  try {
    return await eventually(
      async () => {
        const totals: Record<string, Expected> = {};
        for (const videoId of expected.keys()) {
          const res = await http(`${url}/v1/videos/${videoId}/analytics`, { token: apiKey });
          assert.equal(res.status, 200, JSON.stringify(res.body));
          totals[videoId] = { views: res.body.totals.views, watchTimeSeconds: res.body.totals.watch_time_seconds };
        }
        last = totals;
        const reached = [...expected].map(([id, want]) => [totals[id] as Expected, want] as const);
        const over = reached.some(([got, want]) => got.views > want.views || got.watchTimeSeconds > want.watchTimeSeconds);
        const all = reached.every(([got, want]) => got.views >= want.views && got.watchTimeSeconds >= want.watchTimeSeconds);
        return over || all ? totals : undefined;
      },
      'the fold to catch up',
      90_000,
    );
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; last totals ${JSON.stringify(last)}, expected ${JSON.stringify(Object.fromEntries(expected))}`,
    );
  }
}

/** The stored rows agree with what was sent: one raw batch per (session, sequence), all folded, and sessions and rollups that add up. */
async function checkStored(database: DatabaseHandle, ledger: ViewingLedger, expected: Map<string, Expected>): Promise<void> {
  const db = database.db;
  const { rows: unfolded } = await sql<{ count: number }>`
    select count(*)::int as count from viewing_batches b, viewing_fold f
    where b.fold_xid is null or (b.fold_xid, b.position) > (f.fold_xid, f.position)`.execute(db);
  assert.equal(unfolded[0]?.count, 0, 'every stored batch is folded');

  const stored = await db.selectFrom('viewing_batches').select(['session_id', 'sequence', 'video_id']).execute();
  assert.deepEqual(
    stored.map((row) => `${keyOf({ sessionId: row.session_id, sequence: row.sequence })} ${row.video_id}`).sort(),
    [...ledger.batches.values()].map((batch) => `${keyOf(batch)} ${batch.videoId}`).sort(),
    'one raw batch per (session, sequence) sent',
  );

  const sessions = await db
    .selectFrom('viewing_sessions')
    .select(['id', 'video_id', 'played_seconds', 'last_sequence', 'is_view'])
    .execute();
  assert.deepEqual(
    Object.fromEntries(
      sessions.map((s) => [
        s.id,
        { videoId: s.video_id, playedSeconds: s.played_seconds, lastSequence: s.last_sequence, isView: s.is_view },
      ]),
    ),
    Object.fromEntries([...ledger.sessions()].map(([id, s]) => [id, { ...s, isView: s.playedSeconds >= 1 }])),
    'every session holds the seconds of its batches, once',
  );

  const want = Object.fromEntries([...expected].map(([id, e]) => [id, { views: e.views, watch: e.watchTimeSeconds }]));
  const videoStats = await db.selectFrom('video_stats').select(['video_id', 'views', 'watch_time_seconds']).execute();
  assert.deepEqual(
    Object.fromEntries(
      [...expected.keys()].map((id) => {
        const row = videoStats.find((s) => s.video_id === id);
        return [id, { views: row?.views ?? 0, watch: row?.watch_time_seconds ?? 0 }];
      }),
    ),
    want,
    'video_stats',
  );
  const days = await db
    .selectFrom('video_daily_stats')
    .select(['video_id', (eb) => eb.fn.sum<number>('views').as('views'), (eb) => eb.fn.sum<number>('watch_time_seconds').as('watch')])
    .groupBy('video_id')
    .execute();
  assert.deepEqual(
    Object.fromEntries(
      [...expected.keys()].map((id) => {
        const row = days.find((d) => d.video_id === id);
        return [id, { views: Number(row?.views ?? 0), watch: Number(row?.watch ?? 0) }];
      }),
    ),
    want,
    'video_daily_stats',
  );
  const viewCounts = await db.selectFrom('videos').select(['id', 'view_count']).execute();
  assert.deepEqual(
    Object.fromEntries(viewCounts.map((v) => [v.id, v.view_count])),
    Object.fromEntries([...expected].map(([id, e]) => [id, e.views])),
    'videos.view_count',
  );
  const workspace = await db
    .selectFrom('workspace_daily_stats')
    .select([(eb) => eb.fn.sum<number>('views').as('views'), (eb) => eb.fn.sum<number>('watch_time_seconds').as('watch')])
    .executeTakeFirstOrThrow();
  const all = [...expected.values()];
  assert.deepEqual(
    { views: Number(workspace.views), watch: Number(workspace.watch) },
    { views: all.reduce((sum, e) => sum + e.views, 0), watch: all.reduce((sum, e) => sum + e.watchTimeSeconds, 0) },
    'workspace_daily_stats',
  );
}

async function inGroups<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}
