/**
 * People (issue 27, DESIGN §10): users and their sign-in methods, memberships with a role, invitations,
 * server-side sessions, one-time tokens (emailed sign-in links, email changes, second-factor and
 * passkey ceremonies) and the failed sign-ins the lockout counts. Secrets are stored only as SHA-256
 * hashes (session ids, invitation and one-time tokens) or sealed (TOTP secrets).
 *
 * `credentials.created_by_user` is the member who minted a key: the key acts with at most that member's
 * role, and with none once the member is removed. Null for keys minted on the command line and the
 * first key of a workspace, which act as an owner.
 */
import { type Kysely, sql } from 'kysely';

const ROLE_CHECK = `check (role in ('owner', 'admin', 'member', 'viewer'))`;

const statements = [
  `create table users (
    id uuid primary key,
    email text not null,
    name text not null,
    password_hash text,
    password_changed_at timestamptz(3),
    totp_secret text,
    totp_enabled_at timestamptz(3),
    created_at timestamptz(3) not null,
    updated_at timestamptz(3) not null
  )`,
  'create unique index users_email on users (email)',
  `create table members (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    user_id uuid not null references users(id) on delete cascade,
    role text not null ${ROLE_CHECK},
    created_at timestamptz(3) not null,
    updated_at timestamptz(3) not null,
    unique (workspace_id, user_id)
  )`,
  'create index members_user on members (user_id)',
  `create table invitations (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    email text,
    role text not null ${ROLE_CHECK},
    token_hash text not null unique,
    invited_by_user uuid references users(id) on delete set null,
    invited_by_credential uuid references credentials(id) on delete set null,
    created_at timestamptz(3) not null,
    expires_at timestamptz(3) not null,
    accepted_at timestamptz(3),
    accepted_by uuid references users(id) on delete set null,
    revoked_at timestamptz(3)
  )`,
  'create index invitations_workspace on invitations (workspace_id, created_at)',
  `create table sessions (
    id uuid primary key,
    token_hash text not null unique,
    user_id uuid not null references users(id) on delete cascade,
    workspace_id uuid references workspaces(id) on delete set null,
    created_at timestamptz(3) not null,
    last_seen_at timestamptz(3) not null,
    expires_at timestamptz(3) not null,
    ended_at timestamptz(3),
    address text,
    user_agent text
  )`,
  'create index sessions_user on sessions (user_id) where ended_at is null',
  `create table one_time_tokens (
    token_hash text primary key,
    purpose text not null check (purpose in ('sign_in_link', 'email_change', 'second_factor', 'passkey_registration', 'passkey_sign_in')),
    user_id uuid references users(id) on delete cascade,
    email text,
    challenge text,
    created_at timestamptz(3) not null,
    expires_at timestamptz(3) not null,
    used_at timestamptz(3)
  )`,
  'create index one_time_tokens_user on one_time_tokens (user_id)',
  `create table passkeys (
    id uuid primary key,
    user_id uuid not null references users(id) on delete cascade,
    credential_id text not null unique,
    public_key bytea not null,
    counter bigint not null,
    transports text[] not null default '{}',
    device_type text not null,
    backed_up boolean not null,
    name text not null,
    created_at timestamptz(3) not null,
    last_used_at timestamptz(3)
  )`,
  'create index passkeys_user on passkeys (user_id)',
  `create table sign_in_failures (
    id uuid primary key,
    account_key text not null,
    address_key text not null,
    at timestamptz(3) not null
  )`,
  'create index sign_in_failures_account on sign_in_failures (account_key, at)',
  'create index sign_in_failures_address on sign_in_failures (address_key, at)',
  'alter table credentials add column created_by_user uuid references users(id)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table credentials drop column if exists created_by_user`.execute(db);
  for (const table of ['sign_in_failures', 'passkeys', 'one_time_tokens', 'sessions', 'invitations', 'members', 'users']) {
    await sql.raw(`drop table if exists ${table}`).execute(db);
  }
}
