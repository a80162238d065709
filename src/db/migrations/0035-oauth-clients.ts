/**
 * The applications that may ask a person to connect an assistant (issue 29, DESIGN §10 "Connected
 * assistants"): one row per OAuth client, whether it registered itself (RFC 7591) or is known by its
 * client ID metadata document (its `client_id` is the document's https URL; the row caches what the
 * document said until `fresh_until`). Clients are public: no secret is ever issued or stored.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table oauth_clients (
      client_id text primary key,
      registration text not null check (registration in ('dynamic', 'metadata_document')),
      client_name text not null,
      client_uri text,
      redirect_uris jsonb not null,
      created_at timestamptz(3) not null,
      fetched_at timestamptz(3),
      fresh_until timestamptz(3),
      last_used_at timestamptz(3)
    )
  `.execute(db);
  // Registration is open to anyone: unused registrations are swept by age (clients.queries.ts).
  await sql`create index oauth_clients_unused_idx on oauth_clients (created_at) where last_used_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists oauth_clients`.execute(db);
}
