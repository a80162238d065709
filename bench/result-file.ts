/**
 * Where reports go: bench/results/, where the figures worth keeping are committed, unless
 * BENCH_RESULTS_DIR names another folder (smoke runs, smoke.ts, write to a temp dir, so their
 * meaningless figures never land beside real ones).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export function resultsDirectory(): URL {
  const chosen = process.env.BENCH_RESULTS_DIR;
  const dir = chosen ? pathToFileURL(`${resolve(chosen)}/`) : new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Writes a benchmark's report to <results>/<date>-<name>.json (a later run the same day replaces it); answers its path. */
export function writeResultFile(result: unknown, at: Date, name: string): string {
  const file = new URL(`${at.toISOString().slice(0, 10)}-${name}.json`, resultsDirectory());
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file.pathname;
}
