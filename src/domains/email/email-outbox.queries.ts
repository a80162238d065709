/**
 * The outbox as owners read it (the dashboard lists a workspace's messages, sent or not, newest
 * first) and as erasure clears it. Messages not tied to a workspace (sign-in links) belong to no
 * owner's list and are not erased with a workspace's lead.
 */
import { type Kysely, sql } from 'kysely';
import { keysetPage, NEWEST_FIRST } from '../../core/lists/keyset-page.ts';
import type { KeysetRows, SortKey } from '../../core/lists/pagination.ts';
import type { Database, EmailStatus } from '../../db/tables/index.ts';
import { escapeHtml } from './render-email.ts';

/** A message as an owner sees it in the list: its plain-text part, not its HTML. */
export interface QueuedEmail {
  id: string;
  message_id: string;
  purpose: string;
  to_address: string;
  to_name: string | null;
  subject: string;
  text_body: string;
  link: string | null;
  status: EmailStatus;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | null;
  sent_at: Date | null;
  created_at: Date;
}

/** A page of a workspace's messages, newest first; `after` is a cursor's sort key (core/lists/pagination.ts). */
export function listQueuedEmails(
  db: Kysely<Database>,
  workspaceId: string,
  options: { limit: number; after?: SortKey | undefined; status?: EmailStatus },
): Promise<KeysetRows<QueuedEmail>> {
  let filtered = db.selectFrom('email_outbox').where('workspace_id', '=', workspaceId);
  if (options.status) filtered = filtered.where('status', '=', options.status);
  return keysetPage(
    filtered,
    (query) =>
      query.select([
        'id',
        'message_id',
        'purpose',
        'to_address',
        'to_name',
        'subject',
        'text_body',
        'link',
        'status',
        'attempts',
        'last_error',
        'next_attempt_at',
        'sent_at',
        'created_at',
      ]),
    NEWEST_FIRST,
    { limit: options.limit, after: options.after },
  );
}

/**
 * Erasure (GDPR Art. 17): removes every message of the workspace sent to `address` or mentioning it,
 * in any case, in its subject, either part or its link (as written, as HTML writes it, and as a URL
 * encodes it), but not one that names a longer address ending in it (erasing bob@example.com keeps
 * jimbob@example.com's invitation). A message being sent at that moment may still leave once.
 * Answers how many were removed.
 */
export async function eraseEmailsTo(db: Kysely<Database>, workspaceId: string, address: string): Promise<number> {
  const needle = address.trim().toLowerCase();
  // An empty or tiny needle would match every message.
  if (needle.length < 3 || !needle.includes('@')) throw new TypeError('eraseEmailsTo needs an email address');
  const patterns = [...new Set([needle, escapeHtml(needle), encodeURIComponent(needle)])].map(standalone);
  const mentions = (column: 'subject' | 'text_body' | 'html_body' | 'to_name' | 'link') =>
    patterns.map((pattern) => sql<boolean>`${sql.ref(column)} ~* ${pattern}`);
  const result = await db
    .deleteFrom('email_outbox')
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['to_address']), '=', needle),
        ...mentions('subject'),
        ...mentions('text_body'),
        ...mentions('html_body'),
        ...mentions('to_name'),
        ...mentions('link'),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * A PostgreSQL regular expression finding `text` as a whole address: not preceded by a character an
 * address's local part may hold (`=`, `&`, `/` and `?` excepted: in a link they end the part before),
 * nor followed by one that would continue its domain (a sentence's closing full stop does not).
 * Every other character is escaped: in PostgreSQL's expressions a backslash before one that is not a
 * letter or digit stands for that character.
 */
function standalone(text: string): string {
  const literal = text.replace(/[^A-Za-z0-9]/g, '\\$&');
  return `(?<![[:alnum:].!#$%'*+^_\`{|}~-])${literal}(?![[:alnum:]_-]|\\.[[:alnum:]])`;
}
