/**
 * The embedded database of `BENCH_COLLECT_DATABASE=embedded`: the service runs on PGlite in a data
 * dir that only one process may have open (src/db/data-dir-lock.ts), and while it runs that process
 * is the service. So the benchmark prepares the dir before the service starts (migrated, the
 * workspace created with its API key, the videos inserted) and closes it, and opens it again to
 * count once the service has stopped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createWorkspace } from '../src/create-workspace.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { type BenchVideos, countDatabase, type DatabaseCounts, insertVideos } from './collect-database.ts';

export interface EmbeddedDataDir extends BenchVideos {
  dataDir: string;
  workspaceId: string;
  apiKey: string;
  /** Opens the dir again (the service must have stopped) and counts what it holds. */
  count(): Promise<DatabaseCounts>;
  /** Removes the dir; safe to call twice. */
  remove(): void;
}

export async function prepareEmbeddedDataDir(videoCount: number): Promise<EmbeddedDataDir> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cuepoint-bench-collect-'));
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  // A benchmark stopped half-way must not leave the database behind in /tmp.
  process.once('exit', remove);
  try {
    const handle = await openDatabase({ kind: 'pglite', dataDir });
    try {
      await migrateToLatest(handle.db);
      const { workspace, apiKey } = await createWorkspace(handle.db, { name: 'Collection benchmark', plan: 'pro', now: new Date() });
      const videos = await insertVideos(handle.db, workspace.id, videoCount);
      await sql`analyze`.execute(handle.db);
      const count = async () => {
        const again = await openDatabase({ kind: 'pglite', dataDir });
        try {
          return await countDatabase(again.db, workspace.id);
        } finally {
          await again.close();
        }
      };
      return { dataDir, workspaceId: workspace.id, apiKey, ...videos, count, remove };
    } finally {
      await handle.close();
    }
  } catch (error) {
    remove();
    throw error;
  }
}
