/**
 * The frame of every dashboard page: a top bar with the product, the workspace (and a switcher when
 * the person has several), their name, and the "Sign out" button (a form post, DESIGN §10), then the
 * page's own content. Server-rendered, no script; the same strict policy as the public pages.
 */
import { escapeHtml, htmlPage, securityHeaders } from '../http/page-parts.ts';

export const DASHBOARD_STYLE =
  ':root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--text:#111827;--muted:#4b5563;--line:#e5e7eb;--accent:#2563eb;--bad:#b91c1c}' +
  '@media (prefers-color-scheme:dark){:root{--bg:#0b0f17;--card:#151b26;--text:#f3f4f6;--muted:#a3aab8;--line:#2b3340;--accent:#60a5fa;--bad:#fca5a5}}' +
  '*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--text);font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}' +
  'header{display:flex;flex-wrap:wrap;align-items:center;gap:12px 20px;padding:12px 24px;background:var(--card);border-bottom:1px solid var(--line)}' +
  '.brand{font-weight:700;font-size:1.05rem;color:inherit;text-decoration:none;margin-right:auto}' +
  '.who{display:flex;flex-wrap:wrap;align-items:center;gap:12px;color:var(--muted)}' +
  'form.inline{display:inline-flex;gap:8px;align-items:center;margin:0}select{font:inherit;min-height:36px;padding:4px 8px;border-radius:6px;border:1px solid var(--line);background:var(--card);color:var(--text)}' +
  'button{font:inherit;font-weight:600;min-height:36px;padding:6px 14px;border-radius:6px;border:1px solid var(--line);background:var(--card);color:var(--text);cursor:pointer}' +
  'button.danger{background:var(--bad);border-color:var(--bad);color:#fff}' +
  'a.button{display:inline-flex;align-items:center;font-weight:600;min-height:36px;padding:6px 14px;border-radius:6px;border:1px solid var(--line);color:var(--text);text-decoration:none}' +
  'main{max-width:72rem;margin:0 auto;padding:24px}h1{font-size:1.5rem;margin:0 0 4px}h2{font-size:1.1rem;margin:0 0 12px}' +
  '.lede{margin:0 0 24px;color:var(--muted)}.grid{display:grid;gap:24px;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr))}' +
  'section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:20px}' +
  'ul.rows{list-style:none;margin:0;padding:0}ul.rows li{display:flex;justify-content:space-between;gap:12px;padding:10px 0;border-top:1px solid var(--line)}' +
  'ul.rows li:first-child{border-top:0}.meta{color:var(--muted);font-size:.9rem;white-space:nowrap}a{color:var(--accent)}' +
  'dl{display:grid;grid-template-columns:max-content 1fr;gap:8px 16px;margin:0 0 20px}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}' +
  '.empty{color:var(--muted);margin:0}:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}' +
  'dialog{border:1px solid var(--line);border-radius:10px;background:var(--card);color:var(--text);max-width:28rem;padding:24px}' +
  'dialog::backdrop{background:rgba(0,0,0,.45)}dialog h2{margin:0 0 8px}.dialog-actions{display:flex;gap:12px;justify-content:flex-end;margin-top:16px}' +
  '.dialog-actions form{margin:0}' +
  '.alert{padding:12px 14px;border-radius:8px;border:1px solid var(--bad);color:var(--bad);margin:0 0 16px}' +
  '.notice{padding:12px 14px;border-radius:8px;border:1px solid var(--line);background:var(--card);margin:0 0 16px}' +
  '.stack{display:flex;flex-direction:column;gap:20px;max-width:40rem}.stack section p{margin:0 0 12px}' +
  'form.fields{display:flex;flex-direction:column;gap:14px;align-items:flex-start}form.fields label{display:flex;flex-direction:column;gap:6px;font-weight:600;width:100%}' +
  'form.fields input{font:inherit;font-weight:400;padding:9px 12px;min-height:44px;border-radius:8px;border:1px solid var(--line);background:var(--card);color:var(--text);width:100%;max-width:28rem}' +
  'form.fields input[aria-invalid=true]{border-color:var(--bad)}.hint{font-weight:400;font-size:.85rem;color:var(--muted)}.field-error{font-weight:400;font-size:.875rem;color:var(--bad)}' +
  '.badge{display:inline-block;font-size:.75rem;font-weight:600;padding:1px 8px;border-radius:999px;border:1px solid var(--line);color:var(--muted)}' +
  'ul.sessions{margin:0 0 16px}ul.sessions li{align-items:center}';

/** The headers of a dashboard page with this style (DASHBOARD_STYLE, or a page's own built on it). */
export function dashboardHeaders(style: string): Record<string, string> {
  const headers = securityHeaders('self', style);
  return {
    ...headers,
    'Content-Security-Policy': (headers['Content-Security-Policy'] as string)
      .replace("form-action 'none'", "form-action 'self'")
      .replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
    'X-Frame-Options': 'DENY',
  };
}

export const DASHBOARD_HEADERS: Record<string, string> = dashboardHeaders(DASHBOARD_STYLE);

export interface Frame {
  personName: string;
  workspaceName: string | null;
  role: string | null;
  /** Other workspaces the person may switch to. */
  workspaces: { id: string; name: string; current: boolean }[];
  csrf: string;
}

export function dashboardPage(title: string, frame: Frame, content: string, style = DASHBOARD_STYLE): string {
  const switcher =
    frame.workspaces.length > 1
      ? `<form class="inline" method="post" action="/app/workspace"><input type="hidden" name="csrf" value="${escapeHtml(frame.csrf)}">` +
        '<label for="workspace-switch">Workspace</label><select id="workspace-switch" name="workspace_id">' +
        frame.workspaces
          .map((w) => `<option value="${escapeHtml(w.id)}"${w.current ? ' selected' : ''}>${escapeHtml(w.name)}</option>`)
          .join('') +
        '</select><button type="submit">Switch</button></form>'
      : frame.workspaceName
        ? `<span>${escapeHtml(frame.workspaceName)}</span>`
        : '';
  return htmlPage(
    style,
    `${title} · Cuepoint`,
    '<header><a class="brand" href="/app">Cuepoint</a><div class="who">' +
      switcher +
      (frame.role
        ? `<span>${escapeHtml(frame.personName)} · ${escapeHtml(frame.role)}</span>`
        : `<span>${escapeHtml(frame.personName)}</span>`) +
      '<a href="/app/account">Account</a>' +
      `<form class="inline" method="post" action="/sign-out"><input type="hidden" name="csrf" value="${escapeHtml(frame.csrf)}"><button type="submit">Sign out</button></form>` +
      `</div></header><main>${content}</main>`,
  );
}
