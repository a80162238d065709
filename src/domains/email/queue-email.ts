/**
 * Puts a message in the outbox, inside the caller's transaction: the message commits or rolls back
 * with the change that caused it, and the email worker sends it after the commit. Everything that
 * will become a header is cleaned and bounded here, once, so no stored row can forge one; the
 * Message-ID is made here and sent on every attempt.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { isDeliverableAddress, normalizedAddress } from './deliverable-address.ts';
import { cleanHeaderText, MAX_DISPLAY_NAME_LENGTH, MAX_SUBJECT_LENGTH } from './header-text.ts';

export interface OutgoingEmail {
  /** Null for a message not tied to a workspace (a sign-in link). */
  workspaceId: string | null;
  to: { address: string; name?: string };
  subject: string;
  /** The plain-text part. */
  text: string;
  /** The HTML part (renderEmail makes both). */
  html: string;
  /** What it is for, stored with it: 'invitation', 'sign_in_link', 'owner_setup', … (snake_case). */
  purpose: string;
  /** A link the person needs (an invitation, a sign-in link): written to the log while no SMTP server is configured. */
  link?: string;
  /** A calendar invitation sent with it (an iTIP REQUEST or CANCEL as an iCalendar object): its `text/calendar` part. */
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
}

/** The address cannot be sent to (isDeliverableAddress): callers validate theirs first and say so to the person. */
export class UndeliverableAddressError extends Error {
  override name = 'UndeliverableAddressError';
}

/**
 * The right-hand side of every Message-ID. The id is made inside the caller's transaction, which has
 * no configuration to hand, and must exist before the first attempt: `.invalid` (RFC 2606) is a
 * domain nobody owns, so the ids, unique by their UUID, can never collide with another system's.
 */
export const MESSAGE_ID_DOMAIN = 'cuepoint.invalid';

/** Far above any real message; a body this large is a bug, refused before it fills the outbox. */
const MAX_BODY_LENGTH = 512 * 1024;
const PURPOSE = /^[a-z][a-z0-9_]{0,63}$/;

export async function queueEmail(db: Kysely<Database>, message: OutgoingEmail, now: Date): Promise<{ id: string; messageId: string }> {
  const address = normalizedAddress(message.to.address);
  if (!isDeliverableAddress(address))
    throw new UndeliverableAddressError('An email can only be sent to an address such as name@example.com');
  const subject = cleanHeaderText(message.subject, MAX_SUBJECT_LENGTH);
  if (!subject) throw new TypeError('An email needs a subject');
  if (!PURPOSE.test(message.purpose))
    throw new TypeError(`An email's purpose is a snake_case word, not ${JSON.stringify(message.purpose)}`);
  for (const [part, body] of [
    ['text', message.text],
    ['html', message.html],
  ] as const) {
    if (body.trim() === '' || body.length > MAX_BODY_LENGTH)
      throw new TypeError(`An email's ${part} part must hold 1 to ${MAX_BODY_LENGTH} characters`);
  }
  if (message.link !== undefined && !/^https?:\/\/\S+$/.test(message.link)) throw new TypeError("An email's link must be an http(s) URL");
  if (message.calendar !== undefined) calendarProblem(message.calendar);
  const id = randomUUID();
  const messageId = `<${id}@${MESSAGE_ID_DOMAIN}>`;
  const name = message.to.name === undefined ? '' : cleanHeaderText(message.to.name, MAX_DISPLAY_NAME_LENGTH);
  await db
    .insertInto('email_outbox')
    .values({
      id,
      workspace_id: message.workspaceId,
      message_id: messageId,
      purpose: message.purpose,
      to_address: address,
      to_name: name || null,
      subject,
      text_body: message.text,
      html_body: message.html,
      link: message.link ?? null,
      calendar_method: message.calendar?.method ?? null,
      calendar_body: message.calendar?.content ?? null,
      status: 'queued',
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { id, messageId };
}

/** Far above a one-event invitation; a larger one is a bug. */
const MAX_CALENDAR_LENGTH = 64 * 1024;

/** An invitation is one iCalendar object whose METHOD is the part's method (RFC 6047 §2.4: they must agree). */
function calendarProblem(calendar: { method: string; content: string }): void {
  const { method, content } = calendar;
  if (method !== 'REQUEST' && method !== 'CANCEL')
    throw new TypeError(`A calendar part's method is REQUEST or CANCEL, not ${JSON.stringify(method)}`);
  if (content.length > MAX_CALENDAR_LENGTH || !content.startsWith('BEGIN:VCALENDAR\r\n') || !content.includes(`\r\nMETHOD:${method}\r\n`)) {
    throw new TypeError(
      `A calendar part must be one iCalendar object (at most ${MAX_CALENDAR_LENGTH} characters) whose METHOD is ${method}`,
    );
  }
}
