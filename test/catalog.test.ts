/**
 * The catalog's start-up invariants hold for the real catalog, catch each kind of mistake, and every
 * operation's documented example is a valid input (the docs and the catalog-wide suites rely on it),
 * and every id an operation takes says what it refers to.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { catalog, checkCatalog } from '../src/catalog.ts';
import type { AnyOperation } from '../src/core/operation.ts';
import { validateInput } from '../src/core/pipeline/validation.ts';
import { EVERY_ITEM, idSlots } from '../src/core/resource-ids.ts';
import { Nullable, ResourceId } from '../src/core/schemas.ts';

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

test('checkCatalog refuses an id field that does not say what it refers to', () => {
  const good = catalog.find((op) => op.name === 'get_video') as AnyOperation;
  const taking = (name: string, properties: Parameters<typeof Type.Object>[0]): AnyOperation => ({
    ...good,
    name,
    path: `/checks/${name.replace('_', '-')}`,
    input: Type.Object(properties, { additionalProperties: false }),
  });
  const uuid = () => Type.String({ format: 'uuid' });
  assert.throws(
    () =>
      checkCatalog([
        taking('get_plain', { video_id: uuid() }),
        taking('get_list', { video_ids: Type.Array(uuid()) }),
        taking('get_nullable', { folder_id: Nullable(uuid()) }),
        taking('get_nested', { filter: Type.Object({ endpoint_id: uuid() }) }),
        taking('get_unknown', { gadget_id: Type.String({ 'x-resource': 'gadget' }) }),
      ]),
    (error: Error) =>
      [
        /get_plain .*video_id looks like an id/,
        /get_list .*video_ids looks like a list of ids/,
        /get_nullable .*folder_id looks like an id/,
        /get_nested .*filter\.endpoint_id looks like an id/,
        /get_unknown .*gadget_id refers to "gadget", which is not one of: video, folder/,
      ].every((pattern) => pattern.test(error.message)),
  );
  const annotated = taking('get_annotated', {
    video_id: ResourceId('video', 'A video.'),
    video_ids: Type.Array(ResourceId('video', 'A video.'), { minItems: 2 }),
    folder_id: Nullable(ResourceId('folder', 'A folder.')),
    filter: Type.Object({ endpoint_id: ResourceId('webhook_endpoint', 'An endpoint.') }),
  });
  assert.doesNotThrow(() => checkCatalog([annotated]));
  assert.deepEqual(idSlots(annotated.input), [
    { path: ['video_id'], resource: 'video' },
    { path: ['video_ids', EVERY_ITEM], resource: 'video', minItems: 2 },
    { path: ['folder_id'], resource: 'folder' },
    { path: ['filter', 'endpoint_id'], resource: 'webhook_endpoint' },
  ]);
});
