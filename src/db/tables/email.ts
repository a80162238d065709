/** The email outbox: the messages people are sent, which are also the email worker's work queue. */
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types.ts';

/** `queued` until the server accepted it (`sent`) or the worker gave up (`failed`, with `last_error`). */
export type EmailStatus = 'queued' | 'sent' | 'failed';

export interface EmailOutboxTable {
  id: string;
  /** Null for a message that belongs to no workspace (a sign-in link). */
  workspace_id: string | null;
  /** The Message-ID header, angle brackets included: made when queued, the same on every attempt. */
  message_id: string;
  /** What the message is for: 'invitation', 'sign_in_link', … */
  purpose: string;
  to_address: string;
  /** The recipient's display name, already cleaned of anything that could break a header. */
  to_name: string | null;
  /** Cleaned and bounded like to_name. */
  subject: string;
  text_body: string;
  html_body: string;
  /** The link the recipient needs, logged when no SMTP server is configured. */
  link: string | null;
  /** A calendar invitation sent with it (migration 0038): the iTIP method and the iCalendar object, both or neither. */
  calendar_method: ColumnType<'REQUEST' | 'CANCEL' | null, 'REQUEST' | 'CANCEL' | null | undefined, 'REQUEST' | 'CANCEL' | null>;
  calendar_body: ColumnType<string | null, string | null | undefined, string | null>;
  status: EmailStatus;
  /** Attempts started, counted when claimed: the fencing token for recording the attempt's result. */
  attempts: Generated<number>;
  /** When the next attempt is due; null once the message is finished. */
  next_attempt_at: Timestamp | null;
  /** Held by a sender until then; a lapsed lease means the sender died and the message is tried again. */
  lease_until: Timestamp | null;
  locked_by: string | null;
  last_attempt_at: Timestamp | null;
  /** Why the last attempt failed: the server's answer or the connection's error. */
  last_error: string | null;
  /** The server's answer when it accepted the message ("250 OK: queued as …"). */
  server_response: string | null;
  /** When the link was written to the log because no SMTP server was configured. */
  link_logged_at: Timestamp | null;
  sent_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
