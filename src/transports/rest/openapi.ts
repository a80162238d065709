/**
 * The OpenAPI 3.1 document, generated from the catalog: one operation per catalog entry, with its
 * operationId (= MCP tool name), scope (in `security` and `x-required-scopes`), parameters, body,
 * response and the error codes it can answer; and one `webhooks` entry per event type, from the
 * events catalog (src/event-catalog.ts). Served publicly at /v1/openapi.json.
 */
import type { TObject } from 'typebox';
import { ERROR_BODY_SCHEMA, type ErrorCode } from '../../core/errors.ts';
import { type AnyOperation, pathParams, successStatuses } from '../../core/operation.ts';
import { SCOPES } from '../../core/scopes.ts';
import { EVENT_CATALOG, EVENT_TYPES, type EventType, eventEnvelope } from '../../event-catalog.ts';

type Json = Record<string, unknown>;

const EVENTS_TAG = 'Webhook events';

/** Answers every operation can give, whatever it does. */
const COMMON_ERRORS: ErrorCode[] = ['invalid_request', 'unauthorized', 'forbidden', 'rate_limited', 'internal', 'service_unavailable'];

const ERROR_RESPONSES: Record<string, { status: number; description: string; codes: ErrorCode[]; headers?: string[] }> = {
  InvalidRequest: {
    status: 400,
    description: 'A parameter is missing, unknown or of the wrong shape; every problem is listed.',
    codes: ['invalid_request'],
  },
  Unauthorized: {
    status: 401,
    description: 'No credential, or a malformed, revoked or expired one.',
    codes: ['unauthorized'],
    headers: ['WWW-Authenticate'],
  },
  Forbidden: {
    status: 403,
    description:
      'The credential lacks the scope (`forbidden`, `details.required_scope`) or the plan lacks the capability (`plan_limit`, `details.entitlement`).',
    codes: ['forbidden', 'plan_limit'],
  },
  NotFound: { status: 404, description: 'No such object in this workspace.', codes: ['not_found'] },
  Conflict: {
    status: 409,
    description: 'The Idempotency-Key was used for a different request, or its first request is still running.',
    codes: ['conflict'],
  },
  TooLarge: { status: 413, description: 'The request body is too large.', codes: ['payload_too_large'] },
  RateLimited: {
    status: 429,
    description: 'Over the per-credential rate limit.',
    codes: ['rate_limited'],
    headers: ['Retry-After', 'RateLimit-Policy', 'RateLimit'],
  },
  Internal: { status: 500, description: 'Server-side failure; logged under the request id. Retrying once is safe.', codes: ['internal'] },
  Unavailable: {
    status: 503,
    description: 'A dependency (the database) is unavailable; retry after Retry-After.',
    codes: ['service_unavailable'],
    headers: ['Retry-After'],
  },
};

export function buildOpenApiDocument(given: readonly AnyOperation[], publicUrl: string): Json {
  // The dashboard's own actions are not part of the API (DESIGN §10), whatever list this is given.
  const operations = given.filter((op) => !op.dashboardOnly);
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    paths[op.path] = { ...(paths[op.path] ?? {}), [op.method.toLowerCase()]: describeOperation(op) };
  }
  const groups = [...new Set(operations.map((op) => op.group))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cuepoint API',
      version: '1.0.0',
      summary: 'Host videos, see how people watch them, capture leads, and push it all to other systems.',
      description:
        'Every route is also a tool of the same name on the MCP server (`POST /mcp`), with the same scopes and rate limit. ' +
        'Authenticate with `Authorization: Bearer <API key or assistant token>`. Errors have the body ' +
        '`{ "error": { "code", "message", "request_id", "details"? } }`. Lists are cursor-paginated.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: `${publicUrl}/v1`, description: 'This server' }],
    security: [{ bearerAuth: [] }],
    tags: [
      ...groups.map((name) => ({ name, description: `${name} operations.` })),
      { name: EVENTS_TAG, description: 'What Cuepoint POSTs to your webhook endpoints, one entry per event type.' },
    ],
    paths,
    webhooks: Object.fromEntries(EVENT_TYPES.map((type) => [type, { post: describeEvent(type) }])),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'API key (cue_live_…) or assistant token (cue_asst_…)',
          description: `Scopes: ${SCOPES.join(', ')}. Each operation names the one it needs in x-required-scopes.`,
        },
      },
      schemas: { Error: ERROR_BODY_SCHEMA },
      headers: {
        'RateLimit-Policy': { description: 'The credential’s quota: `"default";q=<requests>;w=<seconds>`.', schema: { type: 'string' } },
        RateLimit: { description: 'What is left: `"default";r=<remaining>;t=<seconds until reset>`.', schema: { type: 'string' } },
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
        'WWW-Authenticate': { description: 'The Bearer challenge.', schema: { type: 'string' } },
        'X-Request-Id': { description: 'Identifies the request in our logs; also in error bodies.', schema: { type: 'string' } },
        'Idempotency-Replayed': {
          description: 'true when this is the stored response of an earlier request with the same Idempotency-Key.',
          schema: { type: 'string', enum: ['true'] },
        },
      },
      parameters: {
        ...WEBHOOK_HEADERS,
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes a retried write safe: the first response is stored for 24 hours and replayed for the same key and request.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([name, r]) => [
          name,
          {
            description: `${r.description} Codes: ${r.codes.join(', ')}.`,
            headers: {
              'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
              ...Object.fromEntries((r.headers ?? []).map((h) => [h, { $ref: `#/components/headers/${h}` }])),
            },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
    },
  };
}

