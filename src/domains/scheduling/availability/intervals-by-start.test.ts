/** The overlap search finds exactly what a scan finds, long spans that start far back included. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IntervalsByStart } from './intervals-by-start.ts';

test('overlapping() agrees with a full scan', () => {
  // Deterministic spread of spans: short ones, one very long one, touching and empty ones.
  const spans: [number, number][] = [
    [0, 1000],
    [5, 5],
    [10, 20],
    [20, 30],
  ];
  for (let i = 0; i < 200; i++) spans.push([(i * 37) % 500, ((i * 37) % 500) + ((i * 13) % 40)]);
  const index = new IntervalsByStart(spans, (span) => span);
  for (let from = -10; from < 1010; from += 7) {
    for (const length of [1, 10, 60]) {
      const to = from + length;
      const scanned = spans.filter(([a, b]) => a < to && from < b);
      const found = index.overlapping(from, to);
      assert.deepEqual(
        [...found].sort((x, y) => x[0] - y[0] || x[1] - y[1]),
        [...scanned].sort((x, y) => x[0] - y[0] || x[1] - y[1]),
        `${from}–${to}`,
      );
    }
  }
  assert.deepEqual(index.overlapping(1000, 2000), []);
  assert.deepEqual(new IntervalsByStart([], (span: [number, number]) => span).overlapping(0, 10), []);
});
