/**
 * Catalog operations as MCP tools: the same name, the summary and description an assistant reads to
 * choose, the flat input schema in full (plus `idempotency_key` on writes), and annotations derived
 * from what the operation does.
 *
 * No `outputSchema`: tools/list is read into an assistant's context, and the operations' output
 * schemas alone averaged 3 KB a tool (every field typed, required and described, plus the error
 * body), three quarters of the list. A result is the JSON the REST route returns, whose schema the
 * OpenAPI document publishes under the tool's name as operationId (docs/decisions.md, "MCP weight").
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyOperation } from '../../core/operation.ts';
import { viewMetaOf } from './views/views.ts';

export const IDEMPOTENCY_ARGUMENT = 'idempotency_key';

const idempotencyKeySchema = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description:
    'Optional. Send the same value when retrying this call after a timeout: the first result is kept for 24 hours ' +
    'and returned again instead of repeating the change.',
};

export function toolFor(op: AnyOperation): Tool {
  const input = op.input as { properties: Record<string, object>; required?: string[] };
  const view = viewMetaOf(op.name);
  return {
    name: op.name,
    title: op.summary,
    description: `${op.description}\n\nNeeds the scope ${op.scope}.`,
    inputSchema: {
      ...(op.input as object),
      type: 'object',
      properties: op.write ? { ...input.properties, [IDEMPOTENCY_ARGUMENT]: idempotencyKeySchema } : input.properties,
    },
    // The tool's title is above; annotations.title would only repeat it.
    annotations: {
      readOnlyHint: !op.write,
      destructiveHint: op.destructive === true,
      // Reads can be repeated freely; a write is safe to repeat only with an idempotency_key.
      idempotentHint: !op.write || op.method === 'PUT' || op.method === 'DELETE',
      openWorldHint: false,
    },
    // A tool whose result also renders as a view inside the assistant (MCP Apps: views/views.ts).
    ...(view ? { _meta: view } : {}),
  };
}
