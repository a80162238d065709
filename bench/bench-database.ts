/**
 * A throwaway PostgreSQL database for one benchmark run: created, migrated and filled with one
 * workspace (whose admin key the load generator sends) and a library of videos, then dropped when the
 * run ends, so a benchmark never touches rows anything else owns.
 *
 * A whole database rather than a schema: Kysely's migrator looks for its bookkeeping tables in every
 * schema it can see, so a schema of its own fails to migrate whenever another schema in the same
 * database (the app's `public`, a test run's) has already been migrated.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { DEMO_FOLDERS, demoVideos } from '../src/cli/demo-library.ts';
import { createWorkspace } from '../src/create-workspace.ts';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

const MINUTE_MS = 60_000;

export interface BenchDatabase {
  database: DatabaseHandle;
  name: string;
  workspaceId: string;
  apiKey: string;
  /** Closes the pool and drops the database; safe to call twice. */
  drop(): Promise<void>;
}

export async function createBenchDatabase(url: string, videoCount: number, poolSize: number): Promise<BenchDatabase> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create database ${name}`);
  const benchUrl = new URL(url);
  benchUrl.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: benchUrl.href, poolSize });
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await database.close();
    await adminQuery(url, `drop database if exists ${name} with (force)`);
  };
  try {
    await migrateToLatest(database.db);
    const now = new Date();
    const { workspace, apiKey } = await createWorkspace(database.db, { name: 'Benchmark workspace', plan: 'business', now });
    await seedLibrary(database, workspace.id, videoCount, now);
    // Fresh statistics, so the planner picks the plan it would on a live table, not on an empty one.
    await sql`analyze`.execute(database.db);
    return { database, name, workspaceId: workspace.id, apiKey, drop };
  } catch (error) {
    await drop();
    throw error;
  }
}

/** The demo library's titles, tags and folders, repeated until there are `count` videos, one a minute apart. */
async function seedLibrary(database: DatabaseHandle, workspaceId: string, count: number, now: Date): Promise<void> {
  const folders = DEMO_FOLDERS.map((name) => ({ id: randomUUID(), workspace_id: workspaceId, name, created_at: now }));
  await database.db.insertInto('folders').values(folders).execute();
  const folderId = new Map(folders.map((f) => [f.name as string, f.id]));
  const library = demoVideos();
  const rows = Array.from({ length: count }, (_, i) => {
    const video = library[i % library.length]!;
    const at = new Date(now.getTime() - i * MINUTE_MS);
    const round = Math.floor(i / library.length);
    return {
      id: randomUUID(),
      workspace_id: workspaceId,
      folder_id: folderId.get(video.folder) ?? null,
      title: round === 0 ? video.title : `${video.title} (take ${round + 1})`,
      description: video.description,
      tags: video.tags,
      status: video.status,
      archived: video.archived,
      source_url: null,
      file_name: video.fileName,
      file_size: video.fileSize,
      duration_seconds: video.durationSeconds,
      width: video.width,
      height: video.height,
      failure_reason: video.failureReason,
      // A spread of view counts, as a real library has (the list benchmark only reads them).
      view_count: video.status === 'ready' ? (i * 7919) % 4000 : 0,
      created_at: at,
      updated_at: at,
    };
  });
  await database.db.insertInto('videos').values(rows).execute();
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
