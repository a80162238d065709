/**
 * delete_api_key: revokes a key at once; the next request with it, on any process, is refused. The
 * row is kept (revoked) for the record.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { Id, Timestamp } from '../../../core/schemas.ts';
import { revokeCredential } from '../api-keys.queries.ts';
import { ApiKey } from '../api-keys.schemas.ts';

export const deleteApiKey = defineOperation({
  name: 'delete_api_key',
  summary: 'Revoke an API key',
  description:
    'Stops an API key or assistant token immediately: every later request with it is refused with 401. This cannot ' +
    'be undone; mint a new key instead. A key may revoke itself.',
  method: 'DELETE',
  path: '/api-keys/{key_id}',
  group: 'API keys',
  scope: 'workspace:manage',
  write: true,
  destructive: true,
  errors: ['not_found'],
  input: Type.Object({ key_id: Id('The key to revoke, from list_api_keys.') }, { additionalProperties: false }),
  output: Type.Object(
    { ...ApiKey.properties, revoked: Type.Literal(true), revoked_at: Timestamp('When the key stopped working.') },
    { additionalProperties: false },
  ),
  example: { key_id: '5d7c1f7e-2b8a-4c3e-9a61-0f4f3b2d1e55' },
  async handler(ctx, input) {
    const key = await revokeCredential(ctx.db, ctx.workspaceId, input.key_id, ctx.now);
    return { ...key, revoked: true as const, revoked_at: ctx.now.toISOString() };
  },
});
