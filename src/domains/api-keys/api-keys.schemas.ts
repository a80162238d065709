/**
 * How a credential looks to callers. The secret itself appears only in the create response.
 */
import { type Static, Type } from 'typebox';
import { Id, Nullable, StringEnum, Timestamp } from '../../core/schemas.ts';
import { SCOPES } from '../../core/scopes.ts';

export const CredentialKindSchema = StringEnum(['api_key', 'assistant'] as const, {
  description: 'api_key (cue_live_…) for programs; assistant (cue_asst_…) for AI assistants, expiring by default after 30 days.',
});
export const TierSchema = StringEnum(['read', 'write', 'admin'] as const, {
  description: 'read: only :read scopes; write: any :write scope; admin: includes workspace:manage.',
});
export const ScopeSchema = StringEnum(SCOPES);

export const ApiKey = Type.Object(
  {
    key_id: Id('The key id, for delete_api_key.'),
    name: Type.String(),
    prefix: Type.String({ description: 'The first 12 characters of the key, to recognise it.' }),
    kind: CredentialKindSchema,
    tier: TierSchema,
    scopes: Type.Array(ScopeSchema),
    created_at: Timestamp('When the key was minted.'),
    expires_at: Nullable(Timestamp('When the key stops working; null for never.')),
    last_used_at: Nullable(
      Timestamp('When the key last authenticated a request, to within a minute (refreshed at most once a minute); null if never used.'),
    ),
    created_by: Nullable(
      Type.Object(
        { user_id: Id('The member who minted the key.'), name: Type.String() },
        {
          additionalProperties: false,
          description:
            'The member who minted the key; the key acts with at most their role, and stops working when they leave. ' +
            'null for a key minted on the command line (it acts as an owner).',
        },
      ),
    ),
    resource: Nullable(
      Type.String({
        description:
          'The only resource the key works at (RFC 8707), when bound to one: a connected assistant’s token (allowed by a person through OAuth, ' +
          'named after the assistant) works only at the MCP endpoint and renews itself; null for a key that works everywhere.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ApiKey = Static<typeof ApiKey>;
