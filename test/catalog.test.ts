/**
 * The catalog's start-up invariants hold for the real catalog, catch each kind of mistake, and every
 * operation's documented example is a valid input (the docs and the catalog-wide suites rely on it).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { catalog, checkCatalog } from '../src/catalog.ts';
import type { AnyOperation } from '../src/core/operation.ts';
import { validateInput } from '../src/core/validation.ts';

test('the catalog is consistent and every example is a valid input', () => {
  checkCatalog(catalog);
  for (const op of catalog) {
    assert.doesNotThrow(() => validateInput(op.input, structuredClone(op.example), 'json'), op.name);
  }
});

test('checkCatalog names every violation', () => {
  const good = catalog.find((op) => op.name === 'get_video') as AnyOperation;
  const broken: AnyOperation = {
    ...good,
    name: 'GetVideo',
    path: '/videos/{video_id}/{other_id}',
    scope: 'videos:read',
    write: true,
    method: 'GET',
    description: 'short',
    input: Type.Object({ video_id: Type.String() }),
    output: Type.Object({}),
  };
  assert.throws(
    () => checkCatalog([good, broken, good]),
    (error: Error) =>
      [
        /GetVideo.*snake_case/,
        /get_video.*duplicate name/,
        /duplicate method and path/,
        /a write must need a write scope/,
        /GET must not write/,
        /input must be an object schema that rejects unknown fields/,
        /path parameter other_id must be a required input/,
        /needs a summary and a real description/,
      ].every((pattern) => pattern.test(error.message)),
  );
});
