/**
 * One process per embedded data directory.
 *
 * PGlite has no cross-process lock, and two processes on one data directory corrupt it
 * (electric-sql/pglite#1106). We hold `cuepoint.lock` (our PID) for as long as the database is open.
 * A lock whose process is gone is stale, left by `kill -9`: we remove it together with PGlite's own
 * `postmaster.pid`, which would otherwise make the next open abort.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database in ${dataDir} is in use by another process (pid ${pid}), probably a running ` +
        'cuepoint server. Stop it first, or run this command against the server with DATABASE_URL ' +
        '(PostgreSQL), or choose another CUEPOINT_DATA_DIR.',
    );
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  release(): void;
}

export function lockDataDir(dataDir: string, pgDataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'cuepoint.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => rmSync(lockPath, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(lockPath);
      if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
        throw new DataDirInUseError(dataDir, holder);
      }
      rmSync(lockPath, { force: true });
      rmSync(join(pgDataDir, 'postmaster.pid'), { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

function readHolder(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
