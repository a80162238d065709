/**
 * transactionRetryingConflicts: a transaction PostgreSQL rolled back for a deadlock or a serialization
 * failure runs again, its first attempt's writes undone; any other error ends it at once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openTestDatabase } from '../../test/helpers/database.ts';
import { isConflictRollback, transactionRetryingConflicts } from './conflict-retry.ts';

const conflict = (code: string) => Object.assign(new Error(`conflict ${code}`), { code });

test('a deadlock or serialization failure runs the transaction again, without the failed attempt’s writes', async (t) => {
  const database = await openTestDatabase();
  t.after(() => database.close());
  await sql`create temporary table attempts (n int)`.execute(database.db);
  let calls = 0;
  const result = await transactionRetryingConflicts(database.db, async (trx) => {
    calls++;
    await sql`insert into attempts values (${calls})`.execute(trx);
    if (calls === 1) throw conflict('40P01');
    if (calls === 2) throw conflict('40001');
    return 'done';
  });
  assert.deepEqual([result, calls], ['done', 3]);
  const { rows } = await sql<{ n: number }>`select n from attempts`.execute(database.db);
  assert.deepEqual(rows, [{ n: 3 }], 'only the attempt that committed left its row');
});

test('other errors are not retried, and conflicts give up after five attempts', async (t) => {
  const database = await openTestDatabase();
  t.after(() => database.close());
  let calls = 0;
  await assert.rejects(
    transactionRetryingConflicts(database.db, async () => {
      calls++;
      throw conflict('23505');
    }),
    /conflict 23505/,
  );
  assert.equal(calls, 1);
  calls = 0;
  await assert.rejects(
    transactionRetryingConflicts(database.db, async () => {
      calls++;
      throw conflict('40P01');
    }),
    /conflict 40P01/,
  );
  assert.equal(calls, 5);
  assert.deepEqual(
    [isConflictRollback(conflict('40P01')), isConflictRollback(new Error('x')), isConflictRollback(undefined)],
    [true, false, false],
  );
});
