/**
 * The runner's own rules: the slow lanes name files that exist (a renamed suite must not drift into
 * the fast lane unnoticed), and the split between workers is even, longest first.
 */
import assert from 'node:assert/strict';
import { existsSync, globSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SLOW_LANES, slowLaneOf } from './lanes.ts';
import { planWorkers } from './plan.ts';

const root = join(import.meta.dirname, '..', '..');

test('every entry of a slow lane is a test file or a folder of them that exists', () => {
  for (const [lane, entries] of Object.entries(SLOW_LANES)) {
    for (const entry of entries) {
      if (entry.endsWith('/')) {
        assert.ok(globSync(`${entry}**/*.test.ts`, { cwd: root }).length > 0, `${lane}: ${entry} holds no test file`);
      } else {
        assert.ok(entry.endsWith('.test.ts') && existsSync(join(root, entry)), `${lane}: ${entry} is not a test file`);
      }
    }
  }
});

test('a file belongs to the lane that names it or its folder, and to the fast lane otherwise', () => {
  assert.equal(slowLaneOf('test/browser/watch-page.test.ts'), 'browser');
  assert.equal(slowLaneOf('test/fuzz/rest.test.ts'), 'fuzz');
  assert.equal(slowLaneOf('src/workers/video-renditions.test.ts'), 'ffmpeg');
  assert.equal(slowLaneOf('src/workers/video-renditions-extra.test.ts'), undefined);
  assert.equal(slowLaneOf('test/processing.test.ts'), undefined);
  assert.equal(slowLaneOf('src/domains/tags/operations/tags.test.ts'), undefined);
});

test('files go longest first to the least loaded worker, every file exactly once', () => {
  const durations: Record<string, number> = { a: 50, b: 40, c: 30, d: 20, e: 10, f: 10 };
  const plans = planWorkers(Object.keys(durations), 2, (file) => durations[file] ?? 0);
  assert.deepEqual(plans, [
    ['a', 'd', 'e'],
    ['b', 'c', 'f'],
  ]);
  assert.deepEqual(planWorkers(['a', 'b'], 5, () => 1).length, 2, 'never more workers than files');
  assert.deepEqual(
    planWorkers([], 3, () => 1),
    [[]],
  );
});
