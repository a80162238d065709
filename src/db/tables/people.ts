/** People (migration 0029): users, memberships, invitations, sessions, one-time tokens, passkeys, failed sign-ins. */
import type { ColumnType } from 'kysely';
import type { Count, Timestamp } from './column-types.ts';

export type MemberRole = 'owner' | 'admin' | 'member' | 'viewer';

export interface UsersTable {
  id: string;
  /** Lower-cased: one account per address whatever case it is typed in. */
  email: string;
  name: string;
  /** argon2id PHC string; null for an account that signs in only with passkeys or links. */
  password_hash: string | null;
  password_changed_at: Timestamp | null;
  /** Sealed (core/secrets/sealed-box.ts); set while enrolling, in force once totp_enabled_at is set. */
  totp_secret: string | null;
  totp_enabled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MembersTable {
  id: string;
  workspace_id: string;
  user_id: string;
  role: MemberRole;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InvitationsTable {
  id: string;
  workspace_id: string;
  /** Null for the first-start owner link, whose page asks for the email. */
  email: string | null;
  role: MemberRole;
  token_hash: string;
  invited_by_user: string | null;
  invited_by_credential: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  accepted_by: string | null;
  revoked_at: Timestamp | null;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  /** The workspace the person is working in; they switch between their memberships. */
  workspace_id: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  /** The absolute end (30 days after sign-in); the idle end is last_seen_at + 7 days. */
  expires_at: Timestamp;
  ended_at: Timestamp | null;
  address: string | null;
  user_agent: string | null;
}

export type OneTimePurpose = 'sign_in_link' | 'email_change' | 'second_factor' | 'passkey_registration' | 'passkey_sign_in';

export interface OneTimeTokensTable {
  token_hash: string;
  purpose: OneTimePurpose;
  user_id: string | null;
  email: string | null;
  challenge: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface PasskeysTable {
  id: string;
  user_id: string;
  /** base64url, as WebAuthn names it. */
  credential_id: string;
  public_key: Uint8Array;
  counter: Count;
  transports: ColumnType<string[], string[] | undefined, string[]>;
  device_type: string;
  backed_up: boolean;
  name: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

export interface SignInFailuresTable {
  id: string;
  /** HMAC of the lower-cased email: counts an account's failures without keeping the address typed. */
  account_key: string;
  /** HMAC of the client address. */
  address_key: string;
  at: Timestamp;
}
