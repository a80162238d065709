/**
 * Catalog operations as MCP tools: the same name, the summary and description an assistant reads to
 * choose, the flat input schema (plus `idempotency_key` on writes), the output schema (or the error
 * body), and annotations derived from what the operation does.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_BODY_SCHEMA } from '../../core/errors.ts';
import type { AnyOperation } from '../../core/operation.ts';

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
  return {
    name: op.name,
    title: op.summary,
    description: `${op.description}\n\nNeeds the scope ${op.scope}.`,
    inputSchema: {
      ...(op.input as object),
      type: 'object',
      properties: op.write ? { ...input.properties, [IDEMPOTENCY_ARGUMENT]: idempotencyKeySchema } : input.properties,
    },
    // A result is the operation's output or, with isError, the REST error body; clients validate
    // structured content against this schema in both cases.
    outputSchema: { type: 'object', anyOf: [op.output, ERROR_BODY_SCHEMA] },
    annotations: {
      title: op.summary,
      readOnlyHint: !op.write,
      destructiveHint: op.destructive === true,
      // Reads can be repeated freely; a write is safe to repeat only with an idempotency_key.
      idempotentHint: !op.write || op.method === 'PUT' || op.method === 'DELETE',
      openWorldHint: false,
    },
  };
}
