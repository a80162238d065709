/** The building blocks of the viewing definitions: viewer sketches and watched ranges. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addViewer, countViewers, emptySketch, mergeSketches } from './viewer-sketch.ts';
import { mergeRanges, type Range, sliceAt, slicePlays, totalLength } from './watched-ranges.ts';

test('viewer sketches count exactly up to 512 viewers, merge as unions, and estimate within 5% beyond', () => {
  let monday = emptySketch();
  for (const viewer of ['ann', 'bob', 'ann', 'cy']) monday = addViewer(monday, viewer);
  let tuesday = emptySketch();
  for (const viewer of ['bob', 'dee']) tuesday = addViewer(tuesday, viewer);
  assert.deepEqual([countViewers(monday), countViewers(tuesday)], [3, 2]);
  assert.equal(countViewers(mergeSketches([monday, tuesday, null])), 4, 'bob is one viewer across days');
  assert.equal(countViewers(null), 0);
  assert.ok(monday.length <= 1 + 4 * 3);

  let exact = emptySketch();
  for (let i = 0; i < 512; i++) exact = addViewer(exact, `viewer-${i}`);
  assert.equal(countViewers(exact), 512);

  for (const size of [600, 5_000, 100_000]) {
    let large = emptySketch();
    for (let i = 0; i < size; i++) large = addViewer(large, `v${size}-${i}`);
    assert.ok(large.length <= 2049, 'a sketch stays at most 2 KB');
    const error = Math.abs(countViewers(large) - size) / size;
    assert.ok(error < 0.05, `${size} viewers estimated as ${countViewers(large)}`);
  }
  // Merging many exact sketches that together exceed the exact limit switches to the estimate.
  const days = Array.from({ length: 30 }, (_, day) => {
    let sketch = emptySketch();
    for (let i = 0; i < 100; i++) sketch = addViewer(sketch, `d${day}-${i}`);
    return sketch;
  });
  const month = countViewers(mergeSketches(days));
  assert.ok(Math.abs(month - 3000) / 3000 < 0.05, `3000 viewers estimated as ${month}`);
  assert.throws(() => countViewers(Uint8Array.of(9, 9)), /Not a viewer sketch/);
});

test('watched ranges merge overlaps and touching ranges; length counts distinct seconds', () => {
  const ranges: Range[] = [
    [10, 20],
    [0, 5],
    [15, 25],
    [5, 6],
    [30, 30],
  ];
  assert.deepEqual(mergeRanges(ranges), [
    [0, 6],
    [10, 25],
  ]);
  assert.equal(totalLength(mergeRanges(ranges)), 21);
  assert.equal(totalLength(ranges), 26, 'as played, overlaps count twice');
});

test('a range covers the slices whose midpoints it contains', () => {
  // 100 s video: slice i spans [i, i+1) with midpoint i + 0.5.
  const plays = slicePlays(
    [
      [0, 10],
      [5, 5.4],
      [5.2, 6],
      [99.5, 100],
    ],
    100,
  );
  assert.deepEqual(plays.slice(0, 11), [1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 0], "[5, 5.4] misses slice 5's midpoint; [5.2, 6] covers it");
  assert.equal(plays[99], 1);
  assert.equal(
    plays.reduce((a, b) => a + b, 0),
    12,
  );
  // 3 s video: slices of 0.03 s.
  assert.equal(
    slicePlays([[0, 3]], 3).every((count) => count === 1),
    true,
  );
  assert.deepEqual([sliceAt(0, 60), sliceAt(30, 60), sliceAt(60, 60), sliceAt(-1, 60)], [0, 50, 99, 0]);
});

test('merging mixed sketches gives the same answer in any order', () => {
  const sketchOf = (prefix: string, count: number) => {
    let sketch = emptySketch();
    for (let i = 0; i < count; i++) sketch = addViewer(sketch, `${prefix}-${i}`);
    return sketch;
  };
  const big = sketchOf('big', 2000); // already a HyperLogLog
  const small = [sketchOf('a', 300), sketchOf('b', 300), sketchOf('big', 100)]; // the last overlaps big
  const forwards = mergeSketches([...small, big]);
  const backwards = mergeSketches([big, ...small.reverse()]);
  assert.deepEqual(forwards, backwards);
  const estimate = countViewers(forwards);
  assert.ok(Math.abs(estimate - 2600) / 2600 < 0.05, `2600 viewers estimated as ${estimate}`);
  assert.equal(countViewers(mergeSketches([sketchOf('a', 300), sketchOf('a', 200)])), 300, 'small unions stay exact');
});
