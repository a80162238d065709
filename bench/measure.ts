/**
 * One measurement: runs bench/load.ts in a child process against a URL and boils autocannon's result
 * down to the figures the report needs. A process of its own, so that generating load never shares
 * the server's event loop; pinned to a core of its own when BENCH_PIN=1 (see pinning.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Result } from 'autocannon';
import { loadGeneratorPrefix } from './pinning.ts';

const LOAD_SCRIPT = fileURLToPath(new URL('./load.ts', import.meta.url));

// A benchmark stopped half-way (Ctrl-C, SIGTERM) must not leave a load generator hammering a closed port.
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill();
});

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
}

export interface Figures {
  requestsPerSecond: number;
  requests: number;
  latencyMs: { p50: number; p90: number; p99: number; average: number; max: number };
  /** Responses that were not 2xx, and connection errors; any of these makes the run invalid. */
  non2xx: number;
  errors: number;
  durationSeconds: number;
  /**
   * CPU this process (the servers) spent per request, in microseconds. Less sensitive to other load
   * on the machine than requests/s, so it shows what the full stack costs even on a busy host.
   */
  serverCpuMicrosPerRequest: number;
  /** CPU PostgreSQL spent per request, when it runs on this machine (filled in by compare.ts). */
  postgresCpuMicrosPerRequest?: number;
}

export async function measure(options: LoadOptions): Promise<Figures> {
  const args = JSON.stringify({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    headers: options.headers,
  });
  const cpuBefore = process.cpuUsage();
  const result = JSON.parse(await runChild([...loadGeneratorPrefix(), process.execPath, LOAD_SCRIPT, args])) as Result;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    requestsPerSecond: result.requests.total / result.duration,
    requests: result.requests.total,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      average: result.latency.average,
      max: result.latency.max,
    },
    non2xx: result.non2xx,
    errors: result.errors,
    durationSeconds: result.duration,
    serverCpuMicrosPerRequest: (cpu.user + cpu.system) / Math.max(1, result.requests.total),
  };
}

function runChild(command: string[]): Promise<string> {
  const [file, ...args] = command as [string, ...string[]];
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    running.add(child);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      running.delete(child);
      if (code === 0) resolve(out);
      else reject(new Error(`load generator exited with code ${code}`));
    });
  });
}
