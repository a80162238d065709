/**
 * Optional CPU pinning with `taskset` (BENCH_PIN=1): the server process on core 0, the load generator
 * on the last core. Off by default: on the two-core machine it was tried on, with PostgreSQL floating
 * over both cores, it did not make the rounds agree any better, and some containers forbid it. It
 * stays off when taskset is missing, not permitted, or the machine has a single core.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

export interface Pinning {
  serverCpu: number;
  loadCpu: number;
}

let decided: Pinning | null | undefined;

export function pinning(): Pinning | null {
  if (decided !== undefined) return decided;
  decided = null;
  const cpus = availableParallelism();
  if (process.env.BENCH_PIN === '1' && cpus >= 2 && hasTaskset()) decided = { serverCpu: 0, loadCpu: cpus - 1 };
  return decided;
}

/** Pins every thread of this process (event loop, libuv pool, GC helpers) to the server core. */
export function pinServer(): void {
  const plan = pinning();
  if (!plan) return;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(plan.serverCpu), String(process.pid)], { stdio: 'ignore' });
  } catch {
    decided = null; // not permitted here (some containers); measure unpinned rather than fail
  }
}

/** The command prefix that starts the load generator on its own core, or nothing. */
export function loadGeneratorPrefix(): string[] {
  const plan = pinning();
  return plan ? ['taskset', '-c', String(plan.loadCpu)] : [];
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
