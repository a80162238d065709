/**
 * How long each test file took last time, kept beside the database template in node_modules/.cache,
 * so the runner can hand the longest files out first and the workers finish together. A fresh clone
 * (CI) has no such store yet: it starts from the snapshot committed beside this file
 * (durations-snapshot.json: a copy of a whole run's store, refreshed when the suite's shape changes).
 * A file in neither is estimated from its size; a missing or unreadable store only makes the split
 * less even.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Named by how the times were taken (2: a file's time is the sum of its tests' durations, reporter.ts),
 * so a checkout that takes them another way, sharing this node_modules, keeps a store of its own.
 */
const STORE = join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'cuepoint', 'test-durations-2.json');

/** Milliseconds per byte of test source, for files never timed: about what the suite's median file shows. */
const MS_PER_BYTE = 0.1;

export type Durations = Record<string, number>;

const SNAPSHOT = join(import.meta.dirname, 'durations-snapshot.json');

export function loadDurations(): Durations {
  return { ...readDurations(SNAPSHOT), ...readDurations(STORE) };
}

function readDurations(path: string): Durations {
  try {
    const stored: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return stored && typeof stored === 'object' ? (stored as Durations) : {};
  } catch {
    return {};
  }
}

export function saveDurations(previous: Durations, measured: Durations): void {
  mkdirSync(dirname(STORE), { recursive: true });
  writeFileSync(STORE, `${JSON.stringify({ ...previous, ...measured }, null, 1)}\n`);
}

export function expectedDuration(file: string, durations: Durations): number {
  return durations[file] ?? statSync(file).size * MS_PER_BYTE;
}
