/** A message of the outbox as list_emails answers it. */
import { Type } from 'typebox';
import { Id, Nullable, StringEnum, Timestamp } from '../../core/schemas.ts';

export const EMAIL_STATUSES = ['queued', 'sent', 'failed'] as const;

export const Email = Type.Object(
  {
    email_id: Id('The message in the outbox.'),
    message_id: Type.String({ description: 'Its Message-ID header, the same on every attempt.' }),
    purpose: Type.String({ description: 'What it is for: invitation, email_change, …' }),
    to: Type.Object(
      {
        address: Type.String({ description: 'The recipient’s address.' }),
        name: Nullable(Type.String({ description: 'The recipient’s name, as the header carries it.' })),
      },
      { additionalProperties: false },
    ),
    subject: Type.String({ description: 'The subject line.' }),
    text: Type.String({ description: 'The plain-text part, as sent (the HTML part says the same).' }),
    link: Nullable(
      Type.String({ description: 'The link the recipient needs (an invitation’s), to hand over when no mail server is set.' }),
    ),
    status: StringEnum(EMAIL_STATUSES, {
      description:
        'queued (waiting for its next attempt, or for a mail server: CUEPOINT_SMTP_URL), sent, or failed (refused, or out of attempts).',
    }),
    attempts: Type.Integer({ minimum: 0, description: 'Attempts to send it so far.' }),
    last_error: Nullable(Type.String({ description: 'Why the last attempt failed, as the mail server or the network said.' })),
    next_attempt_at: Nullable(Timestamp('When it is due to be tried (again); null once sent or failed. With no mail server it stays due.')),
    sent_at: Nullable(Timestamp('When the mail server accepted it.')),
    created_at: Timestamp('When it was queued.'),
  },
  { additionalProperties: false },
);
