/**
 * Consecutive periods given by where they begin (local days in the workspace time zone, as
 * instants), and the SQL that sorts an instant into them: `width_bucket`, so a read groups its rows
 * per period in one range scan, with no time-zone arithmetic in SQL whatever zone the workspace keeps.
 */
import { sql } from 'kysely';

/**
 * The boundaries of consecutive periods: [start of the first, start of the second, …, end of the
 * last]. Bucket n (from 1) is the period between boundaries n − 1 and n.
 */
export type Boundaries = readonly Date[];

/** Which period an instant falls in: 1 for the first, 0 before it, boundaries.length − 1 after the last. */
export const bucketOf = (column: string, boundaries: Boundaries) =>
  sql<number>`width_bucket(${sql.ref(column)}, ${sql.val(boundaries.map((at) => at.toISOString()))}::timestamptz[])`;
