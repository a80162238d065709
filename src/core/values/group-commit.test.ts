import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createGroupCommit, type ItemOutcome } from './group-commit.ts';

/** A write the test finishes by hand, recording the groups it was given. */
function manualWriter() {
  const groups: number[][] = [];
  const pending: (() => void)[] = [];
  const write = (items: number[]) =>
    new Promise<ItemOutcome<string>[]>((resolve, reject) => {
      groups.push(items);
      pending.push(() => {
        if (items.includes(-1)) reject(new Error('the database went away'));
        else resolve(items.map((item) => (item % 2 === 0 ? { ok: true, value: `stored ${item}` } : { ok: false, error: `odd ${item}` })));
      });
    });
  const finishNext = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { groups, write, finishNext };
}

test('a lone item is written at once; items arriving meanwhile wait and go together in the next group', async () => {
  const writer = manualWriter();
  const commit = createGroupCommit({ write: writer.write, maxGroup: 3, maxInFlight: 1, maxWaiting: 100, overloaded: () => 'full' });
  const first = commit.submit(2);
  assert.deepEqual(writer.groups, [[2]]);
  const later = [4, 6, 8, 10].map((item) => commit.submit(item));
  assert.deepEqual(writer.groups, [[2]], 'one write in flight at most');
  await writer.finishNext();
  assert.equal(await first, 'stored 2');
  assert.deepEqual(writer.groups, [[2], [4, 6, 8]], 'at most maxGroup in a group');
  await writer.finishNext();
  await writer.finishNext();
  assert.deepEqual(await Promise.all(later), ['stored 4', 'stored 6', 'stored 8', 'stored 10']);
  assert.deepEqual(writer.groups, [[2], [4, 6, 8], [10]]);
});

test('each item gets its own answer; a write that throws fails its whole group and nothing else', async () => {
  const writer = manualWriter();
  const commit = createGroupCommit({ write: writer.write, maxGroup: 2, maxInFlight: 2, maxWaiting: 100, overloaded: () => 'full' });
  const outcomes = [2, 3, -1, 4].map((item) =>
    commit.submit(item).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
  );
  assert.deepEqual(writer.groups, [[2], [3]], 'two writes in flight, each started as soon as it could');
  await writer.finishNext();
  assert.deepEqual(writer.groups, [[2], [3], [-1, 4]]);
  await writer.finishNext();
  await writer.finishNext();
  const answers = await Promise.all(outcomes);
  assert.deepEqual(answers.slice(0, 2), [{ value: 'stored 2' }, { error: 'odd 3' }]);
  assert.equal(answers.length, 4);
  for (const answer of answers.slice(2)) assert.match(String((answer as { error: Error }).error), /database went away/);
});

test('past maxWaiting new items are refused at once; drain waits for everything handed over', async () => {
  const writer = manualWriter();
  const commit = createGroupCommit({ write: writer.write, maxGroup: 10, maxInFlight: 1, maxWaiting: 2, overloaded: () => 'full' });
  const accepted = [commit.submit(2), commit.submit(4), commit.submit(6)];
  await assert.rejects(commit.submit(8), (error) => error === 'full');
  let drained = false;
  const draining = commit.drain().then(() => {
    drained = true;
  });
  await writer.finishNext();
  assert.equal(drained, false, 'the second group is still waiting');
  await writer.finishNext();
  await draining;
  assert.deepEqual(await Promise.all(accepted), ['stored 2', 'stored 4', 'stored 6']);
  await commit.drain();
});
