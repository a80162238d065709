/**
 * Migrations are frozen (issue 25): a migration means today what it meant when it was written, so it
 * never imports application code that may change after it.
 *
 * - Every migration (each file of this folder but its tests) imports only `kysely` (and its
 *   subpaths) and Node's built-ins (`node:…`); migrate.ts only those and the migrations it lists. No
 *   relative import at all, not even a type from src/db/tables: a type changes no behaviour, but it
 *   ties an old migration's compilation to today's tables, and `Kysely<unknown>` is all a migration
 *   needs. Static imports, `export … from`, `import x = require()`, `import('…')` types and calls
 *   (whose argument must be a plain string to be checked) and `require()` are all read.
 * - 0026 and 0027 carry their own SQL where they once called the rebuild of workspace days
 *   (domains/viewing/workspace-day-rebuild.ts). On a database migrated to 0025 and given rows of every
 *   kind those migrations read, they produce exactly the rows the rebuild produces on the same data.
 *   The rebuild is the application's and may change meaning later, as the migrations no longer
 *   will: should this comparison then fail, compare with the rebuild as of commit e4ab10f instead.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import ts from 'typescript';
import { testDatabaseUrl, withSchemaLock } from '../../../test/helpers/database.ts';
import { addViewer, emptySketch, mergeSketches } from '../../domains/viewing/viewer-sketch.ts';
import { rebuildWorkspaceDays, rebuildWorkspaceLedgerDays } from '../../domains/viewing/workspace-day-rebuild.ts';
import { loadableTarball, openDatabase } from '../client.ts';
import { migrateTo, migrateToLatest } from '../migrate.ts';
import { PGliteDialect } from '../pglite-dialect.ts';
import { pgliteOptions } from '../pglite-start-params.ts';
import { emptyCluster } from '../pglite-template.ts';

const MIGRATIONS_DIR = import.meta.dirname;
const MIGRATE_TS = join(import.meta.dirname, '..', 'migrate.ts');

/** What a migration may import: Kysely and Node's built-ins, nothing of the application. */
const allowedInMigration = (specifier: string) =>
  specifier === 'kysely' || specifier.startsWith('kysely/') || specifier.startsWith('node:');
/** migrate.ts may also import the migrations, by name. */
const allowedInMigrate = (specifier: string) => allowedInMigration(specifier) || /^\.\/migrations\/\d{4}-[a-z0-9-]+\.ts$/.test(specifier);

/** Every module a file names: imports, re-exports, import-equals, import types, import() and require(). */
function importsOf(path: string, text = readFileSync(path, 'utf8')): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const named = (node: ts.Node | undefined, what: string) => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
    else found.push(`<${what} that is not a plain string: ${node?.getText(source) ?? 'nothing'}>`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) named(node.moduleSpecifier, 'an import');
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) named(node.moduleSpecifier, 'an export from');
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      named(node.moduleReference.expression, 'an import-equals');
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) named(node.argument.literal, 'an import type');
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) named(node.arguments[0], 'an import()');
    else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require')
      named(node.arguments[0], 'a require()');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const migrationFiles = () =>
  readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .sort();

test('no migration imports application code: only kysely and node: built-ins', () => {
  const files = migrationFiles();
  assert.ok(files.length >= 26, `the migrations are found (${files.length})`);
  const offending: string[] = [];
  for (const name of files) {
    for (const specifier of importsOf(join(MIGRATIONS_DIR, name)))
      if (!allowedInMigration(specifier)) offending.push(`${name}: ${specifier}`);
  }
  for (const specifier of importsOf(MIGRATE_TS)) if (!allowedInMigrate(specifier)) offending.push(`migrate.ts: ${specifier}`);
  assert.deepEqual(offending, [], 'a migration carries its own SQL instead (see src/db/migrations/0026-viewing-fold.ts)');
});

