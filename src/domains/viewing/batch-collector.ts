/**
 * What POST /collect hands a batch to: batches from concurrent requests are stored in groups
 * (core/values/group-commit.ts, batch-intake.queries.ts), so the commit every acknowledgement waits for is
 * shared. Up to GROUP batches per INSERT, one INSERT at a time: the next group gathers while the
 * last commits, so groups grow with the load. (Measured with `npm run bench -- collect`, 16 players:
 * one in flight did 3,900–4,660 requests/s, two 3,750–4,310, three 3,000–3,420; on the embedded
 * database 910 against 667 with three. More in flight only made smaller groups and more commits.)
 * When the database stalls and more than WAITING batches queue, new ones are answered 503 at once,
 * and the player keeps them and sends them again.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../../core/errors.ts';
import { retryAfter } from '../../core/pipeline/unavailable.ts';
import { createGroupCommit } from '../../core/values/group-commit.ts';
import type { Database } from '../../db/tables/index.ts';
import { type BatchReceipt, createBatchStore, type IncomingBatch } from './batch-intake.queries.ts';

const GROUP = 256;
const IN_FLIGHT = 1;
const WAITING = 20_000;

export interface BatchCollector {
  /** Resolves once the batch is durably stored (or was already); rejects with its AppError or the database's error. */
  record(batch: IncomingBatch): Promise<BatchReceipt>;
  /** Resolves once every batch handed over so far is answered. */
  drain(): Promise<void>;
}

export function createBatchCollector(db: Kysely<Database>): BatchCollector {
  const store = createBatchStore(db);
  const commit = createGroupCommit<IncomingBatch, BatchReceipt>({
    write: store,
    maxGroup: GROUP,
    maxInFlight: IN_FLIGHT,
    maxWaiting: WAITING,
    overloaded: () =>
      new AppError(
        'service_unavailable',
        'Too many viewing batches are waiting to be stored. Retry in a few seconds.',
        undefined,
        retryAfter(),
      ),
  });
  return { record: (batch) => commit.submit(batch), drain: () => commit.drain() };
}
