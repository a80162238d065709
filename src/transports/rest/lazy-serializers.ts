/**
 * Fastify's own response serializers (fast-json-stringify, through the same factory Fastify uses by
 * default), each built the first time its route answers instead of when the app starts. Building all
 * of them (every operation's success statuses, and again for each GET's HEAD route) was about a
 * tenth of a second of every start, for routes most processes never serve. What a route sends is
 * unchanged: the same schema, the same compiler, the same options; only the moment it is built moves.
 * The output-contract suite answers every operation, so a schema the compiler refuses still fails
 * the tests rather than a first request.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

export function lazySerializers(): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      let serialize: ((doc: unknown) => string) | undefined;
      return (doc) => {
        serialize ??= compile(route);
        return serialize(doc);
      };
    };
  };
}
