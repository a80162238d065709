/**
 * `node bench/first-start.ts [runs]`: how long the first `cuepoint start` on an empty data directory
 * takes to answer, and a second start on the same directory: the time from spawning
 * `node src/main.ts start` to the first 200 from GET /ready, and the CPU time the process used until
 * then. Prints each run and the load average.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const REPO_ROOT = resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 3);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  await new Promise<void>((ok) => server.close(() => ok()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
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
    return Number.NaN;
  }
}

/** From spawn to the first 200 from /ready (wall and CPU seconds); the server is stopped (SIGTERM) afterwards. */
async function timeToReady(dataDir: string): Promise<{ wall: number; cpu: number }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, CUEPOINT_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const started = performance.now();
  const child = spawn(process.execPath, ['src/main.ts', 'start'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  try {
    for (;;) {
      if (gone) throw new Error('the server exited before it was ready');
      try {
        const response = await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(1000) });
        await response.arrayBuffer();
        if (response.status === 200) return { wall: (performance.now() - started) / 1000, cpu: cpuSeconds(child.pid as number) };
      } catch {
        // not listening yet
      }
      await sleep(20);
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
for (let i = 0; i < runs; i++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cuepoint-first-start-'));
  try {
    const first = await timeToReady(dataDir);
    const second = await timeToReady(dataDir);
    const show = (t: { wall: number; cpu: number }) => `${t.wall.toFixed(2)} s (CPU ${t.cpu.toFixed(2)} s)`;
    process.stdout.write(`empty data directory: ${show(first)}   later start: ${show(second)}   load average ${load()}\n`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
