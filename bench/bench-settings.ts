/**
 * The environment settings the read benchmarks share: the PostgreSQL they run on, a positive number
 * with a default, and a list of sizes (the workspaces to seed, smallest first).
 */

/** BENCH_DATABASE_URL, else DATABASE_URL, else the local PostgreSQL's `test` database. */
export const benchDatabaseUrl = () =>
  process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** A positive number from the environment, `fallback` when unset or not one. */
export function numberSetting(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** A whole number, as counts of rounds and requests are. */
export const countSetting = (name: string, fallback: number) => Math.floor(numberSetting(name, fallback));

/** Comma-separated sizes, whole numbers of at least `least`, ascending. */
export function sizesSetting(name: string, fallback: string, least = 1): number[] {
  return (process.env[name] || fallback)
    .split(',')
    .map((s) => Math.floor(Number(s.trim())))
    .filter((n) => Number.isFinite(n) && n >= least)
    .sort((a, b) => a - b);
}
