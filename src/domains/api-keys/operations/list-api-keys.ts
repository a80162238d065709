/**
 * list_api_keys: the workspace's active credentials by name, prefix and tier, newest first. Secrets
 * are never shown again. Reads only.
 */
import { Type } from 'typebox';
import { ListOutput, PaginationInput, paginate } from '../../../core/lists/pagination.ts';
import { defineOperation } from '../../../core/operation.ts';
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
    const page = await paginate(ctx.cursors, input, {}, (request) => listActiveCredentials(ctx.db, ctx.workspaceId, ctx.now, request));
    return { api_keys: page.items, pagination: page.pagination };
  },
});
