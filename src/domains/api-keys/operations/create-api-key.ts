/**
 * create_api_key: mints an API key or assistant token with access equal to or lower than the caller's,
 * scopes and lifetime alike: a key never outlives the credential that minted it. Writes one credential
 * row (only its SHA-256 is kept); the secret is in this response and nowhere else.
 */
import { Type } from 'typebox';
import { AppError } from '../../../core/errors.ts';
import { defineOperation } from '../../../core/operation.ts';
import { NOT_BLANK, Timestamp } from '../../../core/schemas.ts';
import { mintCredential } from '../api-keys.queries.ts';
import { ApiKey, CredentialKindSchema, ScopeSchema } from '../api-keys.schemas.ts';
import { parseRequestedScopes } from '../requested-scopes.ts';

const ASSISTANT_DEFAULT_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export const createApiKey = defineOperation({
  name: 'create_api_key',
  summary: 'Mint an API key',
  description:
    'Creates an API key (or, with kind=assistant, an assistant token) with the given scopes, which must all be held ' +
    'by the calling credential. `scope` is a tier (read, write, admin), a space-separated list of scope names, or an ' +
    'array of them; default read. A credential that expires cannot mint a key that outlives it: a later expires_at is ' +
    'refused (403), and without expires_at the new key expires with the caller. The key value is returned in this ' +
    'response only: store it now.',
  method: 'POST',
  path: '/api-keys',
  group: 'API keys',
  scope: 'workspace:manage',
  write: true,
  status: 201,
  errors: [],
  input: Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100, ...NOT_BLANK, description: 'What the key is for.' }),
      scope: Type.Optional(
        Type.Union(
          [Type.String({ minLength: 1, maxLength: 500 }), Type.Array(ScopeSchema, { minItems: 1, maxItems: 12, uniqueItems: true })],
          {
            description: 'A tier (read, write, admin), scope names separated by spaces, or an array of scope names.',
          },
        ),
      ),
      kind: Type.Optional(CredentialKindSchema),
      expires_at: Type.Optional(
        Timestamp(
          'When the key stops working; at most the calling credential’s own expiry. Default: never for API keys, 30 days ' +
            'for assistant tokens, and never later than the calling credential expires.',
        ),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    { ...ApiKey.properties, key: Type.String({ description: 'The secret. Shown once; only its hash is stored.' }) },
    { additionalProperties: false },
  ),
  example: { name: 'Reporting dashboard', scope: 'videos:read analytics:read' },
  async handler(ctx, input) {
    const scopes = parseRequestedScopes(input.scope);
    const missing = scopes.find((s) => !ctx.principal.scopes.has(s));
    if (missing) {
      throw new AppError('forbidden', `A key can only get scopes its creator holds; this credential lacks ${missing}.`, {
        required_scope: missing,
      });
    }
    const kind = input.kind ?? 'api_key';
    const expiresAt = lifetimeOf(kind, input.expires_at, ctx.principal.expiresAt, ctx.now);
    const { key, token } = await mintCredential(ctx.db, {
      workspaceId: ctx.workspaceId,
      name: input.name.trim(),
      kind,
      scopes,
      expiresAt,
      // A person's key is minted by them, not by a credential; a key's by that key and its minting member.
      createdBy: ctx.principal.kind === 'user' ? null : ctx.principal.credentialId,
      createdByUser: ctx.principal.userId,
      now: ctx.now,
    });
    return { ...key, key: token };
  },
});

/**
 * When the new key expires. The caller's own expiry is a ceiling, like its scopes: asking past it is
 * refused (the caller learns the latest time allowed), and the default never goes past it.
 */
function lifetimeOf(kind: 'api_key' | 'assistant', requested: string | undefined, ceiling: Date | null, now: Date): Date | null {
  if (requested !== undefined) {
    const at = new Date(requested);
    if (at.getTime() <= now.getTime()) throw AppError.invalid([{ field: 'expires_at', problem: 'must be in the future' }]);
    if (ceiling && at.getTime() > ceiling.getTime()) {
      throw new AppError(
        'forbidden',
        `A key cannot outlive the credential that mints it: this credential expires at ${ceiling.toISOString()}, so ` +
          `expires_at can be at most that. Leave expires_at out to get exactly that, or mint with a credential that lasts longer.`,
        { latest_expires_at: ceiling.toISOString() },
      );
    }
    return at;
  }
  const byKind = kind === 'assistant' ? new Date(now.getTime() + ASSISTANT_DEFAULT_LIFETIME_MS) : null;
  if (!ceiling) return byKind;
  return byKind && byKind.getTime() < ceiling.getTime() ? byKind : ceiling;
}
