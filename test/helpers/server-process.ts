/**
 * Runs the real `cuepoint` command as a child process, for tests about what only a whole process
 * shows: start-up output, signals, crashes, data-directory locks, several processes sharing limits.
 * Every process started here is killed when its test ends, pass or fail, and every temp dir removed
 * after the processes that used it (clean-ups run newest first).
 *
 * Waits are for signals, never for a fixed time: a server is ready when GET /ready answers 200, a
 * key is there when stdout shows it, a command is done when it exits. A process that exits first
 * fails the wait with its output. The ceiling is the test's own timeout (a loaded machine can take
 * tens of seconds to start a server); when the test is cancelled, its waits end with the output.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const MAIN = 'src/main.ts';
/** Variables the service reads; a child gets only what the test gives it, never the runner's own. */
const SERVICE_VARIABLES = /^(PORT|HOST|PUBLIC_URL|DATABASE_URL|REDIS_URL|LOG_LEVEL|CUEPOINT_.*|NODE_TEST_CONTEXT|NODE_OPTIONS)$/;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

// ── clean-up, newest first ─────────────────────────────────────────────────────────────────────────
// node:test runs t.after hooks in the order they were added; a temp dir must outlive the process
// that has files open in it, so helpers push onto one stack per test instead.
const stacks = new WeakMap<TestContext, (() => Promise<void> | void)[]>();

export function onCleanup(t: TestContext, fn: () => Promise<void> | void): void {
  let stack = stacks.get(t);
  if (!stack) {
    const fresh: (() => Promise<void> | void)[] = [];
    stacks.set(t, fresh);
    // Every step runs even when one fails (a client that cannot close must not leave a private
    // server running and the file hanging); the first failure is reported once all have run.
    t.after(async () => {
      const failures: unknown[] = [];
      for (const step of fresh.reverse())
        await Promise.resolve()
          .then(step)
          .catch((error: unknown) => failures.push(error));
      if (failures.length > 0) throw failures[0];
    });
    stack = fresh;
  }
  stack.push(fn);
}

export function tempDir(t: TestContext, prefix = 'cuepoint-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onCleanup(t, () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A port nobody listens on right now (the kernel picks it; we release it for the child). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(0, '127.0.0.1', ok));
  const address = server.address();
  await new Promise<void>((ok) => server.close(() => ok()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function childEnv(dataDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!SERVICE_VARIABLES.test(name)) env[name] = value;
  return { ...env, CUEPOINT_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
}

interface Spawned {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves on 'close': the process is gone and its output fully read. */
  exited: Promise<Exit>;
  /** The first match of `pattern` in stdout, as soon as it is printed; rejects if the process ends first. */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
}

function spawnCuepoint(t: TestContext, args: string[], env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let exit: Exit | undefined;
  const watchers = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const check of watchers) check();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<Exit>((ok) =>
    child.once('close', (code, signal) => {
      exit = { code, signal };
      for (const check of watchers) check();
      ok(exit);
    }),
  );
  const printed = (pattern: RegExp) =>
    untilSettled<RegExpExecArray>(t, `cuepoint ${args.join(' ')} to print ${pattern}`, (resolve, reject) => {
      const check = () => {
        const match = pattern.exec(out);
        if (match) resolve(match);
        else if (exit) reject(new Error(`exited (${JSON.stringify(exit)}) without printing ${pattern}:\n${err}${out}`));
      };
      watchers.add(check);
      check();
      return () => watchers.delete(check);
    });
  onCleanup(t, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // SIGTERM first so a cluster primary can take its API processes down with it; SIGKILL if it hangs.
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
    if (!stopped) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return { child, stdout: () => out, stderr: () => err, exited, printed };
}

/**
 * A promise settled by `start`'s callbacks, or rejected when the test is cancelled (its timeout):
 * waits in this file have no deadline of their own. `start` returns its clean-up.
 */
function untilSettled<T>(
  t: TestContext,
  what: string,
  start: (resolve: (value: T) => void, reject: (error: Error) => void) => () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let stop = () => {};
    const cancelled = () => finish(() => reject(new Error(`the test ended while waiting for ${what}`)));
    const finish = (settle: () => void) => {
      stop();
      t.signal.removeEventListener('abort', cancelled);
      settle();
    };
    t.signal.addEventListener('abort', cancelled, { once: true });
    stop = start(
      (value) => finish(() => resolve(value)),
      (error) => finish(() => reject(error)),
    );
    if (t.signal.aborted) cancelled();
  });
}

// ── one-shot CLI commands ──────────────────────────────────────────────────────────────────────────

export interface CliResult extends Exit {
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end and returns its exit and output. The test's timeout is the ceiling;
 * `timeoutMs`, only as a last resort, kills the command earlier and fails with its output.
 */
export async function runCli(
  t: TestContext,
  args: string[],
  options: { dataDir: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<CliResult> {
  const run = spawnCuepoint(t, args, childEnv(options.dataDir, options.env ?? {}));
  const what = `cuepoint ${args.join(' ')}`;
  const exit = await untilSettled<Exit>(t, `${what} to finish`, (resolve, reject) => {
    void run.exited.then(resolve);
    const ceiling =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            run.child.kill('SIGKILL');
            reject(new Error(`${what} did not finish within ${options.timeoutMs} ms:\n${run.stderr()}${run.stdout()}`));
          }, options.timeoutMs);
    return () => clearTimeout(ceiling);
  });
  return { ...exit, stdout: run.stdout(), stderr: run.stderr() };
}

/**
 * A value for CUEPOINT_DEMO_NOW: the latest Wednesday noon (UTC) at or before `now`. How many
 * sessions `seed --demo` plays depends on the weekday and the hour its ninety days end at; this fixes
 * both, so the demo is the same on every run, and keeps it within the last week, so analytics read
 * with the real clock still find it.
 */
export function pinnedDemoNow(now = new Date()): string {
  const DAY_MS = 24 * 60 * 60 * 1000;
  const noonToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 12);
  let at = noonToday - ((now.getUTCDay() - 3 + 7) % 7) * DAY_MS; // getUTCDay: Sunday 0, Wednesday 3
  if (at > now.getTime()) at -= 7 * DAY_MS;
  return new Date(at).toISOString();
}

// ── servers ────────────────────────────────────────────────────────────────────────────────────────

export interface ServerProcess {
  pid: number;
  port: number;
  /** http://127.0.0.1:PORT */
  url: string;
  stdout(): string;
  stderr(): string;
  /** The admin key a first start prints (`api_key:      cue_live_…`); rejects if the server exits without one. */
  firstKey(): Promise<string>;
  /** The first match of `pattern` in stdout, as soon as it is printed (a log line may follow readiness). */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
  kill(signal: NodeJS.Signals): void;
  exited: Promise<Exit>;
}

export interface ServerOptions {
  dataDir: string;
  env?: Record<string, string>;
  /** After `start`, e.g. ['--role', 'api']. */
  args?: string[];
  /** Only as a last resort: fail if not ready this long after the spawn (the test's timeout is the ceiling). */
  readyTimeoutMs?: number;
}

const FIRST_KEY = /api_key:\s+(cue_live_[0-9A-Za-z]+)/;

/** Starts `cuepoint start` on a free loopback port and resolves once GET /ready answers 200. */
export async function startServer(t: TestContext, options: ServerOptions): Promise<ServerProcess> {
  const port = await freePort();
  const env = childEnv(options.dataDir, { HOST: '127.0.0.1', PORT: String(port), ...options.env });
  const run = spawnCuepoint(t, ['start', ...(options.args ?? [])], env);
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    pid: run.child.pid as number,
    port,
    url,
    stdout: run.stdout,
    stderr: run.stderr,
    exited: run.exited,
    kill: (signal) => {
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill(signal);
    },
    firstKey: async () => (await run.printed(FIRST_KEY))[1] as string,
    printed: run.printed,
  };
  await waitForReady(t, server, run, options.readyTimeoutMs);
  return server;
}

