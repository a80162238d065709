/**
 * How both eras' tool calls run: through the one pipeline as the principal route.ts authenticated for
 * this request (resource binding included), not by reading the header again: /v1's check would
 * refuse a token bound to this endpoint.
 */
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../core/pipeline/principal.ts';
import type { McpRouteOptions } from './route-options.ts';
import type { McpServerOptions } from './server.ts';

export function runAsCaller(options: McpRouteOptions, request: FastifyRequest, principal: Principal): McpServerOptions['run'] {
  const origin = options.originOf(request, 'mcp');
  return (operation, input, idempotencyKey) =>
    options.pipeline(operation, {
      authorization: undefined,
      principal,
      origin,
      input,
      source: 'json',
      idempotencyKey,
      requestId: request.id,
    });
}
