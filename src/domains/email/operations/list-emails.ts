/**
 * list_emails: the workspace's outbox, newest first, sent or not (DESIGN §10: with no mail server
 * configured nothing is lost, and the owner reads the messages in the dashboard). For owners and admins
 * signed in to the dashboard only: a message may hold a link with a one-time secret (an invitation's),
 * which no key or assistant should be able to read. Messages that belong to no workspace (a person's
 * sign-in link) are not listed.
 */
import { Type } from 'typebox';
import { ListOutput, PaginationInput, paginate } from '../../../core/lists/pagination.ts';
import { defineOperation } from '../../../core/operation.ts';
import { StringEnum } from '../../../core/schemas.ts';
import { EMAIL_STATUSES, Email } from '../email.schemas.ts';
import { listQueuedEmails } from '../email-outbox.queries.ts';

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export const listEmails = defineOperation({
  name: 'list_emails',
  summary: 'List the workspace’s emails',
  description:
    'Lists the messages the workspace sent or will send (invitations, …), newest first, with their status: queued, ' +
    'sent or failed, the attempts made and the last error. With no mail server configured (CUEPOINT_SMTP_URL) messages ' +
    'wait here as queued, and their links can be handed over by hand. For owners and admins signed in to the dashboard ' +
    'only: a message may hold a one-time link, which no key or assistant may read.',
  method: 'GET',
  path: '/emails',
  group: 'Email',
  scope: 'workspace:manage',
  write: false,
  dashboardOnly: true,
  errors: [],
  input: Type.Object(
    {
      status: Type.Optional(StringEnum(EMAIL_STATUSES, { description: 'Only messages in this status.' })),
      ...PaginationInput,
    },
    { additionalProperties: false },
  ),
  output: ListOutput('emails', Email),
  example: { status: 'queued', limit: 20 },
  async handler(ctx, input) {
    const filters = { status: input.status };
    const page = await paginate(ctx.cursors, input, filters, async (request) => {
      const { rows, keys, total } = await listQueuedEmails(ctx.db, ctx.workspaceId, {
        limit: request.limit,
        after: request.after,
        ...(input.status && { status: input.status }),
      });
      return {
        keys,
        total,
        rows: rows.map((row) => ({
          email_id: row.id,
          message_id: row.message_id,
          purpose: row.purpose,
          to: { address: row.to_address, name: row.to_name },
          subject: row.subject,
          text: row.text_body,
          link: row.link,
          status: row.status,
          attempts: row.attempts,
          last_error: row.last_error,
          next_attempt_at: iso(row.next_attempt_at),
          sent_at: iso(row.sent_at),
          created_at: row.created_at.toISOString(),
        })),
      };
    });
    return { emails: page.items, pagination: page.pagination };
  },
});
