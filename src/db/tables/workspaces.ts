/** Workspaces and the credentials that act in them (API keys and assistant tokens). */
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Timestamp } from './column-types.ts';

export interface WorkspacesTable {
  id: string;
  name: string;
  plan: 'free' | 'pro' | 'business';
  mask_pii: Generated<boolean>;
  assistant_guidance: Generated<string>;
  timezone: Generated<string>;
  /** The Stripe webhook signing secret, sealed (ctx.sealedBox(STRIPE_SECRET_PURPOSE), domains/outcomes/stripe-signature.ts); write-only through the API. */
  stripe_signing_secret: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
}

export interface CredentialsTable {
  id: string;
  workspace_id: string;
  kind: 'api_key' | 'assistant';
  name: string;
  prefix: string;
  token_hash: string;
  scopes: string[];
  /** The credential that minted this one. */
  created_by: string | null;
  /** The member who minted it: the key acts with at most their role (null: minted on the command line, acts as an owner). */
  created_by_user: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  /** When it last authenticated a request; refreshed at most once a minute (core/pipeline/credential-use.ts). */
  last_used_at: Timestamp | null;
  /** The only resource it works at (RFC 8707), when bound to one: a connected assistant's is the MCP endpoint. */
  resource: ColumnType<string | null, string | null | undefined, string | null>;
  /** The current token's own end, before the credential's (a connected assistant's access token: an hour). */
  token_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}
