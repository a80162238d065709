/**
 * How a server answers tools/list, tools/call and the views' resources/list and resources/read: through the SDK's fallback handler, which receives
 * the request as sent, rather than setRequestHandler, which first parses params with the SDK's zod
 * schema and lets a mismatch out as -32603 "Internal error" carrying zod's issue list. Here params are
 * read by request-params.ts, whose problems are -32602 in sentences; any other method the SDK does not
 * answer itself is "Method not found", as the SDK says it.
 */
import { type CallToolResult, ErrorCode, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { type ToolCallParams, toolCallParams, toolListParams } from './request-params.ts';
import { listViews, readView } from './views/views.ts';

export interface ToolRequestHandlers {
  listTools(params: { cursor?: string }): Promise<ListToolsResult> | ListToolsResult;
  callTool(params: ToolCallParams): Promise<CallToolResult>;
}

/**
 * What both SDK generations' servers have: the handler of every method they do not answer themselves.
 * (Method syntax: each SDK types the request as its own JSON-RPC request, of which this is the part read.)
 */
export interface FallbackHandling {
  fallbackRequestHandler?(request: { method: string; params?: unknown }): Promise<unknown>;
}

/** `server`: either SDK's Server (v1 for 2025 requests, v2 for 2026-07-28 ones), both of which have the fallback handler. */
export function answerToolRequests(server: object, handlers: ToolRequestHandlers): void {
  (server as FallbackHandling).fallbackRequestHandler = async (request) => {
    switch (request.method) {
      case 'tools/list':
        return handlers.listTools(toolListParams(request.params));
      case 'tools/call':
        return handlers.callTool(toolCallParams(request.params));
      // The views some tools render as (MCP Apps): the only resources this server has.
      case 'resources/list':
        return { resources: listViews() };
      case 'resources/read':
        return readResource(request.params);
      case 'resources/templates/list':
        return { resourceTemplates: [] };
      default:
        // The SDK's own answer to a method without a handler: the code and message, without McpError's prefix.
        throw Object.assign(new Error('Method not found'), { code: ErrorCode.MethodNotFound });
    }
  };
}

/** resources/read: a view by its ui:// URI; -32602 without a URI, -32002 (resource not found) for one that names none. */
function readResource(params: unknown) {
  const uri = (params as { uri?: unknown } | undefined)?.uri;
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > 2000) {
    throw Object.assign(new Error('resources/read needs params.uri, the ui:// URI of a view from resources/list.'), {
      code: ErrorCode.InvalidParams,
    });
  }
  const read = readView(uri);
  if (!read) throw Object.assign(new Error(`Resource not found: ${uri.slice(0, 200)}`), { code: -32002, data: { uri: uri.slice(0, 200) } });
  return read;
}
