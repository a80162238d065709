/**
 * The candidates of a window that are not offered, grouped into runs so that a 31-day window of
 * 5-minute slots (8,928 candidates) stays a readable answer: a run is consecutive candidates (no
 * offered slot between them) on one local day of the event type that share their reason codes, the
 * bookings and the calendars in the way. Each candidate of a run therefore has exactly the run's
 * reasons; the sentences are the run's first candidate's (`start` asks about another one exactly).
 */

/** What grouping reads of a verdict: the engine's, or one an operation added reasons to. */
export interface RunnableVerdict {
  offered: boolean;
  /** The event type's local date: a run never crosses its midnight. */
  localDate: string;
  reasons: readonly { code: string; bookingIds?: string[]; feeds?: string[] }[];
}

export interface NotOfferedRun<V> {
  first: V;
  last: V;
  count: number;
  /** Every verdict of the run, earliest first (a fall-back night's repeated hour shows both of its starts). */
  members: V[];
}

function runKey(verdict: RunnableVerdict): string {
  const parts = verdict.reasons.map((reason) =>
    [reason.code, ...(reason.bookingIds ?? []), ...(reason.feeds ?? []).map((feed) => `feed:${feed}`)].join(','),
  );
  return `${verdict.localDate}|${parts.join('|')}`;
}

/** Runs of not-offered verdicts, earliest first; `verdicts` are earliest first. */
export function notOfferedRuns<V extends RunnableVerdict>(verdicts: readonly V[]): NotOfferedRun<V>[] {
  const runs: (NotOfferedRun<V> & { key: string })[] = [];
  let current: (NotOfferedRun<V> & { key: string }) | undefined;
  for (const verdict of verdicts) {
    if (verdict.offered) {
      current = undefined;
      continue;
    }
    const key = runKey(verdict);
    if (current && current.key === key) {
      current.last = verdict;
      current.count += 1;
      current.members.push(verdict);
      continue;
    }
    current = { first: verdict, last: verdict, count: 1, members: [verdict], key };
    runs.push(current);
  }
  return runs.map(({ first, last, count, members }) => ({ first, last, count, members }));
}
