/** The HTML of /sign-in (DESIGN §10 names: fields "Email" and "Password", button "Sign in"). */

import { webauthnScriptPath } from '../assets/webauthn-script.ts';
import { accountPage, alertBox, field, hiddenField } from '../http/account-page.ts';
import { escapeHtml } from '../http/page-parts.ts';

export interface SignInView {
  email?: string;
  /** Where to go once signed in (already checked to be one of ours). */
  next?: string;
  error?: string;
  /** A notice that is not an error: "You are signed out." */
  notice?: string;
}

export function signInPage(view: SignInView): string {
  return accountPage(
    'Sign in',
    '<h1>Sign in to Cuepoint</h1><p class="lede">Welcome back. Use the email address you were invited with.</p>' +
      alertBox(view.error) +
      (view.notice ? `<p class="notice" role="status">${escapeHtml(view.notice)}</p>` : '') +
      '<form method="post" action="/sign-in" novalidate>' +
      (view.next ? hiddenField('next', view.next) : '') +
      field({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username webauthn', value: view.email, maxlength: 254 }) +
      field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', maxlength: 256 }) +
      '<button type="submit">Sign in</button></form>' +
      passkeySignIn() +
      '<p class="below"><a href="/sign-in/link">Forgot your password? Email me a sign-in link</a></p>',
  );
}

/**
 * "Use a passkey", hidden until /passkey-sign-in.js finds the browser can (without script the
 * password form is the way in). Not "Sign in with a passkey": "Sign in" is the password form's button
 * (DESIGN §10), and a page should have one button a person (or a test) finds by that name. The Email
 * field's `webauthn` autocomplete lets browsers offer passkeys as it is focused.
 */
function passkeySignIn(): string {
  return (
    '<div class="passkey" id="passkey-sign-in" hidden><p class="divider">or</p>' +
    '<button type="button" class="secondary" id="passkey-button">Use a passkey</button>' +
    '<div id="passkey-message" role="alert"></div></div>' +
    `<script src="${escapeHtml(webauthnScriptPath())}" defer></script><script src="/passkey-sign-in.js" defer></script>`
  );
}
