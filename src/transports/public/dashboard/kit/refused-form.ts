/** The answer to a dashboard form that did not come from our own page (another origin, or no valid CSRF token). */
import type { FastifyReply } from 'fastify';
import { ACCOUNT_HEADERS, messagePage } from '../../http/account-page.ts';

export function refusedForm(reply: FastifyReply): FastifyReply {
  return reply
    .code(403)
    .headers(ACCOUNT_HEADERS)
    .send(
      messagePage(
        'Not sent from Cuepoint',
        'This request did not come from a Cuepoint page (or the page was too old), so nothing changed. Go back, reload, and try again.',
        {
          href: '/app',
          label: 'Back to the dashboard',
        },
      ),
    );
}
