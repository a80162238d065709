/**
 * Authorization codes (issue 29; OAuth 2.1 §4.1.2): what a person allowed on the consent page, waiting
 * for the client to redeem it at the token endpoint. Stored by the SHA-256 of the code (the code itself
 * only travels in the redirect), bound to the client, the redirect URI, the PKCE challenge and the
 * resource, valid for a minute and redeemable once; the row is kept after redemption so a second
 * redemption is recognised as a replay.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table oauth_codes (
      code_hash text primary key,
      client_id text not null references oauth_clients (client_id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      redirect_uri text not null,
      scopes text[] not null,
      code_challenge text not null,
      resource text not null,
      created_at timestamptz(3) not null,
      expires_at timestamptz(3) not null,
      redeemed_at timestamptz(3)
    )
  `.execute(db);
  await sql`create index oauth_codes_expires_idx on oauth_codes (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists oauth_codes`.execute(db);
}