function describeOperation(op: AnyOperation): Json {
  const input = op.input as TObject;
  const inPath = new Set(pathParams(op.path));
  const inQuery = op.method === 'GET' || op.method === 'DELETE';
  const required = new Set(input.required ?? []);
  const parameters: Json[] = [];
  const bodyProperties: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(input.properties)) {
    const { description, ...rest } = schema as Json;
    if (inPath.has(name) || inQuery) {
      const isArray = (schema as Json).type === 'array';
      parameters.push({
        name,
        in: inPath.has(name) ? 'path' : 'query',
        required: inPath.has(name) || required.has(name),
        ...(description ? { description } : {}),
        schema: rest,
        ...(isArray ? { style: 'form', explode: false } : {}),
      });
    } else {
      bodyProperties[name] = schema;
    }
  }
  if (op.write) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  const errors = new Set<ErrorCode>([...COMMON_ERRORS, ...op.errors]);
  if (op.write) errors.add('conflict');
  if (!inQuery) errors.add('payload_too_large');
  const statuses = successStatuses(op);
  const success = (status: 200 | 201): Json => ({
    description: statuses.length === 1 ? op.summary : status === 201 ? `${op.summary}: created` : `${op.summary}: found and updated`,
    headers: {
      'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
      'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
      RateLimit: { $ref: '#/components/headers/RateLimit' },
      ...(op.write ? { 'Idempotency-Replayed': { $ref: '#/components/headers/Idempotency-Replayed' } } : {}),
    },
    content: { 'application/json': { schema: op.output } },
  });
  const responses: Json = Object.fromEntries(statuses.map((status) => [String(status), success(status)]));
  for (const [name, r] of Object.entries(ERROR_RESPONSES)) {
    if (r.codes.some((c) => errors.has(c))) responses[String(r.status)] = { $ref: `#/components/responses/${name}` };
  }
  const bodyRequired = [...required].filter((n) => !inPath.has(n));
  return {
    operationId: op.name,
    summary: op.summary,
    description: `${op.description}\n\nRequires the scope \`${op.scope}\`${op.entitlement ? ` and a plan with \`${op.entitlement}\`` : ''}.`,
    tags: [op.group],
    security: [{ bearerAuth: [op.scope] }],
    'x-required-scopes': [op.scope],
    ...(op.entitlement ? { 'x-required-entitlement': op.entitlement } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(!inQuery
      ? {
          requestBody: {
            required: bodyRequired.length > 0,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: bodyProperties,
                  ...(bodyRequired.length ? { required: bodyRequired } : {}),
                  additionalProperties: false,
                },
                example: Object.fromEntries(Object.entries(op.example as Json).filter(([k]) => !inPath.has(k))),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** The Standard Webhooks headers every delivery carries (docs/webhooks.md, "Headers and signature"). */
const WEBHOOK_HEADERS: Record<string, Json> = {
  WebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id, the same on every retry: deduplicate on it.',
    schema: { type: 'string', format: 'uuid' },
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds when this attempt was sent; refuse ones more than a few minutes from your clock.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  WebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}">`, keyed with the endpoint secret; ' +
      'two such entries separated by a space while a rotated secret overlaps.',
    schema: { type: 'string' },
  },
};

function describeEvent(type: EventType): Json {
  return {
    operationId: `on_${type.replace('.', '_')}`,
    summary: EVENT_CATALOG[type].summary,
    description:
      `${EVENT_CATALOG[type].when}\n\nEvent type \`${type}\`, POSTed to every active endpoint subscribed to it ` +
      '(or to `*`), at least once; verify the signature over the raw body before parsing it.',
    tags: [EVENTS_TAG],
    // Receivers authenticate the request by its signature, not by a credential of ours.
    security: [],
    parameters: Object.keys(WEBHOOK_HEADERS).map((name) => ({ $ref: `#/components/parameters/${name}` })),
    requestBody: { required: true, content: { 'application/json': { schema: eventEnvelope(type) } } },
    responses: {
      '200': { description: 'Any 2xx answer acknowledges the delivery.' },
      '410': { description: 'Gone: the endpoint is paused and receives nothing more until reactivated.' },
      default: { description: 'Any other answer, or none within the timeout, is retried on the schedule, then exhausted.' },
    },
  };
}
