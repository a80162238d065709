/**
 * Sends one claimed message through the configured SMTP server with nodemailer, and says what came
 * of it: accepted (the server took responsibility for it), a temporary failure (a 4xx answer, a
 * connection or TLS problem, credentials refused: worth trying again later) or a permanent one (a
 * 5xx answer to the message or its recipient: trying again would be refused again). nodemailer is
 * loaded on first use, so a process with no SMTP server configured never loads it.
 */
import type { ClaimedEmail } from './delivery-queue.ts';
import { cleanHeaderText, MAX_DISPLAY_NAME_LENGTH, MAX_SUBJECT_LENGTH } from './header-text.ts';
import type { MailFrom, SmtpSettings } from './mail-settings.ts';

export type SendOutcome = { kind: 'accepted'; response: string } | { kind: 'temporary' | 'permanent'; error: string };

export interface SmtpSender {
  send(email: ClaimedEmail): Promise<SendOutcome>;
  close(): void;
}

/** The longest one message may take, connecting included; the lease outlasts it (see the worker). */
export const SEND_DEADLINE_MS = 120_000;

/** What nodemailer's errors carry (errors.d.ts NodemailerError), read defensively. */
interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

export async function createSmtpSender(smtp: SmtpSettings, from: MailFrom): Promise<SmtpSender> {
  const nodemailer = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.requireTls,
    auth: smtp.auth ?? undefined,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    // The messages are ours and hold no attachments (a calendar part is given as text): nothing may make
    // nodemailer read a file or a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(email) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<SendOutcome>((resolve) => {
        timer = setTimeout(
          () => resolve({ kind: 'temporary', error: `No answer from the SMTP server within ${SEND_DEADLINE_MS / 1000} s` }),
          SEND_DEADLINE_MS,
        );
      });
      const attempt = transport
        .sendMail({
          from: { name: from.name ?? '', address: from.address },
          to: { name: cleanHeaderText(email.to_name ?? '', MAX_DISPLAY_NAME_LENGTH), address: email.to_address },
          subject: cleanHeaderText(email.subject, MAX_SUBJECT_LENGTH),
          text: email.text_body,
          html: email.html_body,
          // A calendar invitation: nodemailer adds it as the text/calendar alternative, method and all.
          ...(email.calendar_method && email.calendar_body
            ? { icalEvent: { method: email.calendar_method, content: email.calendar_body, filename: 'invitation.ics' } }
            : {}),
          messageId: email.message_id,
          date: email.created_at,
          // RFC 3834: sent by a program, so vacation responders and auto-replies leave it alone.
          headers: { 'Auto-Submitted': 'auto-generated' },
        })
        .then((info): SendOutcome => ({ kind: 'accepted', response: String(info.response ?? '') }))
        .catch((error: unknown) => failureOf(error));
      try {
        return await Promise.race([attempt, deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      transport.close();
    },
  };
}

/**
 * 5xx is permanent (RFC 5321 §4.2.1), except 503 (bad sequence: our side's confusion, not the
 * message's). Refused credentials are the service's setting, not the message's fault: temporary, so
 * the messages wait for the operator to fix the password instead of failing one by one. Anything
 * without an SMTP answer (connection refused, timeout, TLS) is temporary.
 */
export function failureOf(error: unknown): SendOutcome {
  const smtp = (typeof error === 'object' && error !== null ? error : {}) as SmtpError;
  const code = smtp.responseCode;
  const detail = (smtp.response ?? smtp.message ?? String(error)).replace(/\s+/g, ' ').trim();
  const text = smtp.code ? `${smtp.code}: ${detail}` : detail;
  const permanent = code !== undefined && code >= 500 && code < 600 && code !== 503 && smtp.code !== 'EAUTH';
  return { kind: permanent ? 'permanent' : 'temporary', error: text };
}
