/**
 * The query plans behind the search benchmark's figures: runs a domain query function (findMoments,
 * findVideoMatches, …) on a Kysely that records the SQL it sends, then runs each recorded statement
 * again under EXPLAIN (ANALYZE, BUFFERS) with the same parameters. So the plan printed is the plan of
 * the SQL the service runs, not of a copy of it that could drift.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/db/tables/index.ts';

export interface CapturedPlan {
  /** The plan as PostgreSQL prints it, one line per entry. */
  lines: string[];
  /** The lines worth reading first: scans and joins with the index they use, rows, time and buffers. */
  keyLines: string[];
  executionMs: number;
}

/** Lines naming a scan, a join, a sort or a limit, or the total: what shows whether an index did the work. */
const KEY_LINE = /(Scan|Join|Nested Loop|Sort|Limit|Index Cond|Execution Time|Planning Time|Heap Blocks|Rows Removed)/;

export async function explainQueries(url: string, run: (db: Kysely<Database>) => Promise<unknown>): Promise<CapturedPlan[]> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => {});
  const captured: { sql: string; parameters: readonly unknown[] }[] = [];
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') captured.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  try {
    await run(db);
    const plans: CapturedPlan[] = [];
    for (const query of captured) {
      const result = await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${query.sql}`, [...query.parameters]);
      const lines = result.rows.map((row) => row['QUERY PLAN']);
      const total = lines.find((line) => line.startsWith('Execution Time'));
      plans.push({
        lines,
        keyLines: lines.filter((line) => KEY_LINE.test(line)),
        executionMs: Number(total?.match(/([\d.]+) ms/)?.[1] ?? Number.NaN),
      });
    }
    return plans;
  } finally {
    await db.destroy();
  }
}
