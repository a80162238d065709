/**
 * Turns every catalog operation into a Fastify route under /v1. The mapping is mechanical: path ids
 * come from the path, everything else from the query string (GET, DELETE) or the JSON body (POST,
 * PUT, PATCH); the flat result goes through the shared pipeline. Paths that exist answer other verbs
 * with 405 and an Allow header.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TObject, TSchema } from 'typebox';
import { AppError, errorBody, type FieldProblem } from '../../core/errors.ts';
import { type AnyOperation, type HttpMethod, pathParams, successStatuses } from '../../core/operation.ts';
import type { Pipeline } from '../../core/pipeline/pipeline.ts';
import type { CallOrigins } from '../call-origin.ts';

const METHODS: (HttpMethod | 'OPTIONS')[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function registerOperationRoutes(
  app: FastifyInstance,
  operations: readonly AnyOperation[],
  pipeline: Pipeline,
  originOf: CallOrigins,
): void {
  const methodsByPath = new Map<string, HttpMethod[]>();
  for (const op of operations) {
    // Never a /v1 route, whatever list this is given: the dashboard's own actions (DESIGN §10).
    if (op.dashboardOnly) continue;
    const url = fastifyPath(op.path);
    methodsByPath.set(url, [...(methodsByPath.get(url) ?? []), op.method]);
    app.route({
      method: op.method,
      url,
      // The declared output doubles as the serializer: only declared fields ever leave (OWASP API3).
      schema: { response: Object.fromEntries(successStatuses(op).map((status) => [status, op.output])) },
      handler: async (request, reply) => {
        const { input, problems } = collectInput(op, request);
        const outcome = await pipeline(op, {
          authorization: request.headers.authorization,
          origin: originOf(request, 'rest'),
          input,
          inputProblems: problems,
          source: op.method === 'GET' || op.method === 'DELETE' ? 'query' : 'json',
          idempotencyKey: header(request, 'idempotency-key'),
          requestId: request.id,
        });
        return reply.code(outcome.status).headers(outcome.headers).send(outcome.body);
      },
    });
  }
  for (const [url, allowed] of methodsByPath) {
    const others = METHODS.filter((m) => !allowed.includes(m as HttpMethod));
    if (others.length === 0) continue;
    const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
    app.route({
      method: others,
      url,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const error = new AppError('method_not_allowed', `${request.method} is not allowed here. Allowed: ${allow}.`, {
          allowed: allow.split(', '),
        });
        return reply.code(405).header('Allow', allow).send(errorBody(error, request.id));
      },
    });
  }
}

function fastifyPath(path: string): string {
  return path.replace(/\{([a-z_]+)\}/g, ':$1');
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The operation's one flat input, assembled from path, query or body, and what was wrong with its shape. */
function collectInput(op: AnyOperation, request: FastifyRequest): { input: unknown; problems: FieldProblem[] } {
  const params = request.params as Record<string, string>;
  const names = pathParams(op.path);
  const fromPath = Object.fromEntries(names.map((n) => [n, params[n]]));
  const fromQuery = op.method === 'GET' || op.method === 'DELETE';
  const source = fromQuery ? splitLists(op.input, { ...(request.query as Record<string, unknown>) }) : request.body;
  if (source === undefined || source === null) return { input: fromPath, problems: [] };
  if (typeof source !== 'object' || Array.isArray(source)) {
    return { input: fromPath, problems: [{ field: '', problem: 'the body must be a JSON object' }] };
  }
  const problems = names.filter((n) => n in source).map((n) => ({ field: n, problem: 'belongs in the path, not the request' }));
  return { input: { ...source, ...fromPath }, problems };
}

/** Array inputs arrive in a query string as `tags=a,b` or `tags=a&tags=b`. */
function splitLists(schema: TObject, query: Record<string, unknown>): Record<string, unknown> {
  for (const [name, value] of Object.entries(query)) {
    // Own keys only: a query key such as `constructor` must not find the prototype's.
    const property = Object.hasOwn(schema.properties, name) ? (schema.properties[name] as TSchema) : undefined;
    if ((property as { type?: string } | undefined)?.type !== 'array') continue;
    const parts = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(','));
    query[name] = parts.map((p) => p.trim()).filter((p) => p !== '');
  }
  return query;
}
