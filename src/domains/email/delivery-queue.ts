/**
 * The outbox as the email worker's work queue. Senders claim due messages with FOR UPDATE SKIP
 * LOCKED, counting the attempt and taking a lease, so several processes on one PostgreSQL never hold
 * one message at once; a result is recorded only while the attempt number still matches, so a
 * sender whose lease lapsed (it stalled, or was killed and its message taken over) changes nothing.
 * A message is marked sent only after the server accepted it. Every function takes `now`.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/** What sending a claimed message needs. */
export interface ClaimedEmail {
  id: string;
  workspace_id: string | null;
  message_id: string;
  purpose: string;
  to_address: string;
  to_name: string | null;
  subject: string;
  text_body: string;
  html_body: string;
  calendar_method: 'REQUEST' | 'CANCEL' | null;
  calendar_body: string | null;
  /** This attempt's number: the fencing token for the record functions. */
  attempts: number;
  created_at: Date;
}

/** Claims up to `limit` due messages not leased by a live sender (a lapsed lease is a dead sender's), with attempts left. */
export async function claimDueEmails(
  db: Kysely<Database>,
  options: { workerId: string; leaseMs: number; now: Date; limit: number; maxAttempts: number },
): Promise<ClaimedEmail[]> {
  const { now } = options;
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  const result = await sql<ClaimedEmail>`
    update email_outbox o
    set attempts = o.attempts + 1, lease_until = ${leaseUntil}, locked_by = ${options.workerId},
      last_attempt_at = ${now}, updated_at = ${now}
    where o.id in (
      select id from email_outbox
      where status = 'queued' and next_attempt_at <= ${now}
        and (lease_until is null or lease_until < ${now})
        and attempts < ${options.maxAttempts}
      order by next_attempt_at
      limit ${options.limit}
      for update skip locked
    )
    returning o.id, o.workspace_id, o.message_id, o.purpose, o.to_address, o.to_name, o.subject,
      o.text_body, o.html_body, o.calendar_method, o.calendar_body, o.attempts, o.created_at`.execute(db);
  return result.rows;
}

/** The server accepted the message: it is sent, never to be claimed again. False when the attempt was fenced off. */
export async function recordEmailSent(db: Kysely<Database>, email: ClaimedEmail, serverResponse: string, now: Date): Promise<boolean> {
  const updated = await unfinishedAttempt(db, email)
    .set({
      status: 'sent',
      sent_at: now,
      server_response: serverResponse.slice(0, 1000),
      last_error: null,
      next_attempt_at: null,
      lease_until: null,
      locked_by: null,
      updated_at: now,
    })
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/**
 * The attempt failed: tried again at `retryAt`, or (null) failed for good, with the reason either
 * way. False when the attempt was fenced off.
 */
export async function recordEmailFailure(
  db: Kysely<Database>,
  email: ClaimedEmail,
  failure: { error: string; retryAt: Date | null },
  now: Date,
): Promise<boolean> {
  const updated = await unfinishedAttempt(db, email)
    .set({
      status: failure.retryAt ? 'queued' : 'failed',
      next_attempt_at: failure.retryAt,
      last_error: failure.error.slice(0, 1000),
      lease_until: null,
      locked_by: null,
      updated_at: now,
    })
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

function unfinishedAttempt(db: Kysely<Database>, email: ClaimedEmail) {
  return db.updateTable('email_outbox').where('id', '=', email.id).where('attempts', '=', email.attempts).where('status', '=', 'queued');
}

/**
 * Messages whose senders kept dying: lease lapsed with no attempts left. They end failed, with the
 * reason, rather than waiting forever. Answers how many.
 */
export async function reapAbandonedEmails(db: Kysely<Database>, now: Date, maxAttempts: number): Promise<number> {
  const result = await db
    .updateTable('email_outbox')
    .set({
      status: 'failed',
      next_attempt_at: null,
      lease_until: null,
      locked_by: null,
      last_error: 'The sender stopped before recording the last attempt’s result; the message may or may not have been sent.',
      updated_at: now,
    })
    .where('status', '=', 'queued')
    .where('lease_until', '<', now)
    .where('attempts', '>=', maxAttempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A queued message's link, for the log while no SMTP server is configured. */
export interface UnsentLink {
  id: string;
  workspace_id: string | null;
  purpose: string;
  to_address: string;
  link: string;
}

/**
 * Hands up to `limit` links not yet logged to `log`, and marks them logged in the same transaction:
 * processes sharing a database take different rows (SKIP LOCKED), and a process killed before its
 * commit leaves them to be logged again, so a link is logged once, or at worst twice, never not at all.
 */
export async function logUnsentLinks(
  db: Kysely<Database>,
  options: { now: Date; limit: number },
  log: (link: UnsentLink) => void,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('email_outbox')
      .select(['id', 'workspace_id', 'purpose', 'to_address', 'link'])
      .where('status', '=', 'queued')
      .where('link', 'is not', null)
      .where('link_logged_at', 'is', null)
      .orderBy('created_at')
      .limit(options.limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (rows.length === 0) return 0;
    for (const row of rows) log({ ...row, link: row.link ?? '' });
    await trx
      .updateTable('email_outbox')
      .set({ link_logged_at: options.now })
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    return rows.length;
  });
}
