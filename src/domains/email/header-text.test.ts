/** cleanHeaderText: one line, nothing that draws nothing or turns text around, bounded with an ellipsis. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanHeaderText } from './header-text.ts';

test('line breaks, controls, separators and direction overrides become single spaces', () => {
  assert.equal(cleanHeaderText('Hi\r\nBcc: eve@evil.example', 100), 'Hi Bcc: eve@evil.example');
  assert.equal(cleanHeaderText('\tA\u0000B\u0085C\u2028D\u2029E\u202EF\u2066G\uFEFF ', 100), 'A B C D E F G');
  assert.equal(cleanHeaderText('  spaced   out  ', 100), 'spaced out');
  assert.equal(cleanHeaderText('lone \uD800 surrogate', 100), 'lone \uFFFD surrogate');
  assert.equal(cleanHeaderText('Ünïcödé — ok 🎬', 100), 'Ünïcödé — ok 🎬');
});

test('text past the bound is cut at a character, never inside one, and ends with an ellipsis', () => {
  assert.equal(cleanHeaderText('abcdef', 6), 'abcdef');
  assert.equal(cleanHeaderText('abcdefg', 6), 'abcde…');
  assert.equal(cleanHeaderText('abcd efg', 6), 'abcd…');
  const emoji = cleanHeaderText('🎬'.repeat(10), 5);
  assert.equal(emoji, `${'🎬'.repeat(4)}…`);
  assert.equal(emoji.toWellFormed(), emoji);
});
