/** The pages of emailed sign-in links: asking for one, "check your email", and confirming one. */

import { accountPage, alertBox, field, hiddenField } from '../http/account-page.ts';
import { escapeHtml } from '../http/page-parts.ts';

export function askForLinkPage(view: { email?: string; error?: string } = {}): string {
  return accountPage(
    'Email me a sign-in link',
    '<h1>Sign in with an emailed link</h1><p class="lede">Forgot your password? We will email you a link that signs you in; then set a new password on your account page.</p>' +
      alertBox(view.error) +
      '<form method="post" action="/sign-in/link" novalidate>' +
      field({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: view.email, maxlength: 254 }) +
      '<button type="submit">Email me a sign-in link</button></form>' +
      '<p class="below"><a href="/sign-in">Back to sign-in</a></p>',
  );
}

export function linkSentPage(email: string): string {
  return accountPage(
    'Check your email',
    '<h1>Check your email</h1>' +
      `<p class="lede" role="status">If an account uses <strong>${escapeHtml(email)}</strong>, a sign-in link is on its way. It works once, for 15 minutes.</p>` +
      '<p class="below">Nothing after a few minutes? Check your spam folder, or <a href="/sign-in/link">ask again</a>.</p>',
  );
}

/** Following a link signs in only after a press: mail scanners that open links must not use them up. */
export function confirmLinkPage(email: string): string {
  return accountPage(
    'Sign in',
    `<h1>Sign in to Cuepoint</h1><p class="lede">Continue as <strong>${escapeHtml(email)}</strong>.</p>` +
      '<form method="post" novalidate><button type="submit">Sign in</button></form>',
  );
}

export function confirmEmailChangePage(email: string, error?: string): string {
  return accountPage(
    'Confirm your new email',
    `<h1>Confirm your new email</h1><p class="lede">Your account will use <strong>${escapeHtml(email)}</strong> from now on.</p>` +
      alertBox(error) +
      `<form method="post" novalidate>${hiddenField('confirm', '1')}<button type="submit">Confirm new email</button></form>`,
  );
}
