/**
 * The real service for a benchmark that measures the server's own resources: `cuepoint start` as a
 * child process, so its memory and CPU can be read from /proc apart from the load generator's. Its
 * data dir (embedded database, media) is a temp dir; with a PostgreSQL URL it gets a throwaway
 * database there instead of the embedded one. Both are removed when it stops. A benchmark that
 * prepares the embedded database itself hands over its own data dir, and keeps it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const REPO_ROOT = resolve(import.meta.dirname, '..');
/** Variables the service reads: the child gets only what the benchmark chooses, never the caller's. */
const SERVICE_VARIABLES = /^(PORT|HOST|PUBLIC_URL|DATABASE_URL|REDIS_URL|LOG_LEVEL|CUEPOINT_.*|NODE_OPTIONS)$/;
const FIRST_START = /workspace_id:\s+(\S+)\s+api_key:\s+(cue_live_[0-9A-Za-z]+)/;

export interface ServiceProcess {
  pid: number;
  /** http://127.0.0.1:PORT */
  url: string;
  dataDir: string;
  /** 'embedded PGlite', or the PostgreSQL server's address. */
  database: string;
  workspaceId: string;
  apiKey: string;
  /** SIGTERM (SIGKILL if it hangs), then removes the data dir. Safe to call twice. */
  stop(): Promise<void>;
}

export async function startService(options: {
  args: string[];
  env: Record<string, string>;
  /** A PostgreSQL server where a throwaway database may be created; default: the embedded database. */
  postgresUrl?: string;
  /**
   * A data dir the caller made and filled before the start (an embedded database prepared by the
   * benchmark): the service uses it, and it stays when the service stops, for the caller to read
   * and remove. Default: a temp dir of the service's own, removed when it stops.
   */
  dataDir?: string;
  /** The workspace the caller created in its data dir: the service then announces none of its own. */
  workspace?: { workspaceId: string; apiKey: string };
  /** Everything the service prints on stdout, as it comes (the first start's owner link). */
  onOutput?: (chunk: string) => void;
  readyTimeoutMs?: number;
}): Promise<ServiceProcess> {
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'cuepoint-bench-'));
  const removeDataDir = () => {
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!SERVICE_VARIABLES.test(name)) env[name] = value;
  Object.assign(env, { CUEPOINT_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...options.env });
  let dropDatabase = async () => {};
  if (options.postgresUrl) {
    const adminUrl = options.postgresUrl;
    const name = `bench_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `create database ${name}`);
    dropDatabase = () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.href;
  }
  const database = options.postgresUrl ? `PostgreSQL at ${new URL(options.postgresUrl).host}` : 'embedded PGlite';
  const child = spawn(process.execPath, ['src/main.ts', 'start', ...options.args], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    options.onOutput?.(chunk);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<void>((ok) => child.once('close', () => ok()));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await terminate(child, exited);
    removeDataDir();
    await dropDatabase();
  };
  // A benchmark stopped half-way must not leave a server (and a gigabyte in /tmp) behind.
  process.once('exit', () => {
    child.kill('SIGKILL');
    removeDataDir();
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the service exited before it was ready:\n${err}${out}`);
      if (Date.now() > deadline) throw new Error(`the service was not ready in time:\n${err}${out}`);
      const ready = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(1000) }).then(
        (response) => response.status === 200,
        () => false,
      );
      const first = FIRST_START.exec(out);
      const workspace = options.workspace ?? (first ? { workspaceId: first[1] as string, apiKey: first[2] as string } : undefined);
      if (ready && workspace) return { pid: child.pid as number, url, dataDir, database, ...workspace, stop };
      await sleep(100);
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

async function terminate(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (!(await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]))) {
    child.kill('SIGKILL');
    await exited;
  }
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(0, '127.0.0.1', ok));
  const address = server.address();
  await new Promise<void>((ok) => server.close(() => ok()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

// ── another process's memory and CPU, from /proc (Linux) ───────────────────────────────────────────

export interface Memory {
  /** Resident set size: what the process holds in RAM now. */
  rss: number;
  /** The anonymous part of it: JS heap, Buffers, native allocations (not mapped files). */
  rssAnon: number;
  /** The most the RSS has been since the process started, or since resetPeak. */
  peakRss: number;
}

export function readMemory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(match[1]) * 1024;
  };
  return { rss: kib('VmRSS'), rssAnon: kib('RssAnon'), peakRss: kib('VmHWM') };
}

/** Resets the kernel's RSS high-water mark (VmHWM) to the current RSS; false where not permitted. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** User + system CPU time the process has used, in seconds. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
}
