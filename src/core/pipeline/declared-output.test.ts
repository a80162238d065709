/**
 * declaredOutput keeps exactly what a schema declares, at every depth, without touching the value it
 * was given; the catalog-wide proof over both transports is test/output-contract.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { PersonalString } from '../pii.ts';
import { Nullable } from '../schemas.ts';
import { declaredOutput } from './declared-output.ts';

const Item = Type.Object({ id: Type.String(), tags: Type.Array(Type.String()) }, { additionalProperties: false });
const Output = Type.Object(
  {
    items: Type.Array(Item),
    owner: Nullable(Type.Object({ email: PersonalString('email') })),
    counts: Type.Record(Type.String(), Type.Integer()),
    nested: Type.Record(Type.String(), Type.Object({ n: Type.Integer() })),
    note: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

test('only declared fields survive, in objects, array items, nullable branches and record values', () => {
  const value = {
    items: [{ id: 'a', tags: ['x'], secret: 1 }],
    owner: { email: 'jane@example.com', password_hash: 'h' },
    counts: { videos: 3 },
    nested: { one: { n: 1, hidden: true } },
    note: null,
    internal: 'column',
  };
  const before = structuredClone(value);
  const out = declaredOutput(Output)(value);
  assert.deepEqual(out, {
    items: [{ id: 'a', tags: ['x'] }],
    owner: { email: 'jane@example.com' },
    counts: { videos: 3 },
    nested: { one: { n: 1 } },
    note: null,
  });
  assert.deepEqual(value, before, 'the handler’s object is left as it was');
  assert.deepEqual(declaredOutput(Output)({ ...value, owner: null }), { ...(out as object), owner: null });
});

test('a record key named __proto__ stays a field and changes no prototype', () => {
  const value = JSON.parse('{"items":[],"owner":null,"counts":{"__proto__":7},"nested":{},"note":"n"}');
  const out = declaredOutput(Output)(value) as { counts: Record<string, number> };
  assert.equal(Object.getPrototypeOf(out.counts), Object.prototype);
  assert.deepEqual(Object.keys(out.counts), ['__proto__']);
  assert.equal(JSON.stringify(out.counts), '{"__proto__":7}');
});

test('between two object branches, the one the value belongs to decides what is kept', () => {
  const Shape = Type.Object({
    shape: Type.Union([
      Type.Object({ kind: Type.Literal('circle'), radius: Type.Number() }),
      Type.Object({ kind: Type.Literal('square'), side: Type.Number() }),
    ]),
  });
  const project = declaredOutput(Shape);
  assert.deepEqual(project({ shape: { kind: 'square', side: 2, radius: 9, extra: 1 } }), { shape: { kind: 'square', side: 2 } });
  assert.deepEqual(project({ shape: { kind: 'circle', radius: 1, extra: 1 } }), { shape: { kind: 'circle', radius: 1 } });
});

test('a schema keyword that could declare more fields is refused when compiled, not silently ignored', () => {
  const Mixed = Type.Object({ both: Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]) });
  assert.throws(() => declaredOutput(Mixed), /allOf/);
});
