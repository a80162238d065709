import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keptAnswers } from './kept-answers.ts';

test('an answer is made once per key, undefined included; a throw is not kept; past the bound it starts over', () => {
  const kept = keptAnswers<string | undefined>(3);
  let made = 0;
  const make = (answer: string | undefined) => () => {
    made++;
    return answer;
  };
  assert.equal(kept('a', make('A')), 'A');
  assert.equal(kept('a', make('other')), 'A');
  assert.equal(kept('none', make(undefined)), undefined);
  assert.equal(kept('none', make('other')), undefined);
  assert.equal(made, 2);
  assert.throws(
    () =>
      kept('bad', () => {
        throw new RangeError('no');
      }),
    RangeError,
  );
  assert.equal(kept('bad', make('B')), 'B', 'a throw kept nothing');
  assert.equal(kept('d', make('D')), 'D', 'the fourth key starts over');
  assert.equal(kept('a', make('A again')), 'A again');
});
