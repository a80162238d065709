/**
 * Scratch folders for work on local files (a rendition being encoded, speech being extracted, a
 * download from an object store for ffmpeg). Each is removed by its user when done; a process killed
 * mid-work (SIGKILL, a lost machine) leaves its folder behind, and a 1080p rendition's can hold
 * gigabytes, so the worker's maintenance pass removes any left untouched for long
 * (removeAbandonedWorkDirs). The shared prefix is how it tells ours from everything else in the
 * system's temporary folder.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'cuepoint-work-';

/** A new, empty scratch folder; `purpose` names it for whoever finds it (letters and dashes). */
export function makeWorkDir(purpose: string, root: string = tmpdir()): Promise<string> {
  return mkdtemp(join(root, `${PREFIX}${purpose}-`));
}

/**
 * Removes the scratch folders nothing has written to since `olderThan` (neither the folder nor a file
 * in it: work in progress adds segments or grows a file all the time); returns how many went.
 */
export async function removeAbandonedWorkDirs(olderThan: Date, root: string = tmpdir()): Promise<number> {
  let removed = 0;
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(PREFIX)) continue;
    const dir = join(root, entry.name);
    if ((await lastWrite(dir)) < olderThan.getTime()) {
      await rm(dir, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}

async function lastWrite(dir: string): Promise<number> {
  let latest = (await stat(dir).catch(() => undefined))?.mtimeMs ?? 0;
  const files = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const file of files) {
    const stats = await stat(join(file.parentPath, file.name)).catch(() => undefined);
    if (stats) latest = Math.max(latest, stats.mtimeMs);
  }
  return latest;
}
