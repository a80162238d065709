/**
 * The serializers of the operations' answers: Fastify's own (fast-json-stringify, through the builder
 * Fastify uses by default), each compiled once per schema and kept for the life of the process, and
 * not before its route first answers: building all of them at start-up was about a tenth of a second
 * of every start, for routes most processes never serve (issue 26). The output-contract suite answers
 * every operation, so a schema the compiler refuses still fails the tests rather than a request. By
 * default Fastify compiles a route's response schema for every route that declares it, so a GET and
 * its HEAD twin each paid for one, and so did every app a process builds: compiling was 70 ms of the
 * 95 ms that building the app costs, paid by every test that starts an app with options of its own.
 * A compiled serializer is a pure function of its schema and options, so sharing it shares no state.
 */
import { createRequire } from 'node:module';
import type SerializerSelector from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/** By schema object: the catalog's output schemas are made once, at import. */
const compiled = new WeakMap<object, Serializer>();

export const buildResponseSerializer: SerializerFactory = (externalSchemas, options) => {
  // The compiler itself (fast-json-stringify, which brings Ajv: some 80 modules) is loaded with the
  // first serializer compiled, not when the routes are registered.
  let compiler: ReturnType<SerializerFactory> | undefined;
  const compile: ReturnType<SerializerFactory> = (route) => {
    compiler ??= (createRequire(import.meta.url)('@fastify/fast-json-stringify-compiler') as typeof SerializerSelector)()(
      externalSchemas,
      options,
    );
    return compiler(route);
  };
  // Shared schemas (addSchema) or serializer options would make a serializer depend on more than its
  // own schema: then each is compiled as Fastify would, and none is kept.
  const plain = Object.keys(externalSchemas ?? {}).length === 0 && Object.keys(options ?? {}).length === 0;
  if (!plain) return compile;
  return (route) => {
    const { schema } = route;
    if (typeof schema !== 'object' || schema === null) return compile(route);
    let serializer = compiled.get(schema);
    if (!serializer) {
      // Kept at once, compiled at its first answer: every route and app sharing the schema shares both.
      let built: Serializer | undefined;
      serializer = (doc) => {
        built ??= compile(route);
        return built(doc);
      };
      compiled.set(schema, serializer);
    }
    return serializer;
  };
};
