/** Writes a benchmark's report to bench/results/<date>-<name>.json (a later run the same day replaces it). */
import { mkdirSync, writeFileSync } from 'node:fs';

export function writeResultFile(result: unknown, at: Date, name: string): string {
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL(`${at.toISOString().slice(0, 10)}-${name}.json`, dir);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file.pathname;
}
