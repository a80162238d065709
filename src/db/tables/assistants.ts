/** Connected assistants (migrations 0035, 0036): the OAuth clients that may ask a person for access, and the codes people gave them. */
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
}
