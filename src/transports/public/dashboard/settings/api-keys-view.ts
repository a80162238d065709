/**
 * The API keys tab's HTML: the active keys and assistant tokens (list_api_keys) with a confirmed
 * Revoke each, the form that mints one with scopes as checkboxes (only the scopes the person holds are
 * offered: a key never reaches beyond its maker), and the page that shows a new secret once.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { SCOPE_WORDS } from '../../http/scope-words.ts';
import { formatDate, formatDateTime } from '../kit/formats.ts';
import { csrfField } from '../kit/page-route.ts';
import { checkboxGroup, formAlert, inputField, type Problems } from './form-fields.ts';
import { rowConfirm } from './row-confirm.ts';

export interface ApiKeyRow {
  key_id: string;
  name: string;
  prefix: string;
  kind: 'api_key' | 'assistant';
  tier: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  created_by: { user_id: string; name: string } | null;
  /** Set for a connected assistant's key: the MCP endpoint, the only place it works. */
  resource: string | null;
}

export interface ApiKeysView {
  csrf: string;
  keys: ApiKeyRow[];
  /** The scopes the person holds, in the catalog's order: the ones they may give a key. */
  offered: string[];
  timeZone: string;
  mint: { name: string; scopes: ReadonlySet<string>; problems: Problems };
}

export function apiKeysContent(view: ApiKeysView): string {
  return (
    '<section aria-labelledby="keys-heading" class="card">' +
    `<h2 id="keys-heading">Active keys <span class="count">${view.keys.length}</span></h2>` +
    '<p class="hint">Keys act with at most the role of the member who minted them, and stop working when that member leaves. Secrets are never shown after they are minted.</p>' +
    (view.keys.length ? keysTable(view) : '<p class="empty">No active keys. Mint one below to call the API.</p>') +
    '</section>' +
    mintForm(view)
  );
}

function keysTable(view: ApiKeysView): string {
  const rows = view.keys.map((key) => {
    const scopes = key.scopes.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(' ');
    return (
      `<tr><td><strong>${escapeHtml(key.name)}</strong><span class="meta"><code>${escapeHtml(key.prefix)}…</code>${key.resource ? ' · connected assistant' : key.kind === 'assistant' ? ' · assistant token' : ''}</span></td>` +
      `<td><span class="badge">${escapeHtml(key.tier)}</span><details class="scopes"><summary>${key.scopes.length} scope${key.scopes.length === 1 ? '' : 's'}</summary><p>${scopes}</p></details></td>` +
      `<td>${key.created_by ? escapeHtml(key.created_by.name) : '<span class="muted">Command line</span>'}<span class="meta">${escapeHtml(formatDate(key.created_at, view.timeZone))}</span></td>` +
      `<td>${key.last_used_at ? escapeHtml(formatDateTime(key.last_used_at, view.timeZone)) : '<span class="muted">Never</span>'}</td>` +
      `<td>${key.expires_at ? escapeHtml(formatDate(key.expires_at, view.timeZone)) : '<span class="muted">Never</span>'}</td>` +
      '<td class="row-actions">' +
      rowConfirm({
        id: key.key_id,
        label: 'Revoke',
        accessibleLabel: `Revoke ${key.name}`,
        heading: `Revoke ${key.name}?`,
        consequence: `Every request with ${key.prefix}… is refused from now on. This cannot be undone; mint a new key instead.`,
        confirm: 'Revoke',
        action: `/app/settings/api-keys/${key.key_id}/revoke`,
        csrf: view.csrf,
        page: '/app/settings/api-keys',
      }) +
      '</td></tr>'
    );
  });
  return (
    '<div class="table-scroll"><table class="keys"><thead><tr><th scope="col">Name</th><th scope="col">Access</th><th scope="col">Created by</th>' +
    '<th scope="col">Last used</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>' +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}

function mintForm(view: ApiKeysView): string {
  const { mint } = view;
  return (
    '<section aria-labelledby="mint-heading" class="card"><h2 id="mint-heading">Mint a key</h2>' +
    formAlert(mint.problems) +
    `<form class="stack settings-form" method="post" action="/app/settings/api-keys" novalidate>${csrfField(view.csrf)}` +
    inputField({
      id: 'f-key-name',
      name: 'name',
      label: 'Name',
      value: mint.name,
      problem: mint.problems.name,
      hint: 'What the key is for, such as “CRM sync”.',
      required: true,
      attributes: ' maxlength="100" autocomplete="off"',
    }) +
    checkboxGroup({
      id: 'f-key-scopes',
      name: 'scope',
      legend: 'Scopes',
      hint: 'Give a key only what it needs. You can give the scopes you hold yourself.',
      problem: mint.problems.scope,
      options: view.offered.map((scope) => ({ value: scope, label: scope, description: SCOPE_WORDS[scope] })),
      checked: mint.scopes,
    }) +
    '<div class="buttons"><button type="submit" class="primary">Mint key</button></div></form></section>'
  );
}

/** The one time a secret is shown: on the page right after it was made. */
export function secretOnce(spec: { heading: string; what: string; secret: string; back: string; backLabel: string }): string {
  return (
    '<section aria-labelledby="secret-heading" class="card secret-card">' +
    `<h2 id="secret-heading">${escapeHtml(spec.heading)}</h2>` +
    '<p class="alert warning" role="alert"><strong>Copy it now.</strong> This is the only time it is shown: Cuepoint keeps only a hash of it. If it is lost, make a new one.</p>' +
    `<p>${escapeHtml(spec.what)}</p>` +
    '<div class="secret-row"><label class="visually-hidden" for="new-secret">The secret</label>' +
    `<input id="new-secret" class="secret" type="text" readonly value="${escapeHtml(spec.secret)}" spellcheck="false" autocomplete="off">` +
    '<button type="button" class="primary" data-copy="new-secret" hidden>Copy</button></div>' +
    '<p class="hint" role="status" id="copy-status"></p>' +
    `<p><a class="button" href="${escapeHtml(spec.back)}">${escapeHtml(spec.backLabel)}</a></p>` +
    '</section>'
  );
}
