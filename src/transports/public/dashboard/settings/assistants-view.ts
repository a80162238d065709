/**
 * The Connected assistants tab's HTML (issue 29): the assistants people allowed through the consent
 * page (list_api_keys' keys bound to the MCP endpoint), who allowed each and what it may do, with a
 * confirmed "Disconnect" each; and how to connect one, with the MCP server's address to copy.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { SCOPE_WORDS } from '../../http/scope-words.ts';
import { formatDate, formatDateTime } from '../kit/formats.ts';
import type { ApiKeyRow } from './api-keys-view.ts';
import { rowConfirm } from './row-confirm.ts';

export interface AssistantsView {
  csrf: string;
  /** The connected assistants' credentials, newest first. */
  connected: ApiKeyRow[];
  mcpUrl: string;
  timeZone: string;
}

export const ASSISTANTS_PAGE = '/app/settings/assistants';

export function assistantsContent(view: AssistantsView): string {
  return (
    '<section aria-labelledby="assistants-heading" class="card">' +
    `<h2 id="assistants-heading">Connected assistants <span class="count">${view.connected.length}</span></h2>` +
    '<p class="hint">Each one acts with at most the role of the person who allowed it, works only through the MCP server, and stops when that person leaves the workspace. Disconnect ends it at once.</p>' +
    (view.connected.length
      ? connectedTable(view)
      : '<p class="empty">No assistant is connected. Add Cuepoint to Claude, ChatGPT or any MCP client with the address below.</p>') +
    '</section>' +
    '<section aria-labelledby="connect-heading" class="card">' +
    '<h2 id="connect-heading">Connect an assistant</h2>' +
    '<p>In your assistant, add a custom connector (or MCP server) with this address. It will send you here to sign in and choose what it may do.</p>' +
    '<div class="secret-row"><label class="visually-hidden" for="mcp-url">MCP server address</label>' +
    `<input id="mcp-url" class="secret" type="text" readonly value="${escapeHtml(view.mcpUrl)}" spellcheck="false" autocomplete="off">` +
    '<button type="button" class="primary" data-copy="mcp-url" hidden>Copy</button></div>' +
    '<p class="hint" role="status" id="copy-status"></p>' +
    '<p class="hint">Programs that cannot sign a person in can still use an API key from the API keys tab, sent as a bearer token.</p>' +
    '</section>'
  );
}

function connectedTable(view: AssistantsView): string {
  const rows = view.connected.map((key) => {
    const scopes = key.scopes.map((scope) => `<li>${escapeHtml(SCOPE_WORDS[scope] ?? scope)}</li>`).join('');
    return (
      `<tr><td><strong>${escapeHtml(key.name)}</strong><span class="meta">Connected ${escapeHtml(formatDate(key.created_at, view.timeZone))}</span></td>` +
      `<td>${key.created_by ? escapeHtml(key.created_by.name) : '<span class="muted">Unknown</span>'}</td>` +
      `<td><span class="badge">${escapeHtml(key.tier)}</span><details class="scopes"><summary>${key.scopes.length} permission${key.scopes.length === 1 ? '' : 's'}</summary><ul>${scopes}</ul></details></td>` +
      `<td>${key.last_used_at ? escapeHtml(formatDateTime(key.last_used_at, view.timeZone)) : '<span class="muted">Never</span>'}</td>` +
      '<td class="row-actions">' +
      rowConfirm({
        id: key.key_id,
        label: 'Disconnect',
        accessibleLabel: `Disconnect ${key.name}`,
        heading: `Disconnect ${key.name}?`,
        consequence: `${key.name} can no longer reach this workspace. To use it again, connect it again from the assistant.`,
        confirm: 'Disconnect',
        action: `${ASSISTANTS_PAGE}/${key.key_id}/disconnect`,
        csrf: view.csrf,
        page: ASSISTANTS_PAGE,
      }) +
      '</td></tr>'
    );
  });
  return (
    '<div class="table-scroll"><table class="keys"><thead><tr><th scope="col">Assistant</th><th scope="col">Allowed by</th><th scope="col">Access</th>' +
    '<th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>' +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}