test('the import check sees every way of naming a module', () => {
  const text = [
    "import { sql } from 'kysely';",
    "import type { Database } from '../tables/index.ts';",
    "export { localDay } from '../../core/calendar/time-zone.ts';",
    "import fs = require('node:fs');",
    "type Sketch = typeof import('../../domains/viewing/viewer-sketch.ts');",
    "const later = await import('../../domains/viewing/workspace-day-rebuild.ts');",
    'const dynamic = await import(somewhere);',
    "const old = require('../../config.ts');",
  ].join('\n');
  const found = importsOf(join(MIGRATIONS_DIR, '9999-probe.ts'), text);
  assert.deepEqual(found.filter((specifier) => !allowedInMigration(specifier)).length, 6, found.join('\n'));
  assert.ok(found.includes('<an import() that is not a plain string: somewhere>'), found.join('\n'));
});

// --- 0026 and 0027: the same rows as the rebuild they replaced ---

// biome-ignore lint/suspicious/noExplicitAny: the schema changes under this test, from 0025 to the latest
type AnyDb = Kysely<any>;

interface OldDatabase {
  db: AnyDb;
  migrateToLatest(): Promise<string[]>;
}

/** A new database migrated to `name` only: a PGlite of its own, or a schema of its own on TEST_DATABASE_URL. */
async function databaseAt(name: string, cleanup: (fn: () => Promise<void>) => void): Promise<OldDatabase> {
  const url = testDatabaseUrl;
  if (!url) {
    // From a cached copy of a new cluster: initdb would cost a second or more on every run.
    const pglite = await PGlite.create({ ...pgliteOptions(), loadDataDir: loadableTarball(await emptyCluster()) });
    const db: AnyDb = new Kysely({ dialect: new PGliteDialect(pglite) });
    cleanup(() => db.destroy());
    await migrateTo(db, name);
    return { db, migrateToLatest: () => migrateToLatest(db) };
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  // As test/helpers/database.ts: Kysely's migrator reads every schema, so test schemas are made,
  // migrated and dropped one at a time.
  const handle = await withSchemaLock(async (admin) => {
    await admin.query(`create schema ${schema}`);
    const opened = await openDatabase({ kind: 'postgres', url, schema, poolSize: 4 });
    await migrateTo(opened.db, name, schema);
    return opened;
  });
  cleanup(async () => {
    await handle.close();
    await withSchemaLock((admin) => admin.query(`drop schema ${schema} cascade`));
  });
  return { db: handle.db, migrateToLatest: () => withSchemaLock(() => migrateToLatest(handle.db, schema)) };
}

const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
const sketchOf = (viewerIds: string[]) => viewerIds.reduce((sketch, id) => addViewer(sketch, id), emptySketch());

/** Rows of every kind 0026 and 0027 read, as a database at 0025 holds them. */
async function seed(db: AnyDb): Promise<void> {
  const workspace = async (name: string, timezone: string) => {
    const id = randomUUID();
    await sql`insert into workspaces (id, name, plan, timezone) values (${id}, ${name}, 'pro', ${timezone})`.execute(db);
    return id;
  };
  const video = async (workspaceId: string) => {
    const id = randomUUID();
    await sql`insert into videos (id, workspace_id, title, status) values (${id}, ${workspaceId}, 'v', 'ready')`.execute(db);
    return id;
  };
  const videoDay = async (
    workspaceId: string,
    videoId: string,
    day: string,
    row: {
      views: number;
      sketch: Uint8Array;
      watch?: number;
      engagement?: number;
      completions?: number;
      conversions?: number;
      leads?: number;
    },
  ) => {
    await sql`insert into video_daily_stats (video_id, day, workspace_id, views, unique_viewers, viewer_sketch, watch_time_seconds,
        engagement_sum, completions, conversions, leads)
      values (${videoId}, ${day}, ${workspaceId}, ${row.views}, 0, ${Buffer.from(row.sketch)}, ${row.watch ?? 0}, ${row.engagement ?? 0},
        ${row.completions ?? 0}, ${row.conversions ?? 0}, ${row.leads ?? 0})`.execute(db);
  };
  const lead = async (workspaceId: string, at: string) => {
    await sql`insert into leads (id, workspace_id, email, source, last_activity_at, created_at, updated_at)
      values (${randomUUID()}, ${workspaceId}, ${`${randomUUID()}@example.com`}, 'api', ${at}, ${at}, ${at})`.execute(db);
  };
  const outcome = async (workspaceId: string, kind: string, status: string, amount: number, currency: string, at: string) => {
    await sql`insert into outcomes (id, workspace_id, kind, status, amount, currency, source, occurred_at, created_at)
      values (${randomUUID()}, ${workspaceId}, ${kind}, ${status}, ${amount}, ${currency}, 'api', ${at}, ${at})`.execute(db);
  };

  // UTC: exact sketches that overlap, fractional sums, a day with no views, and sketches that are
  // empty, hold no hash, or carry stray bytes after their last whole hash.
  const utc = await workspace('Utc', 'UTC');
  const [a, b, c] = [await video(utc), await video(utc), await video(utc)];
  await videoDay(utc, a, '2026-03-01', {
    views: 3,
    sketch: sketchOf(ids('v', 3)),
    watch: 12.3,
    engagement: 0.7,
    completions: 1,
    conversions: 1,
    leads: 1,
  });
  await videoDay(utc, b, '2026-03-01', { views: 2, sketch: sketchOf(ids('v', 2)), watch: 45.67, engagement: 1.1, completions: 2 });
  await videoDay(utc, c, '2026-03-01', { views: 1, sketch: sketchOf(['w']), watch: 0.1, engagement: 0.2 });
  await videoDay(utc, a, '2026-03-02', { views: 0, sketch: emptySketch(), watch: 0.3 });
  await videoDay(utc, b, '2026-03-02', { views: 0, sketch: new Uint8Array(0) });
  await videoDay(utc, a, '2026-03-03', { views: 2, sketch: Uint8Array.of(...sketchOf(['x', 'y']), 7, 7, 7), watch: 1e-9, engagement: 3 });
  await videoDay(utc, b, '2026-03-03', { views: 0, sketch: sketchOf(['x']) });
  await lead(utc, '2026-03-01T23:59:59.999Z');
  await lead(utc, '2026-03-02T00:00:00.000Z');
  await lead(utc, '2026-03-09T12:00:00.000Z'); // a day without viewing: a row of its own
  await outcome(utc, 'purchase', 'succeeded', 1999, 'USD', '2026-03-01T10:00:00Z');
  await outcome(utc, 'purchase', 'succeeded', 5_000_000_000_000, 'USD', '2026-03-01T11:00:00Z');
  await outcome(utc, 'refund', 'succeeded', 500, 'USD', '2026-03-01T12:00:00Z');
  await outcome(utc, 'purchase', 'succeeded', 700, 'EUR', '2026-03-01T13:00:00Z');
  await outcome(utc, 'refund', 'succeeded', 300, 'EUR', '2026-03-05T13:00:00Z'); // a refund alone on its day
  await outcome(utc, 'purchase', 'succeeded', 100, 'usd', '2026-03-01T14:00:00Z'); // another code, as stored
  await outcome(utc, 'purchase', 'succeeded', 0, 'US', '2026-03-01T14:00:00Z'); // char(3) pads it
  await outcome(utc, 'purchase', 'pending', 111, 'USD', '2026-03-01T10:00:00Z');
  await outcome(utc, 'purchase', 'failed', 222, 'USD', '2026-03-01T10:00:00Z');
  await outcome(utc, 'refund', 'canceled', 333, 'USD', '2026-03-01T10:00:00Z');
  await outcome(utc, 'booked_call', 'succeeded', 444, 'USD', '2026-03-01T10:00:00Z');

  // Sketches past 512: exact ones whose union is larger, a HyperLogLog counted by linear counting, one
  // counted by the estimate, and more than 512 videos viewed in one day.
  const big = await workspace('Big', 'Europe/Paris');
  const bigVideos: string[] = [];
  for (let i = 0; i < 620; i++) bigVideos.push(await video(big)); // 531 of them viewed on 2026-04-04
  await videoDay(big, bigVideos[0] as string, '2026-04-01', { views: 300, sketch: sketchOf(ids('p', 300)), watch: 100.25 });
  await videoDay(big, bigVideos[1] as string, '2026-04-01', { views: 300, sketch: sketchOf(ids('p', 600).slice(250)), watch: 0.5 });
  const thousands = sketchOf(ids('q', 3000));
  const many = mergeSketches([thousands, sketchOf(ids('r', 30_000))]);
  await videoDay(big, bigVideos[0] as string, '2026-04-02', { views: 3000, sketch: thousands, watch: 3.3 });
  await videoDay(big, bigVideos[1] as string, '2026-04-02', { views: 10, sketch: sketchOf(ids('q', 10)), watch: 4.4 });
  await videoDay(big, bigVideos[0] as string, '2026-04-03', { views: 9, sketch: many });
  await videoDay(big, bigVideos[1] as string, '2026-04-03', { views: 9, sketch: sketchOf(ids('s', 100)) });
  // Either side of linear counting's limit (2.5 × 2,048), with registers still empty.
  await videoDay(big, bigVideos[0] as string, '2026-04-05', { views: 1, sketch: sketchOf(ids('u', 4500)) });
  await videoDay(big, bigVideos[0] as string, '2026-04-06', { views: 1, sketch: sketchOf(ids('u', 5600)) });
  for (const [i, id] of bigVideos.entries()) {
    await videoDay(big, id, '2026-04-04', { views: i % 7 === 0 ? 0 : 1, sketch: sketchOf([`t-${i % 50}`]), watch: i / 3 });
  }
  await lead(big, '2026-04-03T21:59:00Z'); // Paris is UTC+2 in April: 23:59 on the 3rd, a day with viewing
  await lead(big, '2026-04-03T22:00:00Z'); // 00:00 on the 4th
  await outcome(big, 'purchase', 'succeeded', 4200, 'EUR', '2026-04-03T22:30:00Z');

  // Zones, as the application stored them: days that start at odd offsets, a change to permanent
  // daylight time after PostgreSQL 15's tzdata 2025b (Vancouver), zones where ICU and tzdata disagree
  // (Chisinau, Casablanca), a lowercase name and names that are PostgreSQL time zone abbreviations.
  const zones: Array<[string, string[]]> = [
    ['America/Vancouver', ['2026-11-05T07:30:00Z', '2026-11-05T08:30:00Z', '2026-03-08T07:59:59.999Z', '2026-03-08T08:00:00Z']],
    ['Asia/Kolkata', ['2026-05-01T18:29:59.999Z', '2026-05-01T18:30:00Z']],
    ['Pacific/Chatham', ['2026-05-01T11:14:00Z', '2026-05-01T11:15:00Z', '2026-01-01T10:14:00Z', '2026-01-01T10:15:00Z']],
    ['Australia/Lord_Howe', ['2026-04-04T13:00:00Z', '2026-04-04T13:45:00Z']],
    ['Pacific/Kiritimati', ['2026-05-01T09:59:00Z', '2026-05-01T10:00:00Z']],
    ['Pacific/Pago_Pago', ['2026-05-01T10:59:00Z', '2026-05-01T11:00:00Z']],
    ['Europe/Chisinau', ['2022-03-26T22:30:00Z', '2022-03-27T00:30:00Z']],
    ['Africa/Casablanca', ['2026-10-10T23:30:00Z', '2026-02-17T23:30:00Z']],
    ['europe/paris', ['2026-07-01T22:30:00Z']],
    ['CET', ['2026-07-01T22:30:00Z']],
    ['EST', ['2026-07-01T04:30:00Z']],
  ];
  for (const [zone, instants] of zones) {
    const id = await workspace(zone, zone);
    for (const at of instants) {
      await lead(id, at);
      await outcome(id, 'purchase', 'succeeded', 1000, 'USD', at);
    }
  }
  const viewedHere = await workspace('Vancouver viewing', 'America/Vancouver');
  await videoDay(viewedHere, await video(viewedHere), '2026-11-05', { views: 1, sketch: sketchOf(['z']) });
  await lead(viewedHere, '2026-11-05T07:30:00Z');
  await workspace('Empty', 'Asia/Tokyo');
}

interface Snapshot {
  days: Record<string, unknown>[];
  revenue: Record<string, unknown>[];
}

async function snapshot(db: AnyDb): Promise<Snapshot> {
  const days = await sql<Record<string, unknown>>`
    select w.name as workspace, s.day::text as day, s.views, s.unique_viewers, encode(s.viewer_sketch, 'hex') as viewer_sketch,
      encode(s.video_sketch, 'hex') as video_sketch, s.watch_time_seconds, s.engagement_sum, s.completions, s.conversions, s.leads,
      s.new_leads
    from workspace_daily_stats s join workspaces w on w.id = s.workspace_id order by w.name, s.day`.execute(db);
  const revenue = await sql<Record<string, unknown>>`
    select w.name as workspace, r.day::text as day, r.currency, r.purchases, r.purchased::text as purchased, r.refunds,
      r.refunded::text as refunded
    from workspace_daily_revenue r join workspaces w on w.id = r.workspace_id order by w.name, r.day, r.currency`.execute(db);
  return { days: days.rows, revenue: revenue.rows };
}

/** What 0026 and 0027 made when they called the rebuild: the rebuild of every workspace, in their order. */
async function rebuiltByTheApplication(db: AnyDb): Promise<Snapshot> {
  await sql`delete from workspace_daily_revenue`.execute(db);
  await sql`delete from workspace_daily_stats`.execute(db);
  const viewed = await sql<{ id: string }>`select distinct workspace_id as id from video_daily_stats`.execute(db);
  for (const { id } of viewed.rows) await rebuildWorkspaceDays(db, id);
  const all = await sql<{ id: string }>`select id from workspaces`.execute(db);
  for (const { id } of all.rows) await rebuildWorkspaceLedgerDays(db, id);
  return snapshot(db);
}

/**
 * Float sums are compared to 1e-12 of their size: both add the same values, in whatever order the
 * database hands them over (the rebuild's query had no order either); everything else exactly.
 */
function assertSameRows(actual: Snapshot, expected: Snapshot): void {
  assert.equal(actual.days.length, expected.days.length, 'as many workspace days');
  for (const [i, row] of actual.days.entries()) {
    const other = expected.days[i] as Record<string, unknown>;
    for (const column of ['watch_time_seconds', 'engagement_sum']) {
      const [x, y] = [Number(row[column]), Number(other[column])];
      assert.ok(Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(y)), `${row.workspace} ${row.day} ${column}: ${x} vs ${y}`);
    }
    const exact = (r: Record<string, unknown>) => ({ ...r, watch_time_seconds: 0, engagement_sum: 0 });
    assert.deepEqual(exact(row), exact(other), `${row.workspace} ${row.day}`);
  }
  assert.deepEqual(actual.revenue, expected.revenue);
}

