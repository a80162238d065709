/**
 * The audit log (issue 27, DESIGN §10): one row per change a person, key, assistant, the command
 * line or the service itself made in a workspace, written in the transaction of the change. Rows
 * name their actor and object by id and kind; they hold no personal data of a lead (no email, name
 * or phone, and no address of a public visitor), so erasing a lead leaves nothing of them here.
 *
 * `sequence` orders events written in the same millisecond (one transaction's events share `at`) in
 * the order they were written, and makes the keyset order `(at, sequence)` total. The indexes serve
 * the list, newest first per workspace, and each of its filters: by actor, by object, by action.
 */
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table audit_events (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    sequence bigint generated always as identity,
    at timestamptz(3) not null,
    actor_kind text not null check (actor_kind in ('api_key', 'assistant', 'user', 'system', 'cli')),
    actor_id uuid,
    actor_name text not null,
    action text not null,
    object_kind text,
    object_id text,
    origin_transport text check (origin_transport in ('rest', 'mcp', 'dashboard', 'cli', 'public', 'stripe')),
    origin_address text,
    origin_user_agent text,
    details jsonb not null default '{}' check (jsonb_typeof(details) = 'object'),
    check ((object_kind is null) = (object_id is null)),
    check (origin_transport is not null or (origin_address is null and origin_user_agent is null))
  )`,
  'create index audit_events_newest on audit_events (workspace_id, at desc, sequence desc)',
  'create index audit_events_by_actor on audit_events (workspace_id, actor_id, at desc, sequence desc) where actor_id is not null',
  'create index audit_events_by_object on audit_events (workspace_id, object_id, at desc, sequence desc) where object_id is not null',
  'create index audit_events_by_action on audit_events (workspace_id, action, at desc, sequence desc)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists audit_events`.execute(db);
}
