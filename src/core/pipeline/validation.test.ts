/**
 * The validation step before and around the schema validator: every string and field name is checked
 * for text the database cannot store (U+0000, lone UTF-16 surrogates), whatever its schema says, and
 * fields stored trimmed are trimmed before their rules judge them (issue 26).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { Nullable, ShownText, Tags, Trimmed } from '../schemas.ts';
import { inputProblems } from './validation.ts';

const Schema = Type.Object(
  {
    notes: Type.Optional(Type.String({ maxLength: 100 })),
    status: Type.Optional(Type.Union([Type.Literal('new'), Type.Literal('won')])),
    custom_fields: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 100 }))),
    cues: Type.Optional(Type.Array(Type.Object({ text: Type.String() }, { additionalProperties: false }), { maxItems: 10 })),
    dek: Type.Optional(Nullable(Trimmed(ShownText('A line.', 10)))),
    tags: Type.Optional(Tags('Tags.')),
    plain: Type.Optional(Type.String({ maxLength: 3 })),
  },
  { additionalProperties: false },
);

const fields = (input: unknown) => inputProblems(Schema, input, 'json').map((p) => p.field);

test('a lone surrogate anywhere is one problem of its field, named so an answer can show it', () => {
  const sent = {
    notes: 'a\uD800',
    status: '\uDC00',
    custom_fields: { ok: 'fine 🎬', 'k\uD800': 'v', bad: 'x\uDBFF' },
    cues: [{ text: 'fine' }, { text: '\uDE00\uD83D' }],
  };
  const problems = inputProblems(Schema, sent, 'json');
  assert.deepEqual(problems.map((p) => p.field).sort(), [
    'cues[1].text',
    'custom_fields.bad',
    'custom_fields.k\\uD800',
    'notes',
    // The enum's own complaint is not added: the field is named once, for the text it cannot hold.
    'status',
  ]);
  const notes = problems.find((p) => p.field === 'notes');
  assert.match(notes?.problem ?? '', /^holds invalid characters: a lone UTF-16 surrogate \(\\uD800, character 2 of the text\)/);
  assert.match(problems.find((p) => p.field === 'custom_fields.k\\uD800')?.problem ?? '', /^is a field name with invalid characters/);
  assert.ok(
    problems.every((p) => p.field.isWellFormed() && p.problem.isWellFormed()),
    'the answer never carries the text it refuses',
  );
});

test('pairs are text: emoji, and a high surrogate followed by its low one, are accepted', () => {
  assert.deepEqual(fields({ notes: '🎬 \uD83D\uDE00 done', custom_fields: { '🎬': '🎉' } }), []);
  assert.deepEqual(fields({ notes: '\uD83D' }), ['notes'], 'a high surrogate at the end');
  assert.deepEqual(fields({ notes: '\uDE00\uD83D' }), ['notes'], 'a pair in the wrong order');
});

test('an unknown field whose name is not well-formed is named once, readably', () => {
  const problems = inputProblems(Schema, { '\uD800x': 1 }, 'json');
  assert.deepEqual(
    problems.map((p) => p.field),
    ['\\uD800x'],
  );
});

test('U+0000 is still refused in values and names', () => {
  assert.deepEqual(fields({ notes: 'a\u0000b', custom_fields: { 'a\u0000': 'x' } }).sort(), ['custom_fields.a\u0000', 'notes']);
});

test('fields stored trimmed are trimmed first, then judged; others are judged as sent', () => {
  const input: Record<string, unknown> = { dek: '\n  Spaced dek \t', tags: [' a ', '\nb'], plain: ' ab ' };
  const problems = inputProblems(Schema, input, 'json');
  assert.deepEqual(
    problems.map((p) => p.field),
    ['plain'],
    'a line break around a trimmed field is not refused, nor its spaces counted against the limit',
  );
  assert.deepEqual(input, { dek: 'Spaced dek', tags: ['a', 'b'], plain: ' ab ' }, 'trimmed in place, for the handler');
  const atLimit = { dek: ` ${'d'.repeat(10)}  ` };
  assert.deepEqual(fields(atLimit), []);
  assert.deepEqual(atLimit, { dek: 'd'.repeat(10) });
});

test('text of spaces only is left as sent, so it is refused as blank; inner line breaks are still refused; null stays null', () => {
  const blank = { dek: '   ' };
  assert.deepEqual(fields(blank), ['dek']);
  assert.deepEqual(blank, { dek: '   ' });
  assert.deepEqual(fields({ dek: ' Line\nbreak ' }), ['dek']);
  assert.deepEqual(fields({ dek: null }), []);
});