test('0026 and 0027 fill the workspace days exactly as the rebuild they used to call', async (t) => {
  const cleanups: Array<() => Promise<void>> = [];
  t.after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  const old = await databaseAt('0025-transcript-configs-by-workspace', (fn) => cleanups.push(fn));
  await seed(old.db);

  // A stored sketch of neither kind failed the rebuild, and fails the migration: nothing is applied.
  const stray = await sql<{ video_id: string; workspace_id: string }>`select video_id, workspace_id from video_daily_stats limit 1`.execute(
    old.db,
  );
  const { video_id: videoId, workspace_id: workspaceId } = stray.rows[0] as { video_id: string; workspace_id: string };
  await sql`insert into video_daily_stats (video_id, day, workspace_id, viewer_sketch) values (${videoId}, '2020-01-01', ${workspaceId}, '\\x0300')`.execute(
    old.db,
  );
  await assert.rejects(old.migrateToLatest(), /Not a viewer sketch/);
  await sql`delete from video_daily_stats where day = '2020-01-01'`.execute(old.db);

  const applied = await old.migrateToLatest();
  assert.ok(applied.includes('0026-viewing-fold') && applied.includes('0027-workspace-day-leads-revenue'), applied.join(', '));
  const migrated = await snapshot(old.db);

  // The data reaches every branch: exact and HyperLogLog sketches (merged from exact ones, counted by
  // linear counting and by the estimate), a video sketch past 512, days only Intl puts there.
  const day = (workspace: string, date: string) => migrated.days.find((row) => row.workspace === workspace && row.day === date);
  assert.equal(day('Utc', '2026-03-01')?.unique_viewers, 4);
  assert.equal(day('Utc', '2026-03-03')?.viewer_sketch, sketchHex(['x', 'y']));
  const isLogLog = (sketch: unknown) => String(sketch).startsWith('02');
  assert.ok(isLogLog(day('Big', '2026-04-01')?.viewer_sketch), 'exact sketches merged past 512');
  assert.ok(Math.abs(Number(day('Big', '2026-04-01')?.unique_viewers) - 600) < 30);
  assert.ok(Math.abs(Number(day('Big', '2026-04-02')?.unique_viewers) - 3000) < 150);
  assert.ok(Math.abs(Number(day('Big', '2026-04-03')?.unique_viewers) - 33_100) < 2000);
  assert.ok(isLogLog(day('Big', '2026-04-04')?.video_sketch), 'more than 512 videos viewed');
  assert.ok(!isLogLog(day('Big', '2026-04-03')?.video_sketch));
  assert.equal(day('Big', '2026-04-04')?.new_leads, 1);
  assert.equal(day('America/Vancouver', '2026-11-05')?.new_leads, 2, 'Vancouver is UTC-7 all year from November 2026');
  assert.equal(day('Vancouver viewing', '2026-11-05')?.views, 1);
  assert.equal(day('Vancouver viewing', '2026-11-05')?.new_leads, 1);
  assert.equal(migrated.days.filter((row) => row.workspace === 'Empty').length, 0);

  assertSameRows(migrated, await rebuiltByTheApplication(old.db));
});

