/**
 * A PostgreSQL and a Redis of the test's own, for fault tests that kill, freeze and restart them:
 * each in a temp dir, on a free loopback port, so the shared servers on 5432 and 6379 are never
 * touched. PostgreSQL refuses to run as root, so when the tests run as root it runs as the
 * `postgres` OS user (setpriv, which execs in place: the pid we hold is the postmaster itself).
 * Freezing sends SIGSTOP to the server and every process it forked (a whole frozen host, as
 * `docker pause` would), thawing SIGCONT. Everything is stopped and removed when the test ends.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort, onCleanup, tempDir } from './server-process.ts';

const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface PrivateService {
  port: number;
  /** The current process id (changes on restart). */
  pid(): number;
  /** SIGSTOP to the server and all its children: alive, holding its sockets, answering nothing. */
  freeze(): void;
  thaw(): void;
  /** SIGKILL to the server and all its children, as a crash or an OOM kill would; waits until gone. */
  kill(): Promise<void>;
  /** A graceful stop (SIGTERM); waits until gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data, and waits until it answers. */
  restart(): Promise<void>;
}

export interface PrivatePostgres extends PrivateService {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
}

export interface PrivateRedis extends PrivateService {
  /** redis://127.0.0.1:PORT */
  url: string;
}

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
  frozen: number[];
}

/** The process and everything it forked, children first found through /proc. */
function processTree(pid: number): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    const children = childrenOf(tree[i] as number);
    if (children) tree.push(...children.split(/\s+/).map(Number));
  }
  return tree;
}

/**
 * The pids a process forked, as /proc lists them; empty once it is gone. PostgreSQL starts and ends
 * backends all the time, so one can exit between finding it and reading its children (CI saw
 * ENOENT here while freezing a server).
 */
function childrenOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  } catch {
    return '';
  }
}

function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * One server process that can be frozen, killed and started again; `launch` spawns it, `answers`
 * says whether it serves yet. Its output is kept for failure messages.
 */
async function superviseServer(
  t: TestContext,
  name: string,
  launch: () => ChildProcess,
  answers: () => Promise<boolean>,
): Promise<Omit<PrivateService, 'port'> & { output(): string }> {
  let output = '';
  let running: Running | undefined;

  const start = async () => {
    const child = launch();
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    const exited = new Promise<void>((ok) => child.once('close', () => ok()));
    const current: Running = { child, exited, frozen: [] };
    running = current;
    let gone = false;
    void exited.then(() => {
      gone = true;
    });
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (gone) throw new Error(`${name} exited before answering:\n${output}`);
      if (await answers()) return;
      await sleep(100);
    }
    throw new Error(`${name} did not answer within 60 s:\n${output}`);
  };

  const end = async (signal: NodeJS.Signals) => {
    const current = running;
    if (!current || current.child.exitCode !== null || current.child.signalCode !== null) return;
    const tree = processTree(current.child.pid as number);
    signalAll(current.frozen, 'SIGCONT');
    current.frozen = [];
    if (signal === 'SIGKILL') signalAll(tree, 'SIGKILL');
    else current.child.kill(signal);
    // An unref'd timer: once the server is gone, the grace period must not hold the test process
    // open for its remaining 15 s (every file with a private server used to end 15 s late).
    const stopped = await Promise.race([current.exited.then(() => true), sleep(15_000, undefined, { ref: false }).then(() => false)]);
    if (!stopped) {
      signalAll(processTree(current.child.pid as number), 'SIGKILL');
      await current.exited;
    }
    // Children of a killed server (PostgreSQL backends) notice their parent is gone and exit; wait
    // for them, so a restart does not find the old shared memory still in use.
    for (const pid of tree) {
      while (existsSync(`/proc/${pid}`) && !isZombie(pid)) await sleep(20);
    }
  };

  await start();
  onCleanup(t, () => end('SIGTERM'));
  return {
    output: () => output,
    pid: () => running?.child.pid as number,
    freeze() {
      if (!running) return;
      running.frozen = processTree(running.child.pid as number);
      signalAll(running.frozen, 'SIGSTOP');
    },
    thaw() {
      if (!running) return;
      signalAll(running.frozen, 'SIGCONT');
      running.frozen = [];
    },
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
    restart: start,
  };
}

function isZombie(pid: number): boolean {
  try {
    return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true;
  }
}

/** Runs as the `postgres` OS user when we are root (PostgreSQL refuses root); as ourselves otherwise. */
function asPostgresUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', command, ...args]];
}

function postgresOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** A fresh PostgreSQL 15 cluster (initdb) of the test's own, trust authentication, on loopback only. */
export async function startPrivatePostgres(t: TestContext): Promise<PrivatePostgres> {
  const dir = tempDir(t, 'cuepoint-pg-');
  const owner = postgresOwner();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const dataDir = join(dir, 'data');
  const [initdb, initArgs] = asPostgresUser(join(PG_BIN, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '--encoding=UTF8',
    '--locale=C',
  ]);
  execFileSync(initdb, initArgs, { stdio: 'pipe' });
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const service = await superviseServer(
    t,
    'private PostgreSQL',
    () => {
      const [command, args] = asPostgresUser(join(PG_BIN, 'postgres'), [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        // fsync off is safe for a test that kills processes (the page cache survives them), but
        // commits must still hand their WAL to the OS: with synchronous_commit off the last ones
        // stay in PostgreSQL's memory, and a SIGKILL of the server loses writes it acknowledged.
        '-c',
        'fsync=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'shared_buffers=32MB',
        '-c',
        'max_connections=100',
      ]);
      return spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    },
    async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => {});
      }
    },
  );
  return { ...service, port, url };
}

/** A redis-server of the test's own: no persistence, loopback only. */
export async function startPrivateRedis(t: TestContext): Promise<PrivateRedis> {
  const dir = tempDir(t, 'cuepoint-redis-');
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const service = await superviseServer(
    t,
    'private Redis',
    () =>
      spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    async () => {
      const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
      client.on('error', () => {});
      try {
        await client.connect();
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        client.disconnect();
      }
    },
  );
  return { ...service, port, url };
}
