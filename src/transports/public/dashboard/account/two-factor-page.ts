/**
 * /app/account/two-factor: the TOTP second factor of password sign-ins, in its three states. Off: what
 * it is and a button to set it up. Set up but not confirmed: the setup key grouped for typing, an
 * otpauth:// link for an app on this device, and the code that turns it on. On: since when, and the
 * form that turns it off with the password or a current code.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import type { Frame } from '../frame/dashboard-page.ts';
import { alertBox, dayOf, hiddenCsrf, noticeBox, signInMethodsPage } from './sign-in-methods-page.ts';

export type TwoFactorView = {
  frame: Frame;
  notice?: string;
  error?: string;
} & (
  | { state: 'off'; hasPassword: boolean }
  | { state: 'pending'; email: string; groupedKey: string; uri: string }
  | { state: 'on'; since: Date; hasPassword: boolean }
);

export function twoFactorPage(view: TwoFactorView): string {
  return signInMethodsPage(
    view.frame,
    'two-factor',
    'Two-factor authentication',
    'With two-factor authentication on, signing in with your password also asks for a 6-digit code from an authenticator app on your phone. Passkeys and emailed sign-in links do not ask for it.',
    noticeBox(view.notice) + alertBox(view.state === 'pending' ? undefined : view.error) + body(view),
  );
}

function body(view: TwoFactorView): string {
  const csrf = hiddenCsrf(view.frame.csrf);
  switch (view.state) {
    case 'off':
      return (
        '<section aria-labelledby="status-heading"><h2 id="status-heading">Status</h2>' +
        '<p class="status-row"><span class="badge">Off</span><span>Your password alone signs you in.</span></p>' +
        (view.hasPassword
          ? ''
          : '<p class="hint">Your account has no password yet, so a code would not be asked for until it has one.</p>') +
        '<p>You need an authenticator app, such as Google Authenticator, Microsoft Authenticator, 1Password, Bitwarden or Aegis.</p>' +
        `<form method="post" action="/app/account/two-factor/setup">${csrf}<button type="submit" class="primary">Set up two-factor authentication</button></form>` +
        '</section>'
      );
    case 'pending': {
      const invalid = view.error !== undefined;
      return (
        '<section aria-labelledby="setup-heading"><h2 id="setup-heading">Set up your authenticator app</h2><ol class="steps">' +
        '<li><h3>Add Cuepoint to the app</h3>' +
        `<p>On this device, <a href="${escapeHtml(view.uri)}">open the authenticator app</a>. On your phone, choose to enter a setup key, and type:</p>` +
        `<p class="setup-key" id="setup-key">${escapeHtml(view.groupedKey)}</p>` +
        `<p class="hint">Account: ${escapeHtml(view.email)} · Time-based · 6 digits</p></li>` +
        '<li><h3>Enter the code the app shows</h3>' +
        `<form class="stack" method="post" action="/app/account/two-factor/confirm" novalidate>${csrf}` +
        '<label class="field" for="f-code">6-digit code' +
        '<input id="f-code" name="code" type="text" class="code" inputmode="numeric" autocomplete="one-time-code" maxlength="9" required' +
        (invalid ? ' aria-invalid="true" aria-describedby="f-code-error"' : '') +
        '>' +
        (invalid ? `<span class="field-error" id="f-code-error">${escapeHtml(view.error as string)}</span>` : '') +
        '</label><div class="buttons"><button type="submit" class="primary">Turn on</button>' +
        // The same form's token, sent to …/cancel: no code needed to give up.
        '<button type="submit" formaction="/app/account/two-factor/cancel" formnovalidate>Cancel setup</button></div></form></li></ol>' +
        '</section>'
      );
    }
    case 'on':
      return (
        '<section aria-labelledby="status-heading"><h2 id="status-heading">Status</h2>' +
        `<p class="status-row"><span class="badge on">On</span><span>Since ${dayOf(view.since)}. Signing in with your password also asks for a code.</span></p>` +
        '</section>' +
        '<section aria-labelledby="off-heading"><h2 id="off-heading">Turn off two-factor authentication</h2>' +
        `<form class="stack" method="post" action="/app/account/two-factor/disable" novalidate>${csrf}` +
        `<label class="field" for="f-proof">${view.hasPassword ? 'Your password or a 6-digit code' : 'A 6-digit code'}` +
        '<span class="hint" id="f-proof-hint">So nobody else at this browser can turn it off.</span>' +
        '<input id="f-proof" name="proof" type="password" autocomplete="current-password" maxlength="256" required aria-describedby="f-proof-hint"></label>' +
        '<button type="submit" class="quiet-danger">Turn off two-factor authentication</button></form></section>'
      );
  }
}