const sketchHex = (viewerIds: string[]) => Buffer.from(sketchOf(viewerIds)).toString('hex');

test("the database's logarithm rounds as Math.log does wherever 0026's linear counting uses it", async (t) => {
  // 0026 counts a HyperLogLog with few registers set as round(2048 · ln(2048 / zeros)), on the
  // database; the application used Math.log. The two may differ in a last bit, which matters only if
  // it crosses a half: checked for every number of empty registers there can be.
  const cleanups: Array<() => Promise<void>> = [];
  t.after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  const { db } = testDatabaseUrl
    ? { db: (await openDatabase({ kind: 'postgres', url: testDatabaseUrl, poolSize: 1 })).db }
    : { db: (await openDatabase({ kind: 'pglite-memory' })).db };
  cleanups.push(() => db.destroy());
  const { rows } = await sql<{ zeros: number; x: number }>`
    select zeros, case when x - floor(x) >= 0.5 then ceil(x) else floor(x) end as x
    from (select zeros, 2048 * ln(2048::float8 / zeros) as x from generate_series(1, 2048) as zeros) logs order by zeros`.execute(db);
  const differing = rows.filter((row) => Number(row.x) !== Math.round(2048 * Math.log(2048 / row.zeros)));
  assert.deepEqual(differing, []);
});
