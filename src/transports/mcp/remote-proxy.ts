/**
 * Stdio in front of a running Cuepoint server: the same tools, forwarded over Streamable HTTP to its
 * POST /mcp with the caller's credential. Lets a desktop assistant use a server whose embedded
 * database it could not open itself, or a remote deployment. When the first connection fails, the
 * error says in one sentence what happened (not reachable, key refused, not a Cuepoint server).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SERVER_INFO } from './server.ts';
import { answerToolRequests } from './tool-requests.ts';

/** The server could not be used: the message says why and what to do, for a person to read. */
export class RemoteServerError extends Error {
  override name = 'RemoteServerError';
}

/** What the server answered to a POST it refused: the status and the message of its error body. */
interface Refusal {
  status: number;
  code: string | undefined;
  message: string | undefined;
}

export async function createRemoteProxy(baseUrl: string, apiKey: string): Promise<{ server: Server; close(): Promise<void> }> {
  let refusal: Refusal | undefined;
  // The SDK reports a refused POST as "Error POSTing to endpoint: <body>"; keep the answer itself.
  const recordingFetch: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    if (!response.ok && init?.method === 'POST') refusal = await refusalOf(response.clone());
    return response;
  };
  const client = new Client({ name: 'cuepoint-stdio', version: SERVER_INFO.version });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    fetch: recordingFetch,
  });
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => {});
    throw new RemoteServerError(explainFailure(baseUrl, error, refusal));
  }
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: client.getInstructions() });
  // Malformed params are answered here, as the server would answer them, before anything is forwarded.
  answerToolRequests(server, {
    listTools: (params) => client.listTools(params),
    callTool: async (params) => (await client.callTool(params)) as CallToolResult,
  });
  return {
    server,
    close: async () => {
      await server.close();
      await client.close();
    },
  };
}

async function refusalOf(response: Response): Promise<Refusal> {
  // Our error body is {error: {code, message}}; a JSON-RPC error (Host checks) is {error: {code, message}} too.
  const body = (await response.json().catch(() => undefined)) as { error?: { code?: unknown; message?: unknown } } | undefined;
  const code = body?.error?.code;
  const message = body?.error?.message;
  return {
    status: response.status,
    code: typeof code === 'string' ? code : undefined,
    message: typeof message === 'string' ? message : undefined,
  };
}

function explainFailure(baseUrl: string, error: unknown, refusal: Refusal | undefined): string {
  if (!refusal) {
    // fetch() failed before any answer: the cause says which (ECONNREFUSED, ENOTFOUND, a TLS problem).
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return (
      `Could not reach a Cuepoint server at ${baseUrl} (CUEPOINT_URL): ${cause}. ` +
      'Start the server (npx cuepoint start), or set CUEPOINT_URL to the address it listens on.'
    );
  }
  const said = refusal.message ? ` ${refusal.message.replace(/\.?$/, '.')}` : '';
  switch (refusal.status) {
    case 401:
      return (
        `The server at ${baseUrl} refused the key in CUEPOINT_API_KEY:${said} ` +
        'Set CUEPOINT_API_KEY to a valid API key or assistant token of that server (npx cuepoint key create mints one).'
      );
    case 404:
      return `${baseUrl} has no MCP endpoint at /mcp (HTTP 404): set CUEPOINT_URL to the address of a Cuepoint server.`;
    case 503:
      return `The server at ${baseUrl} is unavailable for now (HTTP 503):${said} Try again shortly.`;
    default:
      return `The server at ${baseUrl} refused the connection (HTTP ${refusal.status}${refusal.code ? ` ${refusal.code}` : ''})${said ? `:${said}` : '.'}`;
  }
}
