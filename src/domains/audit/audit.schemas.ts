/** An audit event as list_audit_events answers it. */
import { Type } from 'typebox';
import { Id, Nullable, StringEnum, Timestamp } from '../../core/schemas.ts';

export const AUDIT_ACTOR_KINDS = ['api_key', 'assistant', 'user', 'system', 'cli'] as const;
export const AUDIT_TRANSPORTS = ['rest', 'mcp', 'dashboard', 'cli', 'public', 'stripe', 'oauth'] as const;

export const AuditEvent = Type.Object(
  {
    audit_event_id: Id('The audit event.'),
    at: Timestamp('When the change was made.'),
    actor: Type.Object(
      {
        kind: StringEnum(AUDIT_ACTOR_KINDS, {
          description:
            'api_key or assistant (a credential), user (a person signed in to the dashboard), cli (the cuepoint command line), system (the service itself: public pages, Stripe).',
        }),
        id: Nullable(Type.String({ format: 'uuid', description: 'The credential’s key_id, or the user’s id; null for cli and system.' })),
        name: Type.String({ description: 'The key’s or the person’s name as it was then.' }),
      },
      { additionalProperties: false },
    ),
    action: Type.String({
      description: 'The operation (create_video, reveal_lead, …) or people action (sign_in.failed, member.invited, …).',
    }),
    object: Nullable(
      Type.Object(
        {
          kind: Type.String({ description: 'What the id names: video, lead, api_key, webhook_endpoint, workspace, …' }),
          id: Type.String({ description: 'Its id.' }),
        },
        { additionalProperties: false, description: 'What the change acted on; null when it names no one object.' },
      ),
    ),
    origin: Nullable(
      Type.Object(
        {
          transport: StringEnum(AUDIT_TRANSPORTS, { description: 'rest, mcp, dashboard, cli, public (a public page) or stripe.' }),
          address: Nullable(Type.String({ description: 'The client’s address (through CUEPOINT_TRUSTED_PROXIES); null on public pages.' })),
          user_agent: Nullable(Type.String({ description: 'The client’s User-Agent; null on public pages.' })),
        },
        { additionalProperties: false, description: 'Where the call came from; null when the service acted by itself.' },
      ),
    ),
    details: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), {
      description: 'Ids, counts, statuses, scopes and roles about the change (request_id for API calls); never personal data.',
    }),
  },
  { additionalProperties: false },
);
