/**
 * Group commit: many callers' items written by one `write` call, each caller answered only when the
 * write that holds its item has finished. A commit costs about the same for one row as for a hundred
 * (the round trips, the WAL flush), so under load the cost of each item falls with the group's size,
 * while a lone item is written at once: a group starts as soon as a writer is free, never on a timer.
 *
 * Items wait while `maxInFlight` writes run; a free writer takes up to `maxGroup` of them. When more
 * than `maxWaiting` wait (the database has stalled), new items are refused with `overloaded()` at
 * once instead of queueing without bound. `write` answers each item in order, with its result or an
 * error of its own; if it throws, every item of its group gets that error. `drain` waits until
 * everything submitted so far is answered (a graceful stop).
 */

export type ItemOutcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface GroupCommitOptions<I, R> {
  write(items: I[]): Promise<ItemOutcome<R>[]>;
  maxGroup: number;
  maxInFlight: number;
  maxWaiting: number;
  /** The error for an item refused because too many wait. */
  overloaded(): unknown;
}

export interface GroupCommit<I, R> {
  submit(item: I): Promise<R>;
  drain(): Promise<void>;
}

interface Waiting<I, R> {
  item: I;
  resolve(value: R): void;
  reject(error: unknown): void;
}

export function createGroupCommit<I, R>(options: GroupCommitOptions<I, R>): GroupCommit<I, R> {
  const waiting: Waiting<I, R>[] = [];
  let inFlight = 0;
  let idle: (() => void)[] = [];

  const settle = (group: Waiting<I, R>[], outcomes: ItemOutcome<R>[]) => {
    group.forEach((entry, i) => {
      const outcome = outcomes[i] ?? { ok: false, error: new Error('group commit: the write gave no answer for this item') };
      if (outcome.ok) entry.resolve(outcome.value);
      else entry.reject(outcome.error);
    });
  };

  const startWrites = () => {
    while (inFlight < options.maxInFlight && waiting.length > 0) {
      const group = waiting.splice(0, options.maxGroup);
      inFlight++;
      options
        .write(group.map((entry) => entry.item))
        .then(
          (outcomes) => settle(group, outcomes),
          (error: unknown) =>
            settle(
              group,
              group.map(() => ({ ok: false, error })),
            ),
        )
        .finally(() => {
          inFlight--;
          startWrites();
          if (inFlight === 0 && waiting.length === 0) {
            const resolved = idle;
            idle = [];
            for (const done of resolved) done();
          }
        });
    }
  };

  return {
    submit(item) {
      if (waiting.length >= options.maxWaiting) return Promise.reject(options.overloaded());
      return new Promise<R>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        startWrites();
      });
    },
    drain() {
      if (inFlight === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}
