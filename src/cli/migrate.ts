/** `cuepoint migrate`: applies pending migrations and says which. */
import type { Config } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';

export async function migrate(config: Config, options: { json: boolean }): Promise<void> {
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
  );
  try {
    const applied = await migrateToLatest(database.db);
    if (options.json) process.stdout.write(`${JSON.stringify({ applied })}\n`);
    else process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n');
  } finally {
    await database.close();
  }
}
