/**
 * The consent page (issue 29, DESIGN §10 "Connected assistants"): who is asking, as the client was
 * registered or published, where the answer will go, which workspace, and what the assistant may do,
 * with the buttons "Allow" and "Deny". The look of the account pages, a little wider; never framed, so
 * no other site can lay it under a decoy and have a person press Allow unseen.
 */
import { ACCOUNT_STYLE } from '../http/account-page.ts';
import { escapeHtml, htmlPage, securityHeaders } from '../http/page-parts.ts';
import { SCOPE_WORDS } from '../http/scope-words.ts';
import { type AuthorizationParameters, parameterFields } from './authorization-parameters.ts';

const CONSENT_STYLE =
  ACCOUNT_STYLE +
  'main{max-width:32rem}.facts{margin:0 0 20px;padding:0;display:grid;gap:12px}.facts div{display:grid;gap:2px}' +
  '.facts dt{font-size:.8rem;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}.facts dd{margin:0;overflow-wrap:anywhere}' +
  '.facts .hint{display:block}.facts .caution{font-weight:600;color:var(--text)}.client{font-weight:600}code{font:.9em ui-monospace,SFMono-Regular,Menlo,monospace}' +
  '.switch{flex-direction:row;align-items:flex-end;gap:8px;margin:0 0 20px}.switch label{flex:1}' +
  'select{font:inherit;font-weight:400;padding:10px 12px;min-height:44px;border-radius:8px;border:1px solid var(--line);background:var(--card);color:var(--text)}' +
  'fieldset{border:1px solid var(--line);border-radius:10px;margin:0;padding:12px 16px 8px}legend{font-weight:600;padding:0 6px}' +
  '.check{flex-direction:row;align-items:flex-start;gap:10px;font-weight:400;padding:6px 0}' +
  '.check input{min-height:0;width:20px;height:20px;margin:2px 0 0;flex:none;accent-color:var(--accent)}.check code{display:block;font-size:.8rem;color:var(--muted)}' +
  '.actions{display:flex;gap:12px;justify-content:flex-end;flex-wrap:wrap}.actions button{min-width:7.5rem}' +
  '@media (max-width:30rem){main{padding:24px 18px}.actions button{flex:1}}';

export interface ConsentView {
  parameters: AuthorizationParameters;
  csrf: string;
  client: { name: string; clientId: string; registration: 'dynamic' | 'metadata_document' };
  redirectUri: string;
  person: { name: string; email: string };
  workspaces: { id: string; name: string; role: string }[];
  workspaceId: string;
  offered: readonly string[];
  ticked: ReadonlySet<string>;
  error?: string;
}

/**
 * The page's headers: the account pages' policy, with the redirect URI's origin (or its private-use
 * scheme) added to `form-action`: browsers check the redirect a form's answer leads to against it, so
 * 'self' alone would stop Allow and Deny at our own door.
 */
export function consentHeaders(redirectUri: string): Record<string, string> {
  const url = new URL(redirectUri);
  return framelessHeaders(`'self' ${url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol}`);
}

function framelessHeaders(formAction: string): Record<string, string> {
  const headers = securityHeaders('self', CONSENT_STYLE);
  return {
    ...headers,
    'Content-Security-Policy': (headers['Content-Security-Policy'] as string)
      .replace("form-action 'none'", `form-action ${formAction}`)
      .replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  };
}

export function consentPage(view: ConsentView): string {
  const name = escapeHtml(view.client.name);
  const workspace = view.workspaces.find((w) => w.id === view.workspaceId);
  const body =
    `<h1>Connect ${name} to Cuepoint?</h1>` +
    `<p class="lede">${name} is asking to work in Cuepoint as you, ${escapeHtml(view.person.name)} (${escapeHtml(view.person.email)}).</p>` +
    facts(view) +
    (view.error ? `<p class="alert" role="alert">${escapeHtml(view.error)}</p>` : '') +
    workspaceSwitch(view) +
    '<form method="post" action="/oauth/authorize">' +
    `<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">` +
    `<input type="hidden" name="workspace_id" value="${escapeHtml(view.workspaceId)}">` +
    parameterFields(view.parameters) +
    scopeGroup('What it may see', view, (scope) => !isChange(scope)) +
    scopeGroup('What it may change', view, isChange) +
    '<div class="actions"><button type="submit" name="decision" value="deny" class="secondary">Deny</button>' +
    '<button type="submit" name="decision" value="allow">Allow</button></div></form>' +
    `<p class="below">${workspace ? `It will act with at most your role in ${escapeHtml(workspace.name)}. ` : ''}` +
    'You can disconnect it at any time in Settings → Connected assistants.</p>';
  return htmlPage(
    CONSENT_STYLE,
    `Connect ${view.client.name} · Cuepoint`,
    `<div class="brand" aria-hidden="true"><span class="brand-mark"></span>Cuepoint</div><main>${body}</main>`,
  );
}

