/**
 * delete_api_key: revokes a key at once; the next request with it, on any process, is refused. The
 * row is kept (revoked) for the record. Refused for a key with scopes the caller lacks, and for the
 * workspace's last active credential holding workspace:manage (no lock-out by accident).
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { ResourceId, Timestamp } from '../../../core/schemas.ts';
import { revokeCredential } from '../api-keys.queries.ts';
import { ApiKey } from '../api-keys.schemas.ts';

export const deleteApiKey = defineOperation({
  name: 'delete_api_key',
  summary: 'Revoke an API key',
  description:
    'Stops an API key or assistant token immediately: every later request with it is refused with 401. This cannot ' +
    'be undone; mint a new key instead. The caller must hold every scope of the key it revokes (403 otherwise). ' +
    'The workspace’s last active key holding workspace:manage cannot be revoked (409): mint another admin key ' +
    'first. A key may revoke itself; revoked_self then says so, and that key’s next request is refused.',
  method: 'DELETE',
  path: '/api-keys/{key_id}',
  group: 'API keys',
  scope: 'workspace:manage',
  write: true,
  destructive: true,
  errors: ['not_found', 'conflict'],
  input: Type.Object({ key_id: ResourceId('api_key', 'The key to revoke, from list_api_keys.') }, { additionalProperties: false }),
  output: Type.Object(
    {
      ...ApiKey.properties,
      revoked: Type.Literal(true),
      revoked_at: Timestamp('When the key stopped working.'),
      revoked_self: Type.Boolean({
        description: 'true when the key revoked was the one making this request: it will be refused from the next request on.',
      }),
    },
    { additionalProperties: false },
  ),
  example: { key_id: '5d7c1f7e-2b8a-4c3e-9a61-0f4f3b2d1e55' },
  async handler(ctx, input) {
    const { key, revokedSelf } = await revokeCredential(ctx.db, ctx.workspaceId, input.key_id, ctx.principal, ctx.now);
    return { ...key, revoked: true as const, revoked_at: ctx.now.toISOString(), revoked_self: revokedSelf };
  },
});
