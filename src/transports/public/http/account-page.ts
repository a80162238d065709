/**
 * The look of the pages a person meets before the dashboard (sign-in, invitations): one centred card
 * on a quiet background, readable in light and dark, with large targets and visible focus. Forms post
 * back to the service itself, the only form target the policy allows; nothing runs inline.
 */
import { escapeHtml, htmlPage, securityHeaders } from './page-parts.ts';

export const ACCOUNT_STYLE =
  ':root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--text:#111827;--muted:#4b5563;--line:#d1d5db;--accent:#2563eb;--accent-text:#fff;--bad:#b91c1c;--bad-bg:#fef2f2}' +
  '@media (prefers-color-scheme:dark){:root{--bg:#0b0f17;--card:#151b26;--text:#f3f4f6;--muted:#a3aab8;--line:#374151;--accent:#3b82f6;--bad:#fca5a5;--bad-bg:#2a1215}}' +
  '*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;' +
  'padding:32px 16px;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}' +
  '.brand{display:flex;align-items:center;gap:8px;margin:0 0 24px;font-weight:700;font-size:1.15rem;letter-spacing:-.01em}' +
  '.brand-mark{width:28px;height:28px;border-radius:8px;background:var(--accent);display:inline-block;position:relative}' +
  '.brand-mark::after{content:"";position:absolute;left:10px;top:8px;border-style:solid;border-width:6px 0 6px 10px;border-color:transparent transparent transparent #fff}' +
  'main{width:100%;max-width:25rem;background:var(--card);border:1px solid var(--line);border-radius:12px;padding:32px 28px;box-shadow:0 1px 3px rgba(0,0,0,.06)}' +
  'h1{font-size:1.45rem;line-height:1.25;margin:0 0 8px;letter-spacing:-.01em}.lede{margin:0 0 24px;color:var(--muted)}' +
  'form{display:flex;flex-direction:column;gap:16px;margin:0}label{display:flex;flex-direction:column;gap:6px;font-weight:600;font-size:.95rem}' +
  'input{font:inherit;font-weight:400;padding:10px 12px;min-height:44px;border-radius:8px;border:1px solid var(--line);background:var(--card);color:var(--text)}' +
  'input[aria-invalid=true]{border-color:var(--bad)}.hint{font-weight:400;font-size:.85rem;color:var(--muted)}' +
  '.field-error{font-weight:400;font-size:.875rem;color:var(--bad)}' +
  'button{font:inherit;font-weight:600;min-height:44px;padding:10px 18px;border-radius:8px;border:0;background:var(--accent);color:var(--accent-text);cursor:pointer}' +
  'button.secondary{background:transparent;color:var(--accent);border:1px solid var(--line)}' +
  ':focus-visible{outline:3px solid #93c5fd;outline-offset:2px}a{color:var(--accent)}' +
  '.alert{margin:0 0 16px;padding:12px 14px;border-radius:8px;background:var(--bad-bg);color:var(--bad);border:1px solid currentColor}' +
  '.notice{margin:0 0 16px;padding:12px 14px;border-radius:8px;border:1px solid var(--line)}' +
  '.below{margin:20px 0 0;font-size:.9rem;color:var(--muted);text-align:center}' +
  // Passkey sign-in under the password form (shown by /passkey-sign-in.js), and the second factor's code field.
  '.divider{display:flex;align-items:center;gap:12px;margin:20px 0 16px;color:var(--muted);font-size:.9rem}' +
  '.divider::before,.divider::after{content:"";flex:1;border-top:1px solid var(--line)}.passkey button{width:100%}.passkey .alert{margin:16px 0 0}' +
  'input.code{font-size:1.35rem;letter-spacing:.3em;font-variant-numeric:tabular-nums}';

/** The headers of these pages: our own forms only, never framed, and never a referrer (links may carry secrets). */
export const ACCOUNT_HEADERS: Record<string, string> = (() => {
  const headers = securityHeaders('self', ACCOUNT_STYLE);
  return {
    ...headers,
    'Content-Security-Policy': (headers['Content-Security-Policy'] as string)
      .replace("form-action 'none'", "form-action 'self'")
      .replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  };
})();

export function accountPage(title: string, body: string): string {
  return htmlPage(
    ACCOUNT_STYLE,
    `${title} · Cuepoint`,
    `<div class="brand" aria-hidden="true"><span class="brand-mark"></span>Cuepoint</div><main>${body}</main>`,
  );
}

export interface FieldSpec {
  name: string;
  label: string;
  type: 'email' | 'password' | 'text';
  autocomplete: string;
  value?: string;
  error?: string;
  hint?: string;
  maxlength?: number;
  minlength?: number;
  /** The keyboard a phone shows: `numeric` for a code. */
  inputmode?: 'numeric';
  /** Extra classes of the input. */
  className?: string;
}

/** A labelled input; its error (if any) is tied to it so a screen reader reads both. */
export function field(spec: FieldSpec): string {
  const id = `f-${spec.name}`;
  const described = [spec.hint ? `${id}-hint` : '', spec.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    `<label for="${id}">${escapeHtml(spec.label)}` +
    (spec.hint ? `<span class="hint" id="${id}-hint">${escapeHtml(spec.hint)}</span>` : '') +
    `<input id="${id}" name="${spec.name}" type="${spec.type}" autocomplete="${spec.autocomplete}" required` +
    (spec.maxlength ? ` maxlength="${spec.maxlength}"` : '') +
    (spec.minlength ? ` minlength="${spec.minlength}"` : '') +
    (spec.inputmode ? ` inputmode="${spec.inputmode}"` : '') +
    (spec.className ? ` class="${escapeHtml(spec.className)}"` : '') +
    (spec.value !== undefined && spec.type !== 'password' ? ` value="${escapeHtml(spec.value)}"` : '') +
    (spec.error ? ' aria-invalid="true"' : '') +
    (described ? ` aria-describedby="${described}"` : '') +
    '>' +
    (spec.error ? `<span class="field-error" id="${id}-error">${escapeHtml(spec.error)}</span>` : '') +
    '</label>'
  );
}

export function alertBox(message: string | undefined): string {
  return message ? `<p class="alert" role="alert">${escapeHtml(message)}</p>` : '';
}

export function hiddenField(name: string, value: string): string {
  return `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
}

/** A page that says one thing, with a way onward. */
export function messagePage(title: string, message: string, link?: { href: string; label: string }): string {
  return accountPage(
    title,
    `<h1>${escapeHtml(title)}</h1><p class="lede">${escapeHtml(message)}</p>` +
      (link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''),
  );
}