export interface BackgroundProcess {
  pid: number;
  stdout(): string;
  stderr(): string;
  kill(signal: NodeJS.Signals): void;
  exited: Promise<Exit>;
}

/** Starts `cuepoint start` with arguments that serve no HTTP (e.g. ['--role', 'worker']); resolves once spawned. */
export function startBackground(
  t: TestContext,
  options: { dataDir: string; env?: Record<string, string>; args: string[] },
): BackgroundProcess {
  const run = spawnCuepoint(t, ['start', ...options.args], childEnv(options.dataDir, options.env ?? {}));
  return {
    pid: run.child.pid as number,
    stdout: run.stdout,
    stderr: run.stderr,
    exited: run.exited,
    kill: (signal) => {
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill(signal);
    },
  };
}

/** Until GET /ready answers 200; fails at once, with the output, if the process exits first. */
async function waitForReady(t: TestContext, server: ServerProcess, run: Spawned, ceilingMs?: number): Promise<void> {
  const deadline = ceilingMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ceilingMs;
  let exit: Exit | undefined;
  void run.exited.then((e) => {
    exit = e;
  });
  for (;;) {
    if (exit) throw new Error(`server exited before ready (${JSON.stringify(exit)}):\n${run.stderr()}${run.stdout()}`);
    if (t.signal.aborted) throw new Error(`the test ended before the server was ready:\n${run.stderr()}${run.stdout()}`);
    if (Date.now() > deadline) throw new Error(`server not ready within ${ceilingMs} ms:\n${run.stderr()}${run.stdout()}`);
    try {
      const response = await fetch(`${server.url}/ready`, { signal: AbortSignal.any([t.signal, AbortSignal.timeout(30_000)]) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet, or too busy to answer this probe: ask again
    }
    await sleep(50);
  }
}

// ── HTTP against a running server ──────────────────────────────────────────────────────────────────

export interface HttpResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field in tests
  body: any;
}

export async function http(
  url: string,
  options: { method?: string; token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    // A last-resort ceiling so a hung server fails the request rather than the whole test run.
    signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}
