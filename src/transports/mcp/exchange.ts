/**
 * One MCP exchange over Streamable HTTP, once route.ts has checked the host, the origin, the
 * credential and the envelope: a fresh server and transport for this request (stateless, JSON
 * responses), every tool call run through the pipeline as the principal the route authenticated.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../core/pipeline/principal.ts';
import type { McpRouteOptions } from './route-options.ts';
import { runAsCaller } from './run-as-caller.ts';
import { createMcpServer } from './server.ts';

export async function answerMcpRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  options: McpRouteOptions,
): Promise<void> {
  const run = runAsCaller(options, request, principal);
  const isInitialize = (request.body as { method?: unknown } | undefined)?.method === 'initialize';
  const server = createMcpServer({
    operations: options.operations,
    scopes: principal.scopes,
    guidance: isInitialize ? await options.guidanceFor(principal.workspaceId) : undefined,
    run: async (operation, input, idempotencyKey) => {
      const outcome = await run(operation, input, idempotencyKey);
      // An outage reaches the assistant as a JSON-RPC error in the body; the HTTP answer also
      // carries when to retry, as REST's 503 does. The JSON response is written after every call ran.
      const retry = outcome.headers['Retry-After'];
      if (outcome.status === 503 && retry && !reply.raw.headersSent) reply.raw.setHeader('Retry-After', retry);
      return outcome;
    },
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.hijack();
  reply.raw.setHeader('X-Request-Id', request.id);
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, request.body);
}
