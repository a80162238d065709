/**
 * The frame of the account's sign-in method pages, /app/account/passkeys and /app/account/two-factor:
 * the dashboard's frame, a way back to the account page, tabs between the two, and the form styles
 * these pages need on top of the dashboard's (inputs, notices, the passkey list, the setup key).
 */
import { escapeHtml } from '../http/page-parts.ts';
import { DASHBOARD_STYLE, dashboardHeaders, dashboardPage, type Frame } from './dashboard-page.ts';

export const SIGN_IN_METHODS_STYLE =
  DASHBOARD_STYLE +
  ':root{--good:#166534}@media (prefers-color-scheme:dark){:root{--good:#86efac}}' +
  '.narrow{max-width:46rem;margin:0 auto}.crumbs{margin:0 0 8px;font-size:.9rem}' +
  '.tabs{display:flex;gap:4px;margin:0 0 24px;border-bottom:1px solid var(--line);overflow-x:auto}' +
  '.tabs a{padding:10px 14px;margin-bottom:-1px;border-bottom:3px solid transparent;color:var(--muted);text-decoration:none;white-space:nowrap}' +
  '.tabs a:hover{color:var(--text)}.tabs a[aria-current=page]{color:var(--text);border-bottom-color:var(--accent);font-weight:600}' +
  'section+section{margin-top:20px}section>p{margin:0 0 12px}' +
  '.notice{padding:12px 14px;border-radius:8px;border:1px solid var(--good);color:var(--good);margin:0 0 16px}' +
  'label.field{display:flex;flex-direction:column;gap:6px;font-weight:600}' +
  'input[type=text],input[type=password]{font:inherit;font-weight:400;width:100%;min-height:40px;padding:8px 10px;border-radius:6px;border:1px solid var(--line);background:var(--card);color:var(--text)}' +
  'input[aria-invalid=true]{border-color:var(--bad)}.hint{font-weight:400;font-size:.9rem;color:var(--muted)}' +
  '.field-error{font-weight:400;font-size:.9rem;color:var(--bad)}' +
  'button.primary{background:var(--accent);border-color:var(--accent);color:#fff}' +
  'button.quiet-danger{color:var(--bad);border-color:var(--line);background:transparent}' +
  'form.stack{display:flex;flex-direction:column;gap:14px;align-items:flex-start;margin:0}form.stack label.field{align-self:stretch}' +
  'ul.keys{list-style:none;margin:0;padding:0}ul.keys>li{padding:14px 0;border-top:1px solid var(--line)}' +
  'ul.keys>li:first-child{border-top:0;padding-top:2px}ul.keys>li:last-child{padding-bottom:0}' +
  '.key-row{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:10px 16px}' +
  '.key-info{display:flex;flex-direction:column;gap:2px;min-width:0;flex:1 1 16rem}.key-info .meta{white-space:normal}' +
  '.key-name{font-weight:600;overflow-wrap:anywhere}.key-buttons{display:flex;gap:8px;align-items:center}.key-buttons form{margin:0}' +
  'form.rename{display:flex;flex-direction:column;gap:10px;margin:12px 0 0}.buttons{display:flex;flex-wrap:wrap;gap:8px;align-items:center}' +
  'a.button{display:inline-flex;align-items:center;font-weight:600;min-height:36px;padding:6px 14px;border-radius:6px;' +
  'border:1px solid var(--line);background:var(--card);color:var(--text);text-decoration:none}' +
  'form.stack input[type=password]{max-width:24rem}' +
  '.badge{display:inline-block;padding:1px 10px;border-radius:999px;border:1px solid currentColor;font-size:.85rem;font-weight:600;color:var(--muted)}' +
  '.badge.on{color:var(--good)}.status{display:flex;flex-wrap:wrap;align-items:center;gap:8px 12px;margin:0 0 16px}' +
  'ol.steps{margin:0;padding-left:1.4rem}ol.steps>li{margin:0 0 20px;padding-left:4px}ol.steps h3{font-size:1rem;margin:0 0 8px}' +
  '.setup-key{display:inline-block;margin:4px 0 8px;padding:10px 14px;border:1px dashed var(--muted);border-radius:8px;' +
  'font:600 1.1rem/1.6 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;letter-spacing:.04em;word-spacing:.35em;overflow-wrap:anywhere}' +
  'input.code{max-width:11rem;font-size:1.25rem;letter-spacing:.25em;font-variant-numeric:tabular-nums}' +
  '.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}' +
  '@media (max-width:480px){main{padding:16px}section{padding:16px}}';

export const SIGN_IN_METHODS_HEADERS = dashboardHeaders(SIGN_IN_METHODS_STYLE);

const TABS = [
  { id: 'passkeys', href: '/app/account/passkeys', label: 'Passkeys' },
  { id: 'two-factor', href: '/app/account/two-factor', label: 'Two-factor authentication' },
] as const;

export type SignInMethodsTab = (typeof TABS)[number]['id'];

export function signInMethodsPage(frame: Frame, tab: SignInMethodsTab, title: string, lede: string, content: string): string {
  const tabs = TABS.map((t) => `<a href="${t.href}"${t.id === tab ? ' aria-current="page"' : ''}>${escapeHtml(t.label)}</a>`).join('');
  return dashboardPage(
    title,
    frame,
    '<div class="narrow"><p class="crumbs"><a href="/app/account">← Account</a></p>' +
      `<h1>${escapeHtml(title)}</h1><p class="lede">${escapeHtml(lede)}</p>` +
      `<nav class="tabs" aria-label="Sign-in methods">${tabs}</nav>${content}</div>`,
    SIGN_IN_METHODS_STYLE,
  );
}

/** A notice after a change ("Passkey added."), read out as it appears. */
export function noticeBox(message: string | undefined): string {
  return message ? `<p class="notice" role="status">${escapeHtml(message)}</p>` : '';
}

export function alertBox(message: string | undefined): string {
  return message ? `<p class="alert" role="alert">${escapeHtml(message)}</p>` : '';
}

export function hiddenCsrf(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;
}

/** A day as people read it ("29 Nov 2026"), in UTC, in a <time> with the instant itself. */
export function dayOf(at: Date): string {
  const text = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(at);
  return `<time datetime="${at.toISOString()}">${escapeHtml(text)}</time>`;
}
