/**
 * Stdio in front of a running Cuepoint server: the same tools, forwarded over Streamable HTTP to its
 * POST /mcp with the caller's credential. Lets a desktop assistant use a server whose embedded
 * database it could not open itself, or a remote deployment.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { SERVER_INFO } from './server.ts';

export async function createRemoteProxy(baseUrl: string, apiKey: string): Promise<{ server: Server; close(): Promise<void> }> {
  const client = new Client({ name: 'cuepoint-stdio', version: SERVER_INFO.version });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: client.getInstructions() });
  server.setRequestHandler(ListToolsRequestSchema, (request) => client.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => client.callTool(request.params));
  return {
    server,
    close: async () => {
      await server.close();
      await client.close();
    },
  };
}
