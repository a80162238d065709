/**
 * Connected assistants' grants (issue 29): what a person allowed a client, once its code was redeemed.
 * A grant's access token is a credential row of kind `assistant` (so list_api_keys shows it and
 * delete_api_key stops it), bound to the resource it was issued for (RFC 8707: the MCP endpoint;
 * `credentials.resource`), and carrying, besides the credential's own end (the grant's, moved forward
 * by each refresh), the current token's shorter end (`credentials.token_expires_at`: an hour). A
 * refresh replaces the credential's token hash. Refresh tokens are kept by hash, used once each; a
 * code remembers the grant it made, so a replayed code can end it. The token endpoint's calls are
 * audited with their own origin, `oauth`.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table credentials add column resource text, add column token_expires_at timestamptz(3)`.execute(db);
  await sql`
    create table oauth_grants (
      id uuid primary key,
      credential_id uuid not null unique references credentials (id) on delete cascade,
      client_id text not null references oauth_clients (client_id) on delete cascade,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      created_at timestamptz(3) not null,
      refreshed_at timestamptz(3)
    )
  `.execute(db);
  await sql`create index oauth_grants_workspace_idx on oauth_grants (workspace_id)`.execute(db);
  await sql`create index oauth_grants_user_idx on oauth_grants (user_id)`.execute(db);
  await sql`
    create table oauth_refresh_tokens (
      token_hash text primary key,
      grant_id uuid not null references oauth_grants (id) on delete cascade,
      created_at timestamptz(3) not null,
      expires_at timestamptz(3) not null,
      used_at timestamptz(3)
    )
  `.execute(db);
  await sql`create index oauth_refresh_tokens_grant_idx on oauth_refresh_tokens (grant_id)`.execute(db);
  await sql`create index oauth_refresh_tokens_expires_idx on oauth_refresh_tokens (expires_at)`.execute(db);
  await sql`alter table oauth_codes add column grant_id uuid references oauth_grants (id) on delete set null`.execute(db);
  await sql`
    alter table audit_events drop constraint audit_events_origin_transport_check,
      add constraint audit_events_origin_transport_check
        check (origin_transport in ('rest', 'mcp', 'dashboard', 'cli', 'public', 'stripe', 'oauth'))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from audit_events where origin_transport = 'oauth'`.execute(db);
  await sql`
    alter table audit_events drop constraint audit_events_origin_transport_check,
      add constraint audit_events_origin_transport_check
        check (origin_transport in ('rest', 'mcp', 'dashboard', 'cli', 'public', 'stripe'))
  `.execute(db);
  await sql`alter table oauth_codes drop column if exists grant_id`.execute(db);
  await sql`drop table if exists oauth_refresh_tokens`.execute(db);
  await sql`drop table if exists oauth_grants`.execute(db);
  await sql`alter table credentials drop column if exists resource, drop column if exists token_expires_at`.execute(db);
}
