/**
 * The HTML of /app/account: the person's name, email, password, sign-in methods and sessions. Each
 * section is a form of its own posting back to /app/account/…, with the session's CSRF token.
 */
import { escapeHtml } from '../../http/page-parts.ts';

export interface AccountView {
  name: string;
  email: string;
  hasPassword: boolean;
  csrf: string;
  sessions: { id: string; current: boolean; createdAt: Date; lastSeenAt: Date; address: string | null; browser: string }[];
  /** A confirmation to show at the top ("Your password is changed."). */
  notice?: string;
  /** Problems by field name, and values typed, when a form comes back. */
  problems?: Record<string, string>;
  values?: Record<string, string>;
}

const csrfField = (csrf: string) => `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;

function input(
  view: AccountView,
  spec: { name: string; label: string; type: string; autocomplete: string; value?: string; hint?: string },
): string {
  const id = `a-${spec.name}`;
  const error = view.problems?.[spec.name];
  const described = [spec.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const value = spec.type === 'password' ? '' : (view.values?.[spec.name] ?? spec.value ?? '');
  return (
    `<label for="${id}">${escapeHtml(spec.label)}` +
    (spec.hint ? `<span class="hint" id="${id}-hint">${escapeHtml(spec.hint)}</span>` : '') +
    `<input id="${id}" name="${spec.name}" type="${spec.type}" autocomplete="${spec.autocomplete}" required` +
    (value ? ` value="${escapeHtml(value)}"` : '') +
    (error ? ' aria-invalid="true"' : '') +
    (described ? ` aria-describedby="${described}"` : '') +
    '>' +
    (error ? `<span class="field-error" id="${id}-error">${escapeHtml(error)}</span>` : '') +
    '</label>'
  );
}

const when = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function accountContent(view: AccountView): string {
  const notice = view.notice ? `<p class="notice" role="status">${escapeHtml(view.notice)}</p>` : '';
  const sessions = view.sessions
    .map(
      (s) =>
        `<li><div><strong>${escapeHtml(s.browser)}</strong>${s.current ? ' <span class="badge">This device</span>' : ''}` +
        `<div class="meta">Signed in ${escapeHtml(when(s.createdAt))} · last seen ${escapeHtml(when(s.lastSeenAt))}${s.address ? ` · ${escapeHtml(s.address)}` : ''}</div></div>` +
        (s.current
          ? ''
          : `<form class="inline" method="post" action="/app/account/sessions/${escapeHtml(s.id)}/end">${csrfField(view.csrf)}<button type="submit">Sign out</button></form>`) +
        '</li>',
    )
    .join('');
  return (
    `<h1>Your account</h1><p class="lede">How you sign in to Cuepoint, and where you are signed in.</p>${notice}` +
    '<div class="stack">' +
    `<section aria-labelledby="profile-heading"><h2 id="profile-heading">Profile</h2><form class="fields" method="post" action="/app/account/name">${csrfField(view.csrf)}` +
    input(view, { name: 'name', label: 'Name', type: 'text', autocomplete: 'name', value: view.name }) +
    '<button type="submit">Save name</button></form></section>' +
    `<section aria-labelledby="email-heading"><h2 id="email-heading">Email</h2><p>You sign in with <strong>${escapeHtml(view.email)}</strong>.</p>` +
    `<form class="fields" method="post" action="/app/account/email">${csrfField(view.csrf)}` +
    input(view, {
      name: 'new_email',
      label: 'New email',
      type: 'email',
      autocomplete: 'email',
      hint: 'We send a link to the new address; the change is made when you follow it.',
    }) +
    '<button type="submit">Send confirmation link</button></form></section>' +
    `<section aria-labelledby="password-heading"><h2 id="password-heading">Password</h2><form class="fields" method="post" action="/app/account/password">${csrfField(view.csrf)}` +
    (view.hasPassword
      ? input(view, { name: 'current_password', label: 'Current password', type: 'password', autocomplete: 'current-password' })
      : '<p>Your account has no password yet: set one to sign in without an emailed link.</p>') +
    input(view, {
      name: 'new_password',
      label: 'New password',
      type: 'password',
      autocomplete: 'new-password',
      hint: 'At least 10 characters. Changing it signs you out everywhere else.',
    }) +
    `<button type="submit">${view.hasPassword ? 'Change password' : 'Set password'}</button></form></section>` +
    '<section aria-labelledby="methods-heading"><h2 id="methods-heading">Passkeys and two-factor authentication</h2>' +
    '<ul class="rows"><li><a href="/app/account/passkeys">Passkeys</a><span class="meta">Sign in with your fingerprint, face or device PIN</span></li>' +
    '<li><a href="/app/account/two-factor">Two-factor authentication</a><span class="meta">A code from an authenticator app after your password</span></li></ul></section>' +
    `<section aria-labelledby="sessions-heading"><h2 id="sessions-heading">Where you are signed in</h2><ul class="rows sessions">${sessions}</ul>` +
    `<form method="post" action="/app/account/sessions/end-all">${csrfField(view.csrf)}<button type="submit" class="danger">Sign out everywhere</button></form></section>` +
    '</div>'
  );
}

/** "Chrome on macOS": enough to recognise a device in a list, from the User-Agent. */
export function browserLabel(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : /curl\//.test(userAgent)
            ? 'curl'
            : 'A browser';
  const system = /iPhone|iPad/.test(userAgent)
    ? 'iOS'
    : /Android/.test(userAgent)
      ? 'Android'
      : /Mac OS X/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return system ? `${browser} on ${system}` : browser;
}
