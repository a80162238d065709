/**
 * One process per embedded data directory.
 *
 * PGlite has no cross-process lock, and two processes on one data directory corrupt it
 * (electric-sql/pglite#1106). We hold `cuepoint.lock` for as long as the database is open; it names
 * our PID and, on Linux, our start time, so a lock whose PID was reused by an unrelated process is
 * still recognised as stale. A stale lock (left by `kill -9`) is removed together with PGlite's own
 * `postmaster.pid`, which would otherwise make the next open abort. Taking over a stale lock is
 * itself guarded by an exclusively created `cuepoint.lock.takeover`, so two processes that find the
 * same stale lock at once cannot both take it.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirInUseError extends Error {
  readonly dataDir: string;
  readonly pid: number;

  constructor(dataDir: string, pid: number) {
    super(
      `${heldBy(dataDir, pid)} Stop it first, or run this command against the server with DATABASE_URL ` +
        '(PostgreSQL), or choose another CUEPOINT_DATA_DIR.',
    );
    this.name = 'DataDirInUseError';
    this.dataDir = dataDir;
    this.pid = pid;
  }

  /** Who holds the directory, in the words every refusal opens with; a command adds what to do instead. */
  get heldBy(): string {
    return heldBy(this.dataDir, this.pid);
  }
}

function heldBy(dataDir: string, pid: number): string {
  return `The embedded database in ${dataDir} is in use by another process (pid ${pid}), probably a running cuepoint server.`;
}

export interface DataDirLock {
  release(): void;
}

/**
 * Held until released; if the process exits first (a stop forced past its deadline, a second
 * signal), the lock is dropped on the way out, with PGlite's `postmaster.pid`, since the database was
 * not closed: the next start then opens the directory at once, recovering as after a crash.
 */
function heldLock(lockPath: string, pgDataDir: string): DataDirLock {
  const dropOnExit = () => {
    rmSync(join(pgDataDir, 'postmaster.pid'), { force: true });
    rmSync(lockPath, { force: true });
  };
  process.once('exit', dropOnExit);
  return {
    release() {
      process.removeListener('exit', dropOnExit);
      rmSync(lockPath, { force: true });
    },
  };
}

interface Holder {
  pid: number;
  startTime: string | undefined;
}

export function lockDataDir(dataDir: string, pgDataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'cuepoint.lock');
  const takeoverPath = `${lockPath}.takeover`;
  const me = `${process.pid} ${startTimeOf(process.pid) ?? ''}`.trim();
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusively(lockPath, me)) return heldLock(lockPath, pgDataDir);
    const holder = readHolder(lockPath);
    if (holder && isAlive(holder)) throw new DataDirInUseError(dataDir, holder.pid);
    // Stale. Only the process that creates the takeover file may clear it.
    if (!createExclusively(takeoverPath, me)) {
      const taker = readHolder(takeoverPath);
      if (taker && !isAlive(taker)) rmSync(takeoverPath, { force: true });
      sleep(50);
      continue;
    }
    try {
      const again = readHolder(lockPath);
      if (again && isAlive(again)) throw new DataDirInUseError(dataDir, again.pid);
      rmSync(lockPath, { force: true });
      rmSync(join(pgDataDir, 'postmaster.pid'), { force: true });
    } finally {
      rmSync(takeoverPath, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockPath}; remove it if no cuepoint process is running.`);
}

function createExclusively(path: string, content: string): boolean {
  try {
    const fd = openSync(path, 'wx');
    writeSync(fd, content);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    const [pidText, startTime] = readFileSync(path, 'utf8').trim().split(' ');
    const pid = Number.parseInt(pidText ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? { pid, startTime } : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const current = startTimeOf(holder.pid);
  return holder.startTime === undefined || current === undefined || current === holder.startTime;
}

/** The process start time in clock ticks since boot (Linux /proc), or undefined elsewhere. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
