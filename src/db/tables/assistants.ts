/** Connected assistants (migration 0035): the OAuth clients that may ask a person for access. */
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
