/**
 * /app/account/passkeys: the person's passkeys, each with its name, when it was added and last used,
 * a Rename link (?rename=<id> opens its name in a field, focused, no script needed) and a Remove button; and "Add a passkey", a form /passkey-setup.js shows where
 * the browser can make passkeys (the page says what is needed where it cannot).
 */
import type { Passkey } from '../../../../domains/people/index.ts';
import { webauthnScriptPath } from '../../assets/webauthn-script.ts';
import { escapeHtml } from '../../http/page-parts.ts';
import type { Frame } from '../frame/dashboard-page.ts';
import { alertBox, dayOf, hiddenCsrf, noticeBox, signInMethodsPage } from './sign-in-methods-page.ts';

export interface PasskeysView {
  frame: Frame;
  passkeys: readonly Passkey[];
  maxPasskeys: number;
  maxNameLength: number;
  notice?: string;
  error?: string;
  /** The passkey whose Rename link was followed: its name shows in a field. */
  renaming?: string;
  /** A rename that was refused: which passkey, what was typed, and why. */
  rename?: { passkeyId: string; value: string; problem: string };
}

export function passkeysPage(view: PasskeysView): string {
  const { frame } = view;
  const list =
    view.passkeys.length === 0
      ? '<p class="empty">You have no passkeys yet. Add one below to sign in without your password.</p>'
      : `<ul class="keys">${view.passkeys.map((passkey) => passkeyItem(view, passkey)).join('')}</ul>`;
  const full = view.passkeys.length >= view.maxPasskeys;
  const content =
    noticeBox(view.notice) +
    alertBox(view.error) +
    '<section aria-labelledby="your-passkeys"><h2 id="your-passkeys">Your passkeys</h2>' +
    list +
    '</section>' +
    '<section aria-labelledby="add-heading"><h2 id="add-heading">Add a passkey</h2>' +
    (full
      ? `<p class="empty">You have ${view.maxPasskeys} passkeys, the most an account can keep. Remove one you no longer use to add another.</p>`
      : '<p class="hint">Your browser asks where to keep it: this device, your phone, a password manager or a security key.</p>' +
        '<p class="empty" id="add-passkey-note">Adding a passkey needs JavaScript. Turn it on for this site, or add the passkey from another browser.</p>' +
        `<form class="stack" id="add-passkey" data-csrf="${escapeHtml(frame.csrf)}" hidden>` +
        '<label class="field" for="passkey-name">Name <span class="hint" id="passkey-name-hint">Optional: where this passkey lives, like “Work laptop”.</span>' +
        `<input id="passkey-name" name="name" type="text" autocomplete="off" maxlength="${view.maxNameLength}" aria-describedby="passkey-name-hint"></label>` +
        '<button type="submit" class="primary">Add a passkey</button>' +
        '<div id="add-passkey-message" role="alert"></div></form>' +
        `<script src="${escapeHtml(webauthnScriptPath())}" defer></script><script src="/passkey-setup.js" defer></script>`) +
    '</section>';
  return signInMethodsPage(
    frame,
    'passkeys',
    'Passkeys',
    'Sign in with your fingerprint, face or screen lock instead of your password. A passkey works only on this site, so it cannot be phished or leaked.',
    content,
  );
}

function passkeyItem(view: PasskeysView, passkey: Passkey): string {
  const id = escapeHtml(passkey.id);
  const name = escapeHtml(passkey.name);
  const used = passkey.last_used_at ? `last used ${dayOf(passkey.last_used_at)}` : 'not used yet';
  const synced = passkey.backed_up ? ' · synced' : '';
  const info = `<div class="key-info"><span class="key-name">${name}</span><span class="meta">Added ${dayOf(passkey.created_at)} · ${used}${synced}</span></div>`;
  if (view.renaming === passkey.id || view.rename?.passkeyId === passkey.id)
    return `<li id="passkey-${id}">${info}${renameForm(view, passkey)}</li>`;
  return (
    `<li id="passkey-${id}"><div class="key-row">${info}<div class="key-buttons">` +
    `<a class="button" href="/app/account/passkeys?rename=${id}">Rename<span class="visually-hidden"> ${name}</span></a>` +
    `<form method="post" action="/app/account/passkeys/${id}/remove">${hiddenCsrf(view.frame.csrf)}` +
    `<button type="submit" class="quiet-danger">Remove<span class="visually-hidden"> ${name}</span></button></form>` +
    '</div></div></li>'
  );
}

/** The passkey's name in a field, to change it (opened by its Rename link; open again, with the problem, when refused). */
function renameForm(view: PasskeysView, passkey: Passkey): string {
  const id = escapeHtml(passkey.id);
  const refused = view.rename?.passkeyId === passkey.id ? view.rename : undefined;
  const inputId = `name-${id}`;
  return (
    `<form class="rename" method="post" action="/app/account/passkeys/${id}/name">${hiddenCsrf(view.frame.csrf)}` +
    `<label class="field" for="${inputId}">New name<span class="visually-hidden"> for passkey ${escapeHtml(passkey.name)}</span>` +
    `<input id="${inputId}" name="name" type="text" autocomplete="off" required autofocus maxlength="${view.maxNameLength}" value="${escapeHtml(refused?.value ?? passkey.name)}"` +
    (refused ? ` aria-invalid="true" aria-describedby="${inputId}-error"` : '') +
    '>' +
    (refused ? `<span class="field-error" id="${inputId}-error">${escapeHtml(refused.problem)}</span>` : '') +
    '</label><div class="buttons"><button type="submit" class="primary">Save name</button>' +
    `<a class="button" href="/app/account/passkeys#passkey-${id}">Cancel</a></div></form>`
  );
}
