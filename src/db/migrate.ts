/**
 * Runs the migrations in ./migrations: a static, ordered list (no directory scanning), applied at
 * start-up and by `cuepoint migrate`. Kysely's migrator takes a lock, so several processes starting at
 * once on one PostgreSQL apply each migration exactly once.
 */
import { type Kysely, sql } from 'kysely';
import { DEFAULT_MIGRATION_TABLE, type Migration, type MigrationResultSet, Migrator } from 'kysely/migration';

/**
 * Every migration, by name. Each module is loaded only when the migrator runs: a start on a database
 * that is up to date (allApplied) never loads them.
 */
const migrations: Record<string, () => Promise<Migration>> = {
  '0001-workspaces-credentials-videos': () => import('./migrations/0001-workspaces-credentials-videos.ts'),
  '0002-service-settings': () => import('./migrations/0002-service-settings.ts'),
  '0003-jobs': () => import('./migrations/0003-jobs.ts'),
  '0004-video-uploads': () => import('./migrations/0004-video-uploads.ts'),
  '0005-posters-transcripts': () => import('./migrations/0005-posters-transcripts.ts'),
  '0006-webhooks': () => import('./migrations/0006-webhooks.ts'),
  '0007-viewing': () => import('./migrations/0007-viewing.ts'),
  '0008-events-by-type': () => import('./migrations/0008-events-by-type.ts'),
  '0009-credential-last-used': () => import('./migrations/0009-credential-last-used.ts'),
  '0010-folder-operations': () => import('./migrations/0010-folder-operations.ts'),
  '0011-leads-and-outcomes': () => import('./migrations/0011-leads-and-outcomes.ts'),
  '0013-outcomes-write-scope': () => import('./migrations/0013-outcomes-write-scope.ts'),
  '0015-outcomes-by-last-touch': () => import('./migrations/0015-outcomes-by-last-touch.ts'),
  '0016-routes': () => import('./migrations/0016-routes.ts'),
  '0017-route-counters': () => import('./migrations/0017-route-counters.ts'),
  '0018-scheduling': () => import('./migrations/0018-scheduling.ts'),
  '0019-booking-sequence': () => import('./migrations/0019-booking-sequence.ts'),
  '0020-video-booking': () => import('./migrations/0020-video-booking.ts'),
  '0021-jobs-by-workspace': () => import('./migrations/0021-jobs-by-workspace.ts'),
  '0022-channel': () => import('./migrations/0022-channel.ts'),
  '0023-transcript-search': () => import('./migrations/0023-transcript-search.ts'),
  '0024-search-indexes': () => import('./migrations/0024-search-indexes.ts'),
  '0025-transcript-configs-by-workspace': () => import('./migrations/0025-transcript-configs-by-workspace.ts'),
  '0026-viewing-fold': () => import('./migrations/0026-viewing-fold.ts'),
  '0027-workspace-day-leads-revenue': () => import('./migrations/0027-workspace-day-leads-revenue.ts'),
  '0028-video-renditions': () => import('./migrations/0028-video-renditions.ts'),
  '0029-people': () => import('./migrations/0029-people.ts'),
  '0030-email-outbox': () => import('./migrations/0030-email-outbox.ts'),
  '0031-audit-events': () => import('./migrations/0031-audit-events.ts'),
  '0032-erasure': () => import('./migrations/0032-erasure.ts'),
  '0033-exhausted-deliveries': () => import('./migrations/0033-exhausted-deliveries.ts'),
  '0034-lead-search-indexes': () => import('./migrations/0034-lead-search-indexes.ts'),
  '0035-oauth-clients': () => import('./migrations/0035-oauth-clients.ts'),
  '0036-oauth-codes': () => import('./migrations/0036-oauth-codes.ts'),
  '0037-oauth-grants': () => import('./migrations/0037-oauth-grants.ts'),
  '0038-email-calendar': () => import('./migrations/0038-email-calendar.ts'),
};

/**
 * `schema` pins Kysely's own bookkeeping tables to the schema in use: the migrator looks for them
 * across every schema, so without it a database holding several Cuepoint schemas (tests) confuses it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before any table type holds
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<string[]> {
  if (await allApplied(db, schema)) return [];
  return applied(await migrator(db, schema).migrateToLatest());
}

/**
 * True when the database has applied exactly the migrations above: then the migrator would apply
 * nothing, and it is not run. Kysely's migrator first checks for its tables by reading every table
 * and column the database has, several times over, which took an embedded database half a second on
 * every start; this is two small queries. Anything else (no bookkeeping table yet, a migration to
 * apply, one applied that this code does not know, which the migrator refuses) goes to the migrator.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before any table type holds
async function allApplied(db: Kysely<any>, schema: string | undefined): Promise<boolean> {
  const table = schema ? `"${schema.replaceAll('"', '""')}"."${DEFAULT_MIGRATION_TABLE}"` : DEFAULT_MIGRATION_TABLE;
  const found = await sql<{ present: boolean }>`select to_regclass(${table}) is not null as present`.execute(db);
  if (!found.rows[0]?.present) return false;
  const rows = await (schema ? db.withSchema(schema) : db).selectFrom(DEFAULT_MIGRATION_TABLE).select('name').execute();
  const names = new Set(rows.map((row: { name: string }) => row.name));
  return names.size === Object.keys(migrations).length && Object.keys(migrations).every((name) => names.has(name));
}

/**
 * For tests of what a migration does to the rows an older schema held: applies the migrations up to
 * and including `name` to a new database, and no further. (Kysely's migrateTo: on a database past
 * `name` it would run `down`s, which nothing here needs.)
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before any table type holds
export async function migrateTo(db: Kysely<any>, name: string, schema?: string): Promise<string[]> {
  return applied(await migrator(db, schema).migrateTo(name));
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run before any table type holds
function migrator(db: Kysely<any>, schema: string | undefined): Migrator {
  // Unordered: features are built on branches in parallel, so a migration numbered below one already
  // applied can arrive later; each migration touches only its own tables and columns.
  return new Migrator({
    db,
    provider: {
      getMigrations: async () =>
        Object.fromEntries(await Promise.all(Object.entries(migrations).map(async ([name, load]) => [name, await load()] as const))),
    },
    migrationTableSchema: schema,
    allowUnorderedMigrations: true,
  });
}

function applied({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
