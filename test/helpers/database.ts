/**
 * A migrated database for tests: an in-memory PGlite copied from the migrated template (cached on
 * disk, see src/db/pglite-template.ts), or — when TEST_DATABASE_URL is set — a schema of its own on
 * that PostgreSQL, dropped afterwards. Test processes (the runner's workers) never share a database, so
 * they can run in parallel; within one, startTestApp shares one (see app.ts).
 *
 * A test that needs a database of its own closes it when it ends; the database is then emptied (one
 * TRUNCATE, the migrations' own rows put back) and kept for the process's next such test, instead of
 * being thrown away: making one costs a PGlite boot (0.2–0.3 s of CPU) or a schema migrated on
 * PostgreSQL, emptying it 40 ms. The kept ones are closed after the process's last test.
 */
import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
export const testRedisUrl = process.env.REDIS_URL || undefined;

/** Whether this process has migrated an in-memory database yet (see below). */
let templateChecked = false;

type TestDatabase = DatabaseHandle & { schema?: string };

/** Emptied databases waiting for the process's next test, and what emptying one takes. */
const emptied: TestDatabase[] = [];
let emptying: Promise<Emptying> | undefined;
/** Set once the process's tests are over: a database given back then is closed (on PostgreSQL, its schema dropped). */
let finished = false;
after(async () => {
  finished = true;
  for (const database of emptied.splice(0)) await database.close();
});

/** A database of the caller's own, fresh or emptied; `close()` gives it back to be emptied and reused. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const database = emptied.pop() ?? (await newTestDatabase());
  emptying ??= describeEmptying(database);
  const recipe = await emptying;
  let given = false;
  return {
    ...database,
    close: async () => {
      if (given) return;
      given = true;
      if (finished) return database.close();
      try {
        // A test that changed the schema (a trigger of its own, a migration taken down and up) leaves a
        // database no other test may inherit.
        if ((await schemaFingerprint(database)) !== recipe.fingerprint) throw new Error('schema changed');
        await empty(database, recipe);
      } catch {
        // Unusable (closed by the test, or left mid-transaction): thrown away, not reused.
        await database.close().catch(() => {});
        return;
      }
      emptied.push(database);
    },
  };
}

interface Emptying {
  /** Every table but the migrator's, and the sequences to start again. */
  tables: string[];
  sequences: string[];
  /** The rows migrations put in tables (viewing_fold's watermark), as JSON, to put back. */
  seeded: { table: string; rows: string }[];
  /** The migrated schema's shape (schemaFingerprint), which a database must still have to be reused. */
  fingerprint: string;
}

/**
 * A digest of everything a test could change in the schema: columns with their types and defaults,
 * indexes, constraints, triggers, functions, types, and the migrations recorded as run.
 */
async function schemaFingerprint(database: DatabaseHandle): Promise<string> {
  const { rows } = await sql<{ digest: string }>`
    select md5(coalesce(string_agg(item, '|' order by item), '')) as digest from (
      select 'c ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') as item
        from information_schema.columns where table_schema = current_schema()
      union all select 'i ' || indexdef from pg_indexes where schemaname = current_schema()
      union all select 'k ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
        from pg_constraint where connamespace = current_schema()::regnamespace
      union all select 't ' || tgrelid::regclass::text || ' ' || tgname || ' ' || tgenabled::text
        from pg_trigger where not tgisinternal and tgrelid in (select oid from pg_class where relnamespace = current_schema()::regnamespace)
      union all select 'f ' || oid::regprocedure::text from pg_proc where pronamespace = current_schema()::regnamespace
      union all select 'y ' || typname from pg_type where typnamespace = current_schema()::regnamespace and typtype in ('e', 'd', 'c')
      union all select 'm ' || name from kysely_migration
    ) as shape`.execute(database.db);
  return rows[0]?.digest ?? '';
}

/** Read from a database no test has used yet: its tables and the rows the migrations left in them. */
async function describeEmptying(fresh: DatabaseHandle): Promise<Emptying> {
  const { rows: tables } = await sql<{ name: string }>`
    select tablename as name from pg_tables
    where schemaname = current_schema() and tablename not like 'kysely_migration%' order by tablename`.execute(fresh.db);
  const { rows: sequences } = await sql<{ name: string }>`
    select sequence_name as name from information_schema.sequences where sequence_schema = current_schema()`.execute(fresh.db);
  const seeded: Emptying['seeded'] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ rows: string | null }>`select json_agg(t)::text as rows from ${sql.table(name)} t`.execute(fresh.db);
    const json = rows[0]?.rows;
    if (json) seeded.push({ table: name, rows: json });
  }
  return {
    tables: tables.map((table) => table.name),
    sequences: sequences.map((sequence) => sequence.name),
    seeded,
    fingerprint: await schemaFingerprint(fresh),
  };
}

async function empty(database: DatabaseHandle, recipe: Emptying): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    await sql.raw(`truncate ${recipe.tables.map((table) => `"${table}"`).join(', ')} restart identity cascade`).execute(trx);
    for (const sequence of recipe.sequences) await sql.raw(`alter sequence "${sequence}" restart`).execute(trx);
    for (const { table, rows } of recipe.seeded) {
      await sql`insert into ${sql.table(table)} select * from json_populate_recordset(null::${sql.table(table)}, ${rows}::json)`.execute(
        trx,
      );
    }
  });
}

async function newTestDatabase(): Promise<TestDatabase> {
  if (!testDatabaseUrl) {
    const database = await openDatabase({ kind: 'pglite-memory' });
    // Migrating is a no-op on the template, and proves it is current. Every in-memory database of a
    // process is a copy of the same template bytes (pglite-template.ts keeps them), so the first proves
    // it for the rest; each check costs Kysely's introspection of every table twice (50 ms or more).
    if (!templateChecked) {
      await migrateToLatest(database.db);
      templateChecked = true;
    }
    return database;
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  // Kysely's migrator introspects every schema in the database, and fails if another test file drops
  // its schema meanwhile; creating, migrating and dropping test schemas one at a time avoids that.
  const database = await withSchemaLock(async (admin) => {
    await admin.query(`create schema ${schema}`);
    const opened = await openDatabase({ kind: 'postgres', url: testDatabaseUrl, schema, poolSize: 20 });
    await migrateToLatest(opened.db, schema);
    return opened;
  });
  return {
    ...database,
    schema,
    close: async () => {
      await database.close();
      await withSchemaLock((admin) => admin.query(`drop schema ${schema} cascade`));
    },
  };
}

/**
 * Runs DDL that drops or renames what a migration made (a test taking a migration down and up) while
 * no other test process migrates: Kysely's migrator reads every column of every schema, and a column
 * dropped under that read fails it (`column … does not exist`, from pg_get_serial_sequence). On the
 * embedded database, which no other process shares, it simply runs.
 */
export async function alteringSchema<T>(work: () => Promise<T>): Promise<T> {
  return testDatabaseUrl ? withSchemaLock(() => work()) : work();
}

/** Creating, migrating and dropping test schemas, one process at a time (see newTestDatabase). */
export async function withSchemaLock<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(`select pg_advisory_lock(hashtext('cuepoint test schemas'))`);
    return await work(admin);
  } finally {
    await admin.end();
  }
}
