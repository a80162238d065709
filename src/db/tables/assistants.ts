/** Connected assistants (migrations 0035 to 0037): the OAuth clients that may ask a person for access, the codes people gave them, and the grants codes became. */
import type { ColumnType } from 'kysely';
import type { Json, Timestamp } from './column-types.ts';

export type OAuthClientRegistration = 'dynamic' | 'metadata_document';

export interface OAuthClientsTable {
  /** `cue_client_…` for a registered client; the document's https URL for a metadata-document client. */
  client_id: string;
  registration: OAuthClientRegistration;
  client_name: string;
  client_uri: string | null;
  /** A JSON array of the exact redirect URIs the client may use. */
  redirect_uris: Json;
  created_at: Timestamp;
  /** Metadata-document clients: when the document was last read, and until when that reading holds. */
  fetched_at: Timestamp | null;
  fresh_until: Timestamp | null;
  last_used_at: Timestamp | null;
}

export interface OAuthCodesTable {
  /** SHA-256 (hex) of the code; the code itself is never stored. */
  code_hash: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  redirect_uri: string;
  scopes: string[];
  /** The PKCE S256 challenge the code's verifier must answer. */
  code_challenge: string;
  resource: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  redeemed_at: Timestamp | null;
  /** The grant its redemption made: ended if the code is ever presented again. */
  grant_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface OAuthGrantsTable {
  id: string;
  /** The credential (kind `assistant`) whose token is the grant's current access token. */
  credential_id: string;
  client_id: string;
  workspace_id: string;
  /** The person who allowed it: the credential's `created_by_user`. */
  user_id: string;
  created_at: Timestamp;
  refreshed_at: Timestamp | null;
}

export interface OAuthRefreshTokensTable {
  /** SHA-256 (hex) of the refresh token. */
  token_hash: string;
  grant_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** Set when it is exchanged; presenting it again after that ends the grant. */
  used_at: Timestamp | null;
}
