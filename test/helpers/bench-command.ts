/**
 * Runs `node bench/run.ts …` (what `npm run bench -- …` runs) as a child process, for the benchmark
 * smoke test. It gets the runner's environment without the settings a developer may have exported
 * for real runs (BENCH_*, DATABASE_URL): only what the test chooses decides how big the run is and
 * which database it uses. It shares the test process's compile cache (test/helpers/compile-cache.ts)
 * through NODE_COMPILE_CACHE, which its own children (the service, load generators) inherit in turn:
 * each of them would otherwise compile the service's TypeScript and packages afresh.
 *
 * It runs in a process group of its own. If the test ends first (its timeout), the benchmark gets
 * SIGTERM, on which it drops its throwaway database and stops its service, and after a grace period
 * SIGKILL goes to the whole group, so no service, load generator or ffmpeg it started outlives the
 * test. The group is killed at clean-up in any case, for the same reason.
 */
import { spawn } from 'node:child_process';
import { getCompileCacheDir } from 'node:module';
import { resolve } from 'node:path';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { onCleanup } from './server-process.ts';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const NOT_PASSED_ON = /^(BENCH_.*|DATABASE_URL|NODE_TEST_CONTEXT)$/;
const GRACE_MS = 15_000;

export interface BenchRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export async function runBench(t: TestContext, args: string[], env: Record<string, string>): Promise<BenchRun> {
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!NOT_PASSED_ON.test(name)) childEnv[name] = value;
  const compileCache = getCompileCacheDir();
  if (compileCache) childEnv.NODE_COMPILE_CACHE = compileCache;
  Object.assign(childEnv, env);
  const child = spawn(process.execPath, ['bench/run.ts', ...args], {
    cwd: REPO_ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<Pick<BenchRun, 'code' | 'signal'>>((ok) => child.once('close', (code, signal) => ok({ code, signal })));
  const killGroup = () => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // the group is gone already
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      // Unref'd: a benchmark that stops in time must not keep the test process waiting out the rest.
      await Promise.race([exited, sleep(GRACE_MS, undefined, { ref: false })]);
    }
    killGroup();
  };
  onCleanup(t, stop);
  const aborted = () => void stop();
  t.signal.addEventListener('abort', aborted, { once: true });
  try {
    return { ...(await exited), stdout, stderr };
  } finally {
    t.signal.removeEventListener('abort', aborted);
  }
}
