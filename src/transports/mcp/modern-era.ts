/**
 * The MCP revision 2026-07-28 on POST /mcp (issue 29): stateless by design. A client probes with
 * `server/discover` instead of the `initialize` handshake, and every request carries its protocol
 * version and client facts in `_meta`; there are no sessions. Served by the MCP SDK v2's
 * createMcpHandler in strict mode (`legacy: 'reject'`, JSON answers), from a per-request server whose
 * tools are exactly those of the 2025 leg (server.ts: toolHandlers), run as the principal route.ts
 * authenticated.
 *
 * 2025-era requests (claim-less: `initialize`, and calls without a `_meta` envelope) keep the v1
 * transport in exchange.ts, classified by the SDK's own isLegacyRequest so the two can never disagree:
 * the SDK's stateless legacy leg would answer them as event streams, which clients of a JSON-only
 * stateless server did not have to read until now.
 */
import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
  type McpRequestContext,
  Server,
} from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../core/pipeline/principal.ts';
import type { McpRouteOptions } from './route-options.ts';
import { runAsCaller } from './run-as-caller.ts';
import { SERVER_CAPABILITIES, SERVER_INFO, serverInstructions, toolHandlers } from './server.ts';
import { answerToolRequests } from './tool-requests.ts';

/** What one request's server needs, handed through the handler's pass-through `authInfo`. */
interface ModernCall {
  principal: Principal;
  options: McpRouteOptions;
  request: FastifyRequest;
  guidance: string | undefined;
}

const CALL = 'cuepoint.call';

function buildServer(context: McpRequestContext): Server {
  const call = context.authInfo?.extra?.[CALL] as ModernCall;
  const { principal, options, request } = call;
  const server = new Server(SERVER_INFO, {
    capabilities: SERVER_CAPABILITIES,
    instructions: serverInstructions(call.guidance),
  });
  answerToolRequests(
    server,
    toolHandlers({
      operations: options.operations,
      scopes: principal.scopes,
      run: runAsCaller(options, request, principal),
    }),
  );
  return server;
}

let handler: McpHttpHandler | undefined;

/** The web Request the SDK reads: the method, the URL and the headers; the body is handed over parsed. */
function webRequestOf(request: FastifyRequest, publicUrl: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const one of value) headers.append(name, one);
  }
  return new Request(`${publicUrl}/mcp`, { method: 'POST', headers });
}

/** Whether this request is of the 2025 era (answered by exchange.ts). */
export function isLegacyMcpRequest(request: FastifyRequest, publicUrl: string): Promise<boolean> {
  return isLegacyRequest(webRequestOf(request, publicUrl), request.body);
}

/** Answers a 2026-07-28 request. */
export async function answerModernMcpRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  options: McpRouteOptions,
): Promise<FastifyReply> {
  handler ??= createMcpHandler(buildServer, {
    legacy: 'reject',
    responseMode: 'json',
    onerror: (error) => request.log.warn({ err: error }, 'MCP request refused'),
  });
  const isDiscover = (request.body as { method?: unknown } | undefined)?.method === 'server/discover';
  const call: ModernCall = {
    principal,
    options,
    request,
    guidance: isDiscover ? await options.guidanceFor(principal.workspaceId) : undefined,
  };
  const authInfo: AuthInfo = { token: '', clientId: principal.credentialId, scopes: [...principal.scopes], extra: { [CALL]: call } };
  const response = await handler.fetch(webRequestOf(request, options.publicUrl), { authInfo, parsedBody: request.body });
  const body = Buffer.from(await response.arrayBuffer());
  reply.code(methodNotFound(response, body) ? 404 : response.status).header('X-Request-Id', request.id);
  response.headers.forEach((value, name) => {
    reply.header(name, value);
  });
  return reply.send(body);
}

/**
 * Whether the answer is a single "Method not found" error: 2026-07-28 wants it with HTTP 404 (the SDK
 * answers 404 itself only for methods it knows were removed; ours are refused by the fallback handler).
 */
function methodNotFound(response: Response, body: Buffer): boolean {
  if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('application/json') || body.length > 4096) return false;
  try {
    return (JSON.parse(body.toString('utf8')) as { error?: { code?: unknown } }).error?.code === -32601;
  } catch {
    return false;
  }
}
