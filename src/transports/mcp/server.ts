/**
 * One MCP server for one caller, built per request (the HTTP endpoint is stateless) or once (stdio).
 * tools/list shows the operations the caller's scopes allow; tools/call runs any catalog operation
 * through the same pipeline as REST, so a tool the caller cannot use still answers the scope error.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { AnyOperation } from '../../core/operation.ts';
import type { OperationOutcome } from '../../core/pipeline/pipeline.ts';
import type { Scope } from '../../core/scopes.ts';
import { toToolResult } from './results.ts';
import { answerToolRequests, type ToolRequestHandlers } from './tool-requests.ts';
import { IDEMPOTENCY_ARGUMENT, toolFor } from './tools.ts';

export const SERVER_INFO = { name: 'cuepoint', title: 'Cuepoint', version: '1.0.0' };
/** Tools, and the views some of them render as (resources, MCP Apps), in both eras. */
export const SERVER_CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false } };

const BASE_INSTRUCTIONS =
  'Cuepoint hosts a business’s videos and reports how people watch them. Every tool is also a REST route with ' +
  'the same name and rules. Ids come from list and search tools; never invent them. Lists are paginated: pass ' +
  'pagination.next_cursor back as cursor. A result is the JSON the REST route returns (its schema is in ' +
  '/v1/openapi.json, operationId = tool name). When a result has isError, it is {"error": {"code", "message", ' +
  '"request_id", "details"?}}: read error.message, it says what to change.';

export interface McpServerOptions {
  operations: readonly AnyOperation[];
  /** The caller's scopes: tools/list shows only what they allow. */
  scopes: ReadonlySet<Scope>;
  /** The workspace's guidance for assistants, added to the server's instructions. */
  guidance?: string;
  /** Runs one operation for this caller through the shared pipeline. */
  run(operation: AnyOperation, input: Record<string, unknown>, idempotencyKey: string | undefined): Promise<OperationOutcome>;
}

export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: serverInstructions(options.guidance),
  });
  // Params are checked by answerToolRequests before either handler sees them (request-params.ts).
  answerToolRequests(server, toolHandlers(options));
  return server;
}

/** The server's instructions: the base text, and the workspace's guidance when it has some. */
export function serverInstructions(guidance: string | undefined): string {
  return guidance ? `${BASE_INSTRUCTIONS}\n\nGuidance from this workspace:\n${guidance}` : BASE_INSTRUCTIONS;
}

/** tools/list and tools/call for this caller, the same in both protocol eras (modern-era.ts serves 2026-07-28). */
export function toolHandlers(options: Omit<McpServerOptions, 'guidance'>): ToolRequestHandlers {
  // Never a tool, whatever list it is given: the dashboard's own actions (DESIGN §10).
  const operations = options.operations.filter((op) => !op.dashboardOnly);
  const byName = new Map(operations.map((op) => [op.name, op]));
  return {
    listTools: () => ({ tools: operations.filter((op) => options.scopes.has(op.scope)).map(toolFor) }),
    callTool: async (params) => {
      const operation = byName.get(params.name);
      if (!operation) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      const { [IDEMPOTENCY_ARGUMENT]: key, ...input } = params.arguments;
      const idempotencyKey = operation.write && typeof key === 'string' ? key : undefined;
      // On a read, or with a non-string key, leave the argument in so validation names it.
      const args = operation.write && (key === undefined || typeof key === 'string') ? input : params.arguments;
      return toToolResult(await options.run(operation, args, idempotencyKey));
    },
  };
}
