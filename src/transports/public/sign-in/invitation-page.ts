/**
 * The HTML of an invitation link (DESIGN §10: fields "Name" and "Password", and "Email" when the link
 * names none; button "Accept invitation"). A person already signed in just accepts.
 */

import { accountPage, alertBox, field, hiddenField } from '../http/account-page.ts';
import { escapeHtml } from '../http/page-parts.ts';

export interface InvitationView {
  workspaceName: string;
  role: string;
  /** The address the invitation is for; null for the first owner's link, which asks. */
  invitedEmail: string | null;
  /** Values typed before, and problems by field, when the form comes back. */
  values?: { email?: string; name?: string };
  problems?: Record<string, string>;
  error?: string;
}

const article = (role: string) => (role === 'owner' || role === 'admin' ? 'an' : 'a');

function heading(view: { workspaceName: string; role: string }): string {
  return (
    `<h1>Join ${escapeHtml(view.workspaceName)}</h1>` +
    `<p class="lede">You are invited as ${article(view.role)} <strong>${escapeHtml(view.role)}</strong>. ` +
    'Create your account to accept.</p>'
  );
}

export function newAccountInvitationPage(view: InvitationView): string {
  const problems = view.problems ?? {};
  return accountPage(
    `Join ${view.workspaceName}`,
    heading(view) +
      alertBox(view.error) +
      '<form method="post" novalidate>' +
      (view.invitedEmail === null
        ? field({
            name: 'email',
            label: 'Email',
            type: 'email',
            autocomplete: 'email',
            value: view.values?.email,
            error: problems.email,
            maxlength: 254,
          })
        : `<p class="notice">Your account’s email: <strong>${escapeHtml(view.invitedEmail)}</strong></p>`) +
      field({
        name: 'name',
        label: 'Name',
        type: 'text',
        autocomplete: 'name',
        value: view.values?.name,
        error: problems.name,
        maxlength: 100,
      }) +
      field({
        name: 'password',
        label: 'Password',
        type: 'password',
        autocomplete: 'new-password',
        error: problems.password,
        hint: 'At least 10 characters. A few unrelated words make a strong one.',
        minlength: 10,
        maxlength: 256,
      }) +
      '<button type="submit">Accept invitation</button></form>' +
      `<p class="below">Already have an account? <a href="/sign-in">Sign in</a> first, then open this link again.</p>`,
  );
}

export function signedInInvitationPage(view: InvitationView & { signedInAs: string; csrf: string }): string {
  return accountPage(
    `Join ${view.workspaceName}`,
    `<h1>Join ${escapeHtml(view.workspaceName)}</h1>` +
      `<p class="lede">You are invited as ${article(view.role)} <strong>${escapeHtml(view.role)}</strong>. ` +
      `You are signed in as ${escapeHtml(view.signedInAs)}.</p>` +
      alertBox(view.error) +
      `<form method="post" novalidate>${hiddenField('csrf', view.csrf)}<button type="submit">Accept invitation</button></form>`,
  );
}
