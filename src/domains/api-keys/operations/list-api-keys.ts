/**
 * list_api_keys: the workspace's active credentials by name, prefix and tier, newest first. Secrets
 * are never shown again. Reads only.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { ListOutput, PaginationInput, pageOf } from '../../../core/pagination.ts';
import { listActiveCredentials } from '../api-keys.queries.ts';
import { ApiKey } from '../api-keys.schemas.ts';

export const listApiKeys = defineOperation({
  name: 'list_api_keys',
  summary: 'List active API keys',
  description:
    'Lists the workspace’s active API keys and assistant tokens (revoked and expired ones are left out) with name, ' +
    'prefix, kind, tier, scopes and expiry. The secret values are never shown after creation.',
  method: 'GET',
  path: '/api-keys',
  group: 'API keys',
  scope: 'workspace:manage',
  write: false,
  errors: [],
  input: Type.Object({ ...PaginationInput }, { additionalProperties: false }),
  output: ListOutput('api_keys', ApiKey),
  example: { limit: 50 },
  async handler(ctx, input) {
    const limit = input.limit ?? 50;
    const after = ctx.cursors.decode(input.cursor, {});
    const { rows, total } = await listActiveCredentials(ctx.db, ctx.workspaceId, ctx.now, { after, limit });
    const page = pageOf(rows, { limit, total, cursors: ctx.cursors, filters: {}, keyOf: (k) => [k.created_at, k.key_id] });
    return { api_keys: page.items, pagination: page.pagination };
  },
});
