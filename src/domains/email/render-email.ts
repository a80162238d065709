/**
 * Every message's two parts from one description: a plain-text part and an HTML part in a simple
 * transactional layout (one card, a heading, paragraphs, one button, a footer), inline-styled
 * because mail programs drop style sheets, with no remote images (nothing to load, nothing to track)
 * and everything it is given escaped, so text a person typed (a workspace's name, an inviter's) can
 * never become markup. The button's link is also written out under it, for mail programs that show
 * no buttons and people who would rather paste it.
 */

export interface EmailParts {
  /** The preview line mail programs show after the subject; hidden in the message itself. */
  preheader?: string;
  heading: string;
  paragraphs: string[];
  /** The one thing to do; its URL must be http(s). */
  action?: { label: string; url: string };
  /** Small print under the card: why this message came, what to do if it was not wanted. */
  footer?: string;
}

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/** The same rule as the public pages' escapeHtml: the five characters that can open or close markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Escaped, with the line breaks a paragraph holds kept as <br>. */
function htmlText(text: string): string {
  return escapeHtml(text).replace(/\r\n|\r|\n/g, '<br>');
}

export function renderEmail(parts: EmailParts): { text: string; html: string } {
  if (parts.action) assertWebUrl(parts.action.url);
  const clean: EmailParts = {
    preheader: parts.preheader === undefined ? undefined : printable(parts.preheader),
    heading: printable(parts.heading),
    paragraphs: parts.paragraphs.map(printable),
    action: parts.action && { label: printable(parts.action.label), url: parts.action.url },
    footer: parts.footer === undefined ? undefined : printable(parts.footer),
  };
  return { text: plainText(clean), html: html(clean) };
}

/**
 * Control characters other than line breaks and tabs draw nothing and NUL cannot be stored; lone
 * surrogates cannot be encoded. What a person typed may hold any of them.
 */
function printable(text: string): string {
  return text.toWellFormed().replace(/(?![\t\n\r])\p{Cc}/gu, '');
}

function assertWebUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw new TypeError(`An email's action must link to an http(s) URL, not ${JSON.stringify(url.slice(0, 60))}`);
  }
}

function plainText(parts: EmailParts): string {
  const blocks = [parts.heading, ...parts.paragraphs];
  if (parts.action) blocks.push(`${parts.action.label}: ${parts.action.url}`);
  if (parts.footer) blocks.push(`--\n${parts.footer}`);
  return `${blocks.join('\n\n')}\n`;
}

function html(parts: EmailParts): string {
  const paragraphs = parts.paragraphs
    .map((text) => `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#374151;">${htmlText(text)}</p>`)
    .join('');
  const action = parts.action ? actionHtml(parts.action) : '';
  const footer = parts.footer
    ? `<p style="margin:24px 0 0;font-size:13px;line-height:20px;color:#4b5563;text-align:center;">${htmlText(parts.footer)}</p>`
    : '';
  // A preview line, then invisible padding so the preview does not run on into the heading.
  const preheader = parts.preheader
    ? `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all;" aria-hidden="true">${escapeHtml(parts.preheader)}${'&#8199;&#847; '.repeat(40)}</div>`
    : '';
  return (
    '<!doctype html><html lang="en" dir="ltr"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light">' +
    `<title>${escapeHtml(parts.heading)}</title></head>` +
    `<body style="margin:0;padding:0;background-color:#f4f5f7;font-family:${FONT};">${preheader}` +
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f5f7;">' +
    '<tr><td align="center" style="padding:32px 16px;">' +
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;">' +
    '<tr><td style="background-color:#ffffff;border:1px solid #e5e7eb;border-radius:8px;padding:32px;">' +
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:30px;font-weight:600;color:#111827;">${htmlText(parts.heading)}</h1>` +
    `${paragraphs}${action}</td></tr>` +
    `<tr><td>${footer}</td></tr>` +
    '</table></td></tr></table></body></html>'
  );
}

function actionHtml(action: { label: string; url: string }): string {
  const href = escapeHtml(action.url);
  return (
    '<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;"><tr>' +
    '<td style="border-radius:6px;background-color:#111827;">' +
    `<a href="${href}" style="display:inline-block;padding:12px 20px;font-size:16px;line-height:20px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px;">${htmlText(action.label)}</a>` +
    '</td></tr></table>' +
    '<p style="margin:0;font-size:13px;line-height:20px;color:#4b5563;">Or paste this link into your browser:<br>' +
    `<a href="${href}" style="color:#1d4ed8;word-break:break-all;">${escapeHtml(action.url)}</a></p>`
  );
}
