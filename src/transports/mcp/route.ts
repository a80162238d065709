/**
 * The Streamable HTTP endpoint, POST /mcp, stateless: every request gets a fresh server and transport
 * (the 2026-07-28 revision in modern-era.ts, 2025-era revisions up to 2025-11-25 in exchange.ts; JSON
 * responses, no session ids), so any API process can answer any request. Before any MCP processing: the Host and Origin must name this service (DNS-rebinding
 * defence) and the bearer credential must be valid (401 with WWW-Authenticate otherwise).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody } from '../../core/errors.ts';
import type { Principal } from '../../core/pipeline/principal.ts';
import { outageError } from '../../core/pipeline/unavailable.ts';
import { SCOPES } from '../../core/scopes.ts';
import { envelopeRefusal } from './request-params.ts';
import type { McpRouteOptions } from './route-options.ts';

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]', '::1'];

// The MCP SDK, with zod and hono (whose import of node:http compiles Node's own undici), takes about
// 250 ms of CPU to load: loaded with the first MCP request rather than on every start.
let exchange: Promise<typeof import('./exchange.ts')> | undefined;
const loadExchange = () => {
  exchange ??= import('./exchange.ts');
  return exchange;
};
// The same for the SDK v2 that serves the 2026-07-28 revision (modern-era.ts).
let modernEra: Promise<typeof import('./modern-era.ts')> | undefined;
const loadModernEra = () => {
  modernEra ??= import('./modern-era.ts');
  return modernEra;
};

export function registerMcpRoute(app: FastifyInstance, options: McpRouteOptions): void {
  const allowedHosts = new Set([...LOCAL_HOSTS, new URL(options.publicUrl).hostname]);
  // RFC 9728 §3.1: the metadata of the resource /mcp lives at the well-known path with /mcp appended;
  // clients of the MCP authorization spec's first revision look at the bare path. Both answer the same.
  const metadataUrl = `${options.publicUrl}/.well-known/oauth-protected-resource/mcp`;
  const metadata = JSON.stringify({
    resource: `${options.publicUrl}/mcp`,
    resource_name: 'Cuepoint MCP server',
    authorization_servers: [options.publicUrl],
    scopes_supported: SCOPES,
    bearer_methods_supported: ['header'],
    resource_documentation: `${options.publicUrl}/v1/openapi.json`,
  });
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
    app.get(path, async (_request, reply) =>
      reply
        .headers({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=3600' })
        .type('application/json; charset=utf-8')
        .send(metadata),
    );
  }
  // What a client should ask for (MCP authorization, "Scope selection"): everything the tools use; the
  // person decides on the consent page, where only reading is ticked.
  const scopeHint = `scope="${SCOPES.join(' ')}"`;

  app.post('/mcp', async (request, reply) => {
    const rejection = checkHostAndOrigin(request, allowedHosts);
    if (rejection) return reply.code(403).send(jsonRpcError(-32000, rejection));
    let principal: Principal;
    try {
      principal = await options.identify(request.headers.authorization);
    } catch (error) {
      const appError = error instanceof AppError ? error : (outageError(error) ?? internalError(request, error));
      const challenge = appError.headers['WWW-Authenticate'];
      const headers = challenge
        ? { ...appError.headers, 'WWW-Authenticate': `${challenge}, resource_metadata="${metadataUrl}", ${scopeHint}` }
        : appError.headers;
      return reply.code(appError.status).headers(headers).send(errorBody(appError, request.id));
    }
    // Params that are not an object by name: -32602 in words, where the SDK's transport says "Parse error".
    const refusal = envelopeRefusal(request.body);
    if (refusal) return reply.code(200).header('X-Request-Id', request.id).send(refusal);
    const modern = await loadModernEra();
    if (!(await modern.isLegacyMcpRequest(request, options.publicUrl))) {
      return modern.answerModernMcpRequest(request, reply, principal, options);
    }
    const { answerMcpRequest } = await loadExchange();
    await answerMcpRequest(request, reply, principal, options);
  });

  const notAllowed = async (request: FastifyRequest, reply: FastifyReply) => {
    const error = new AppError('method_not_allowed', 'This MCP endpoint is stateless: send each JSON-RPC message with POST.', {
      allowed: ['POST'],
    });
    return reply.code(405).header('Allow', 'POST').send(errorBody(error, request.id));
  };
  app.route({ method: ['GET', 'DELETE', 'PUT', 'PATCH'], url: '/mcp', handler: notAllowed });
}

function internalError(request: FastifyRequest, error: unknown): AppError {
  request.log.error({ err: error }, 'credential check failed');
  return new AppError(
    'internal',
    `Something went wrong on our side. It has been logged under request id ${request.id}; retrying once is safe.`,
  );
}

/** DNS rebinding: a page on another site must not reach a local server through the browser. */
function checkHostAndOrigin(request: FastifyRequest, allowed: ReadonlySet<string>): string | undefined {
  const host = hostnameOf(`http://${request.headers.host ?? ''}`);
  if (!host || !allowed.has(host)) return `Host ${request.headers.host ?? '(none)'} is not this service.`;
  const origin = request.headers.origin;
  if (origin !== undefined && !allowed.has(hostnameOf(origin) ?? '')) return `Origin ${origin} may not call this service.`;
  return undefined;
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

function jsonRpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}
