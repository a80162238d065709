/**
 * CPU that PostgreSQL spent serving the benchmark database, read from /proc for each backend process
 * connected to it. Only possible when PostgreSQL runs on this machine and its processes are visible;
 * otherwise the meter answers undefined and the report leaves the column out. With the server's own
 * CPU, it tells whether a gap between the two targets comes from Node or from the extra SQL.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../src/db/tables/index.ts';

export type StopMeter = () => Promise<number | undefined>;

export function createPostgresCpuMeter(db: Kysely<Database>): { start(): Promise<StopMeter> } {
  const microsPerTick = 1_000_000 / clockTicksPerSecond();
  const backends = async () => {
    const result = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(db);
    return result.rows.map((r) => r.pid);
  };
  return {
    async start() {
      const before = new Map<number, number>();
      for (const pid of await backends()) {
        const ticks = cpuTicks(pid);
        if (ticks === undefined) return async () => undefined;
        before.set(pid, ticks);
      }
      return async () => {
        let ticks = 0;
        // A backend that appeared during the measurement started from zero; one that left is lost (rare).
        for (const pid of await backends()) ticks += (cpuTicks(pid) ?? 0) - (before.get(pid) ?? 0);
        return ticks * microsPerTick;
      };
    },
  };
}

/** utime + stime of a process, in clock ticks; undefined when the process is not visible from here. */
function cpuTicks(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ');
    return Number(fields?.[11]) + Number(fields?.[12]);
  } catch {
    return undefined;
  }
}

function clockTicksPerSecond(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}
