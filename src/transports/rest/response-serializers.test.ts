/**
 * The response serializers are compiled once per schema and process, and answer what Fastify's own
 * builder answers; with shared schemas or serializer options nothing is kept.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { Type } from 'typebox';
import { buildResponseSerializer } from './response-serializers.ts';

const Output = Type.Object({ id: Type.String(), count: Type.Integer(), note: Type.Optional(Type.String()) });
const route = (schema: unknown, method = 'GET') => ({ schema, method, url: '/v1/things/:id', httpStatus: '200' });

test('one serializer per schema, across routes and apps, writing what Fastify’s own would', () => {
  const first = buildResponseSerializer({}, undefined)(route(Output));
  const again = buildResponseSerializer({}, undefined)(route(Output, 'HEAD'));
  assert.equal(again, first, 'a second app and a HEAD twin reuse the compiled serializer');
  const other = buildResponseSerializer({}, undefined)(route(Type.Object({ id: Type.String() })));
  assert.notEqual(other, first, 'another schema has a serializer of its own');

  const value = { id: 'v_1', count: 3, secret: 'never leaves' };
  const fastifys = SerializerSelector()({}, undefined)(route(Output));
  assert.equal(first(value), fastifys(value));
  assert.deepEqual(JSON.parse(first(value)), { id: 'v_1', count: 3 });
});

test('with shared schemas or serializer options, each route is compiled afresh', () => {
  const shared = { 'thing.json': { $id: 'thing.json', type: 'object', properties: { id: { type: 'string' } } } };
  const withShared = buildResponseSerializer(shared, undefined);
  assert.notEqual(withShared(route(Output)), withShared(route(Output)));
  const withOptions = buildResponseSerializer({}, { rounding: 'ceil' });
  assert.notEqual(withOptions(route(Output)), withOptions(route(Output)));
});