const isChange = (scope: string) => scope.endsWith(':write') || scope === 'workspace:manage';

function facts(view: ConsentView): string {
  const { client } = view;
  const who =
    client.registration === 'metadata_document'
      ? `Cuepoint read this app’s description from ${escapeHtml(new URL(client.clientId).host)}.`
      : 'This app registered itself, so Cuepoint cannot confirm who made it: check where it sends you.';
  return (
    '<dl class="facts">' +
    `<div><dt>Application</dt><dd><span class="client">${escapeHtml(client.name)}</span><span class="hint">${who}</span></dd></div>` +
    `<div><dt>After you choose, you go to</dt><dd>${destination(view.redirectUri)}</dd></div>` +
    '</dl>'
  );
}

/** Where the redirect URI leads, in words a person can check. */
function destination(redirectUri: string): string {
  const url = new URL(redirectUri);
  const full = `<code>${escapeHtml(redirectUri)}</code>`;
  if (url.protocol === 'https:') return `<strong>${escapeHtml(url.host)}</strong><span class="hint">${full}</span>`;
  if (url.protocol === 'http:') {
    return (
      `<strong>An app on this computer</strong><span class="hint">${full}</span>` +
      '<span class="hint caution">Allow only if you started this app yourself just now.</span>'
    );
  }
  return `<strong>An app on this device</strong><span class="hint">${full}</span>`;
}

/** With several workspaces, a form that shows the page again for another (its scopes follow the role held there). */
function workspaceSwitch(view: ConsentView): string {
  const current = view.workspaces.find((w) => w.id === view.workspaceId);
  if (view.workspaces.length < 2) {
    return current
      ? `<p class="notice">Workspace: <strong>${escapeHtml(current.name)}</strong> <span class="hint">(${escapeHtml(current.role)})</span></p>`
      : '';
  }
  const options = view.workspaces
    .map(
      (w) =>
        `<option value="${escapeHtml(w.id)}"${w.id === view.workspaceId ? ' selected' : ''}>${escapeHtml(w.name)} (${escapeHtml(w.role)})</option>`,
    )
    .join('');
  return (
    '<form method="get" action="/oauth/authorize" class="switch">' +
    parameterFields(view.parameters) +
    `<label for="workspace">Workspace<select id="workspace" name="workspace">${options}</select></label>` +
    '<button type="submit" class="secondary">Switch</button></form>'
  );
}

function scopeGroup(legend: string, view: ConsentView, belongs: (scope: string) => boolean): string {
  const scopes = view.offered.filter(belongs);
  if (scopes.length === 0) return '';
  const boxes = scopes
    .map(
      (scope) =>
        `<label class="check"><input type="checkbox" name="grant" value="${escapeHtml(scope)}"${view.ticked.has(scope) ? ' checked' : ''}>` +
        `<span>${escapeHtml(SCOPE_WORDS[scope] ?? scope)}<code>${escapeHtml(scope)}</code></span></label>`,
    )
    .join('');
  return `<fieldset><legend>${escapeHtml(legend)}</legend>${boxes}</fieldset>`;
}

/** The page for a request that cannot be answered to the client (an unknown client, a redirect URI it never registered). */
export function unanswerablePage(problems: readonly string[]): string {
  const items = problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join('');
  return htmlPage(
    CONSENT_STYLE,
    'This connection link does not work · Cuepoint',
    '<div class="brand" aria-hidden="true"><span class="brand-mark"></span>Cuepoint</div><main>' +
      '<h1>This connection link does not work</h1>' +
      '<p class="lede">The app that sent you here asked in a way Cuepoint cannot answer, so nothing was connected and you were not sent back to it.</p>' +
      `<ul>${items}</ul><p class="below">Start connecting again from the app, or tell its makers what this page says.</p></main>`,
  );
}

/** The headers of the page above: nothing is submitted from it. */
export const UNANSWERABLE_HEADERS = framelessHeaders("'none'");
