/**
 * Column types every table file shares. Timestamps are `timestamptz(3)` (millisecond precision, like
 * a JS Date) so that a value read back and written into a cursor compares equal to the stored one.
 */
import type { ColumnType } from 'kysely';

export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type Json = ColumnType<unknown, string, string>;
/** bigint columns are parsed as JS numbers (see client.ts): every count and size here stays below 2^53. */
export type Count = ColumnType<number, number | undefined, number>;
/** A calendar day as 'YYYY-MM-DD' (a `date` column read as text). */
export type Day = ColumnType<string, string, string>;
