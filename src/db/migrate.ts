/**
 * Runs the migrations in ./migrations: a static, ordered list (no directory scanning), applied at
 * start-up and by `cuepoint migrate`. Kysely's migrator takes a lock, so several processes starting at
 * once on one PostgreSQL apply each migration exactly once.
 */
import type { Kysely } from 'kysely';
import { type Migration, type MigrationResultSet, Migrator } from 'kysely/migration';
import * as coreTables from './migrations/0001-workspaces-credentials-videos.ts';
import * as serviceSettings from './migrations/0002-service-settings.ts';
import * as jobs from './migrations/0003-jobs.ts';
import * as videoUploads from './migrations/0004-video-uploads.ts';
import * as postersTranscripts from './migrations/0005-posters-transcripts.ts';
import * as webhooks from './migrations/0006-webhooks.ts';
import * as viewing from './migrations/0007-viewing.ts';
import * as eventsByType from './migrations/0008-events-by-type.ts';
import * as credentialLastUsed from './migrations/0009-credential-last-used.ts';
import * as folderOperations from './migrations/0010-folder-operations.ts';
import * as leadsAndOutcomes from './migrations/0011-leads-and-outcomes.ts';
import * as outcomesWriteScope from './migrations/0013-outcomes-write-scope.ts';
import * as outcomesByLastTouch from './migrations/0015-outcomes-by-last-touch.ts';
import * as routes from './migrations/0016-routes.ts';
import * as routeCounters from './migrations/0017-route-counters.ts';
import * as scheduling from './migrations/0018-scheduling.ts';
import * as bookingSequence from './migrations/0019-booking-sequence.ts';
import * as videoBooking from './migrations/0020-video-booking.ts';
import * as jobsByWorkspace from './migrations/0021-jobs-by-workspace.ts';
import * as channel from './migrations/0022-channel.ts';
import * as transcriptSearch from './migrations/0023-transcript-search.ts';
import * as searchIndexes from './migrations/0024-search-indexes.ts';
import * as transcriptConfigsByWorkspace from './migrations/0025-transcript-configs-by-workspace.ts';
import * as viewingFold from './migrations/0026-viewing-fold.ts';
import * as workspaceDayLeadsRevenue from './migrations/0027-workspace-day-leads-revenue.ts';
import * as videoRenditions from './migrations/0028-video-renditions.ts';
import * as people from './migrations/0029-people.ts';
import * as emailOutbox from './migrations/0030-email-outbox.ts';
import * as auditEvents from './migrations/0031-audit-events.ts';
import * as erasure from './migrations/0032-erasure.ts';

const migrations: Record<string, Migration> = {
  '0001-workspaces-credentials-videos': coreTables,
  '0002-service-settings': serviceSettings,
  '0003-jobs': jobs,
  '0004-video-uploads': videoUploads,
  '0005-posters-transcripts': postersTranscripts,
  '0006-webhooks': webhooks,
  '0007-viewing': viewing,
  '0008-events-by-type': eventsByType,
  '0009-credential-last-used': credentialLastUsed,
  '0010-folder-operations': folderOperations,
  '0011-leads-and-outcomes': leadsAndOutcomes,
  '0013-outcomes-write-scope': outcomesWriteScope,
  '0015-outcomes-by-last-touch': outcomesByLastTouch,
  '0016-routes': routes,
  '0017-route-counters': routeCounters,
  '0018-scheduling': scheduling,
  '0019-booking-sequence': bookingSequence,
  '0020-video-booking': videoBooking,
  '0021-jobs-by-workspace': jobsByWorkspace,
  '0022-channel': channel,
  '0023-transcript-search': transcriptSearch,
  '0024-search-indexes': searchIndexes,
  '0025-transcript-configs-by-workspace': transcriptConfigsByWorkspace,
  '0026-viewing-fold': viewingFold,
  '0027-workspace-day-leads-revenue': workspaceDayLeadsRevenue,
  '0028-video-renditions': videoRenditions,
  '0029-people': people,
  '0030-email-outbox': emailOutbox,
  '0031-audit-events': auditEvents,
  '0032-erasure': erasure,
};

/**
 * `schema` pins Kysely's own bookkeeping tables to the schema in use: the migrator looks for them
 * across every schema, so without it a database holding several Cuepoint schemas (tests) confuses it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before any table type holds
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<string[]> {
  return applied(await migrator(db, schema).migrateToLatest());
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
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
    allowUnorderedMigrations: true,
  });
}

function applied({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
