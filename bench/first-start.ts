/**
 * `npm run bench -- start` (issue 26): how long `npm start` takes to answer its first request, on an
 * empty data directory and on an existing one. Each round makes a fresh data directory, spawns
 * `npm start` on it (empty: the first start creates the database and the first workspace), stops it,
 * then spawns `npm start` on it again (existing data); `node src/main.ts start` on the same existing
 * directory is timed alongside, so what npm itself adds is seen apart. A figure is the time from
 * spawning the command to the first 200 from GET /ready, with the CPU seconds the server process (and
 * npm, for `npm start`) had used by then; each round prints its figures and the load average.
 * Targets: existing data within 1 s, an empty data directory within 2 s (medians).
 *
 * The server runs on the embedded database (DATABASE_URL and REDIS_URL are not passed on) and keeps
 * the compile cache it would have on a user's machine: the first round's starts fill it if needed,
 * like the first `npm start` after an install.
 *
 * Settings (environment): BENCH_START_ROUNDS (default 5). Writes bench/results/<date>-start.json.
 * `node bench/first-start.ts` runs it alone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeMachine } from './machine.ts';
import { writeResultFile } from './result-file.ts';

const REPO_ROOT = resolve(import.meta.dirname, '..');
const TARGETS = { existing: 1, empty: 2 } as const;
const POLL_MS = 10;

type Log = (line: string) => void;

interface Timing {
  /** Seconds from spawn to the first 200 from /ready. */
  wall: number;
  /** CPU seconds (user + system) the spawned processes had used by then. */
  cpu: number;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  await new Promise<void>((ok) => server.close(() => ok()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The ids of `pid` and every process below it, from /proc (Linux). */
function processTree(pid: number): number[] {
  const children = (parent: number): number[] => {
    try {
      const tasks = readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8').trim();
      return tasks ? tasks.split(' ').map(Number) : [];
    } catch {
      return [];
    }
  };
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...children(all[i] as number));
  return all;
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc (Linux): on a loaded machine the
 * wall-clock figure mostly measures the other processes, this one what the start itself costs.
 */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-(child.pid as number), signal);
  } catch {
    // already gone
  }
}

/**
 * Spawns `command` (in a process group of its own, so npm and the server it runs are stopped
 * together) and times it to the first 200 from /ready; the group is stopped (SIGTERM) afterwards.
 */
async function timeToReady(command: 'npm' | 'node', dataDir: string): Promise<Timing> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, CUEPOINT_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'npm_lifecycle_event', 'npm_lifecycle_script']) delete env[name];
  const [file, args] = command === 'npm' ? ['npm', ['start', '--silent']] : [process.execPath, ['src/main.ts', 'start']];
  const started = performance.now();
  const child = spawn(file, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  let gone = false;
  const exited = new Promise<void>((ok) =>
    child.once('exit', () => {
      gone = true;
      ok();
    }),
  );
  try {
    for (;;) {
      if (gone) throw new Error(`${command} start exited before it was ready`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(1000) });
        await response.arrayBuffer();
        if (response.status === 200) {
          const wall = (performance.now() - started) / 1000;
          const cpu = processTree(child.pid as number).reduce((sum, pid) => sum + cpuSeconds(pid), 0);
          return { wall, cpu };
        }
      } catch {
        // not listening yet
      }
      await sleep(POLL_MS);
    }
  } finally {
    stopGroup(child, 'SIGTERM');
    const killer = setTimeout(() => stopGroup(child, 'SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
    // npm may exit before the server it ran has released the data directory.
    await sleep(200);
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

const load = () => loadavg().map((n) => Number(n.toFixed(2)));

export async function runFirstStartBenchmark(log: Log): Promise<void> {
  const value = Number(process.env.BENCH_START_ROUNDS);
  const rounds = Number.isInteger(value) && value > 0 ? value : 5;
  const startedAt = new Date();
  const loadBefore = load();
  const results: { empty: Timing; existing: Timing; existing_node: Timing; load_average: number[] }[] = [];
  const show = (t: Timing) => `${t.wall.toFixed(2)} s (CPU ${t.cpu.toFixed(2)} s)`;
  for (let i = 0; i < rounds; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'cuepoint-first-start-'));
    try {
      const empty = await timeToReady('npm', dataDir);
      const existing = await timeToReady('npm', dataDir);
      const existingNode = await timeToReady('node', dataDir);
      const round = { empty, existing, existing_node: existingNode, load_average: load() };
      results.push(round);
      log(
        `round ${i + 1}: npm start, empty ${show(empty)}, existing ${show(existing)}; node src/main.ts start, existing ${show(existingNode)}; load average ${round.load_average.join(' ')}`,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const summary = (pick: (r: (typeof results)[number]) => Timing) => ({
    wall_median: Number(median(results.map((r) => pick(r).wall)).toFixed(3)),
    wall_min: Number(Math.min(...results.map((r) => pick(r).wall)).toFixed(3)),
    wall_max: Number(Math.max(...results.map((r) => pick(r).wall)).toFixed(3)),
    cpu_median: Number(median(results.map((r) => pick(r).cpu)).toFixed(3)),
  });
  const empty = summary((r) => r.empty);
  const existing = summary((r) => r.existing);
  const existingNode = summary((r) => r.existing_node);
  const verdict = (s: { wall_median: number }, target: number) => (s.wall_median <= target ? 'within' : 'over');
  log(
    `npm start, empty data directory: median ${empty.wall_median} s (${empty.wall_min}–${empty.wall_max}), CPU ${empty.cpu_median} s: ${verdict(empty, TARGETS.empty)} the ${TARGETS.empty} s target`,
  );
  log(
    `npm start, existing data: median ${existing.wall_median} s (${existing.wall_min}–${existing.wall_max}), CPU ${existing.cpu_median} s: ${verdict(existing, TARGETS.existing)} the ${TARGETS.existing} s target`,
  );
  log(
    `node src/main.ts start, existing data: median ${existingNode.wall_median} s (${existingNode.wall_min}–${existingNode.wall_max}), CPU ${existingNode.cpu_median} s`,
  );
  const file = writeResultFile(
    {
      benchmark: 'start',
      started_at: startedAt.toISOString(),
      machine: describeMachine(),
      configuration: {
        rounds,
        database: 'embedded (PGlite)',
        poll_ms: POLL_MS,
        load_average_before: loadBefore,
        load_average_after: load(),
      },
      targets_seconds: TARGETS,
      npm_start_empty: { ...empty, verdict: verdict(empty, TARGETS.empty) },
      npm_start_existing: { ...existing, verdict: verdict(existing, TARGETS.existing) },
      node_start_existing: existingNode,
      rounds: results,
    },
    startedAt,
    'start',
  );
  log(`report: ${file}`);
}

if (import.meta.main) await runFirstStartBenchmark((line) => process.stdout.write(`${line}\n`));
