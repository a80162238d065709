/**
 * The email outbox (issue 27): one row per message, written in the transaction of the change that
 * causes it and sent by the email worker. The row is at once what owners read and the sender's work
 * item, with its own lease columns (`lease_until`, `locked_by`, `attempts` as the fencing token), as
 * webhook deliveries are. `message_id` is made when the message is queued and sent on every attempt,
 * so a copy resent after a crash is recognisable. `workspace_id` is null for a message that belongs to
 * no workspace (a sign-in link). `link_logged_at` marks a message whose link was written to the log
 * because no SMTP server is configured, so it is logged once.
 */
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table email_outbox (
    id uuid primary key,
    workspace_id uuid references workspaces(id) on delete cascade,
    message_id text not null unique,
    purpose text not null,
    to_address text not null,
    to_name text,
    subject text not null,
    text_body text not null,
    html_body text not null,
    link text,
    status text not null check (status in ('queued', 'sent', 'failed')),
    attempts integer not null default 0,
    next_attempt_at timestamptz(3),
    lease_until timestamptz(3),
    locked_by text,
    last_attempt_at timestamptz(3),
    last_error text,
    server_response text,
    link_logged_at timestamptz(3),
    sent_at timestamptz(3),
    created_at timestamptz(3) not null,
    updated_at timestamptz(3) not null
  )`,
  // The sender only ever searches queued messages that are due.
  `create index email_outbox_due_idx on email_outbox (next_attempt_at) where status = 'queued'`,
  // Links still to be logged while no SMTP server is configured.
  `create index email_outbox_unlogged_links_idx on email_outbox (created_at) where link is not null and link_logged_at is null and status = 'queued'`,
  'create index email_outbox_workspace_idx on email_outbox (workspace_id, created_at desc, id desc)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists email_outbox`.execute(db);
}
