/**
 * Where the collection benchmark's service runs, ready for the load: on a throwaway PostgreSQL
 * database, which the benchmark also reads through a pool of its own while the service runs (videos
 * inserted, waits sampled, counted once the fold has caught up); or on the embedded PGlite in a data
 * dir prepared before the start and counted after the stop (collect-embedded.ts), where the
 * benchmark has no connection while the service runs.
 */
import { sql } from 'kysely';
import { type BenchVideos, insertVideos } from './collect-database.ts';
import { type EmbeddedDataDir, prepareEmbeddedDataDir } from './collect-embedded.ts';
import { type ServiceProcess, startService } from './service-process.ts';
import { type BenchPool, createThrowawayDatabase, openBenchPool, type ThrowawayDatabase } from './throwaway-database.ts';

export type CollectDatabase = 'postgresql' | 'embedded';

export type CollectTarget = BenchVideos & { service: ServiceProcess; release(): Promise<void> } & (
    | { kind: 'postgresql'; throwaway: ThrowawayDatabase; pool: BenchPool }
    | { kind: 'embedded'; dataDir: EmbeddedDataDir }
  );

export async function startTarget(options: {
  database: CollectDatabase;
  postgresUrl: string;
  synchronousCommit: 'on' | 'off';
  processes: number;
  videos: number;
  env: Record<string, string>;
}): Promise<CollectTarget> {
  const args = ['--role', 'all', '--processes', String(options.processes)];
  if (options.database === 'embedded') {
    const dataDir = await prepareEmbeddedDataDir(options.videos);
    // Exiting runs the exit handlers that stop the service and remove the data dir.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
    const service = await startService({
      args,
      env: options.env,
      dataDir: dataDir.dataDir,
      workspace: { workspaceId: dataDir.workspaceId, apiKey: dataDir.apiKey },
    }).catch((error) => {
      dataDir.remove();
      throw error;
    });
    const release = async () => {
      await service.stop();
      dataDir.remove();
    };
    return { kind: 'embedded', service, dataDir, videos: dataDir.videos, probeVideoId: dataDir.probeVideoId, release };
  }
  const throwaway = await createThrowawayDatabase(options.postgresUrl, { synchronousCommit: options.synchronousCommit });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void throwaway.drop().finally(() => process.exit(130)));
  const service = await startService({ args, env: { DATABASE_URL: throwaway.url, ...options.env } }).catch(async (error) => {
    await throwaway.drop();
    throw error;
  });
  const pool = openBenchPool(throwaway.url);
  const release = async () => {
    await pool.close();
    await service.stop();
    await throwaway.drop();
  };
  try {
    const videos = await insertVideos(pool.db, service.workspaceId, options.videos);
    await sql`analyze`.execute(pool.db);
    return { kind: 'postgresql', service, throwaway, pool, ...videos, release };
  } catch (error) {
    await release();
    throw error;
  }
}
