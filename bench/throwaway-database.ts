/**
 * An empty PostgreSQL database for one benchmark run, for a service process to migrate and fill
 * itself (`cuepoint start` creates its first workspace only in an empty database), and a few
 * measurement helpers the viewing benchmarks share: percentiles, CPU time of processes and of the
 * whole machine from /proc, and PostgreSQL's own counters for the database.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/db/tables/index.ts';

export interface ThrowawayDatabase {
  name: string;
  /** The database's URL: give it to the service as DATABASE_URL. */
  url: string;
  /** Drops the database (forcing out any connection left); safe to call twice. */
  drop(): Promise<void>;
}

export async function createThrowawayDatabase(
  adminUrl: string,
  options: { synchronousCommit?: 'on' | 'off' } = {},
): Promise<ThrowawayDatabase> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  if (options.synchronousCommit === 'off') await adminQuery(adminUrl, `alter database ${name} set synchronous_commit = off`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
  };
  return { name, url: url.href, drop };
}

export interface BenchPool {
  db: Kysely<Database>;
  close(): Promise<void>;
}

/**
 * The benchmark's own small pool on the service's database, for seeding and counting: the service's
 * types (bigint as a number, dates as 'YYYY-MM-DD'), without its 30 s query timeout, which a bulk
 * insert of millions of rows outlasts.
 */
export function openBenchPool(url: string, poolSize = 4): BenchPool {
  const parsers: Record<number, (value: string) => unknown> = { 20: Number, 1082: (value: string) => value };
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: { getTypeParser: (oid, format) => parsers[oid] ?? pg.types.getTypeParser(oid, format) } as pg.CustomTypesConfig,
  });
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, close: () => db.destroy() };
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

// ── figures ─────────────────────────────────────────────────────────────────────────────────────────

/** Nearest-rank percentile of unsorted values (0 when there are none). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** snake_case keys, as all of the project's JSON (DESIGN §6); keys that are not camelCase names stay as they are. */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      /^[a-z][A-Za-z0-9]*$/.test(k) ? k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : k,
      snakeKeys(v),
    ]),
  );
}

/** Busy and total CPU time of the whole machine, in clock ticks, from /proc/stat. */
export function machineCpu(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}

/** Share of the machine's CPU time that was busy between two readings (0–1), whoever used it. */
export function busyShare(before: { busy: number; total: number }, after: { busy: number; total: number }): number {
  const total = after.total - before.total;
  return total > 0 ? (after.busy - before.busy) / total : 0;
}

/** Commits, rollbacks and deadlocks PostgreSQL has counted for the current database. */
export async function databaseCounters(database: BenchPool): Promise<{ commits: number; rollbacks: number; deadlocks: number }> {
  const result = await sql<{ commits: string; rollbacks: string; deadlocks: string }>`
    select xact_commit as commits, xact_rollback as rollbacks, deadlocks
    from pg_stat_database where datname = current_database()`.execute(database.db);
  const row = result.rows[0];
  return { commits: Number(row?.commits ?? 0), rollbacks: Number(row?.rollbacks ?? 0), deadlocks: Number(row?.deadlocks ?? 0) };
}
