/**
 * The autovacuum the embedded database does not have. PGlite runs PostgreSQL as one single-user
 * backend, with no postmaster to start autovacuum: it counts each table's changes
 * (`pg_stat_user_tables`) but never acts on them. Tables were never analyzed, so the planner guessed
 * one row for every table and chose nested loops over hundreds of rows (the dashboard's home read 867
 * video-days against 15 videos by rescanning the videos 867 times: 14.6 ms, 3.8 ms once analyzed);
 * dead rows of updated tables were never reclaimed, and transaction ids were never frozen.
 *
 * `upkeep` does what autovacuum would, with PostgreSQL's own default thresholds, one table at a time
 * so that requests queued on the one connection get their turn between tables:
 * - ANALYZE a table once `n_mod_since_analyze` passes 50 + 10% of its rows;
 * - VACUUM it once its dead rows pass 50 + 20% of its rows, or its oldest unfrozen transaction id is
 *   older than `autovacuum_freeze_max_age` (so the database never nears wraparound).
 * The counters live in memory and start at zero when the database is opened, so the first call
 * analyzes every table: nothing says what changed while it was closed.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from './tables/index.ts';

const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE_FACTOR = 0.2;

export interface UpkeepReport {
  analyzed: string[];
  vacuumed: string[];
}

interface TableState {
  schema: string;
  table: string;
  live: number;
  dead: number;
  modified: number;
  xid_age: number;
  freeze_max_age: number;
}

export function embeddedUpkeep(db: Kysely<Database>): () => Promise<UpkeepReport> {
  let firstRun = true;
  return async () => {
    // Counts reach the statistics views at most once a second; this makes the last changes count now.
    await sql`select pg_stat_force_next_flush()`.execute(db);
    const { rows } = await sql<TableState>`
      select s.schemaname as schema, s.relname as "table", s.n_live_tup::float8 as live, s.n_dead_tup::float8 as dead,
        s.n_mod_since_analyze::float8 as modified, age(c.relfrozenxid)::float8 as xid_age,
        current_setting('autovacuum_freeze_max_age')::float8 as freeze_max_age
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = current_schema()
      order by s.relname`.execute(db);
    const report: UpkeepReport = { analyzed: [], vacuumed: [] };
    for (const state of rows) {
      const vacuum = state.dead > VACUUM_THRESHOLD + VACUUM_SCALE_FACTOR * state.live || state.xid_age > state.freeze_max_age;
      const analyze = firstRun || state.modified > ANALYZE_THRESHOLD + ANALYZE_SCALE_FACTOR * state.live;
      if (!vacuum && !analyze) continue;
      const command = vacuum ? (analyze ? 'vacuum (analyze)' : 'vacuum') : 'analyze';
      await sql`${sql.raw(command)} ${sql.id(state.schema, state.table)}`.execute(db);
      if (vacuum) report.vacuumed.push(state.table);
      if (analyze) report.analyzed.push(state.table);
    }
    firstRun = false;
    return report;
  };
}
