/**
 * An official MCP SDK client connected over Streamable HTTP to the test app on a real loopback port,
 * authenticated with the given credential, closed when the test ends.
 */
import type { TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';

const listening = new WeakMap<FastifyInstance, Promise<string>>();

/** The app's loopback URL, listening on first use. */
export function urlOf(app: FastifyInstance): Promise<string> {
  let url = listening.get(app);
  if (!url) {
    url = app.listen({ host: '127.0.0.1', port: 0 });
    listening.set(app, url);
  }
  return url;
}

export async function connectMcp(t: TestContext, app: FastifyInstance, token: string): Promise<Client> {
  const base = await urlOf(app);
  const client = new Client({ name: 'cuepoint-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

/** Calls a tool and returns its result with the structured content typed loosely for assertions. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary fields of the result
  return result as CallToolResult & { structuredContent: any };
}
