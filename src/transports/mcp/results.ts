/**
 * Pipeline outcomes as MCP answers. A success is `structuredContent` plus the same JSON as compact
 * text: the spec asks for the serialized JSON in a text block for clients that read only text, and
 * indenting it only made every result longer. An error the caller can fix by changing its call (bad
 * input, missing scope, not found, conflict, rate limit) is a tool result with `isError: true`
 * carrying the REST error body, so the assistant can read it and correct itself. Failures on our side
 * are JSON-RPC errors, as a transport failure would be.
 */
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CALLER_CAN_FIX, type ErrorBody } from '../../core/errors.ts';
import type { OperationOutcome } from '../../core/pipeline/pipeline.ts';

export function toToolResult(outcome: OperationOutcome): CallToolResult {
  const text = JSON.stringify(outcome.body);
  if (outcome.status < 400) {
    return { content: [{ type: 'text', text }], structuredContent: outcome.body as Record<string, unknown> };
  }
  const error = (outcome.body as ErrorBody).error;
  if (CALLER_CAN_FIX.has(error.code)) {
    return { content: [{ type: 'text', text }], structuredContent: outcome.body as unknown as Record<string, unknown>, isError: true };
  }
  const code = error.code === 'unauthorized' ? ErrorCode.InvalidRequest : ErrorCode.InternalError;
  throw new McpError(code, `${error.message} (${error.code}, request ${error.request_id})`, outcome.body);
}
