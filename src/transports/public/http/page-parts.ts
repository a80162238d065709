/**
 * The pieces every public HTML page is made of (watch and embed pages, the route player): escaping,
 * the document around a body, the security headers (a CSP allowing our own scripts and the page's
 * one inline style by its hash, nothing inline to run), a video's captions track, the playback
 * script's tag, and the lead form's markup and style, which the player scripts show over the video.
 */
import { createHash } from 'node:crypto';
import { languageLabel } from '../../../core/values/language-tag.ts';
import type { LeadForm, LeadFormField } from '../../../domains/leads/index.ts';
import { captionsPath } from '../../../media/media-links.ts';
import { hlsScriptPath } from '../assets/hls-script.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A whole page: its title (escaped), its one inline style, its body, and more of its head (meta tags, already escaped). */
export function htmlPage(css: string, title: string, body: string, head = ''): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    // An empty icon: browsers would otherwise ask for /favicon.ico on every page view.
    `<link rel="icon" href="data:,"><title>${escapeHtml(title)}</title>${head}<style>${css}</style></head><body>${body}</body></html>`
  );
}

/** JSON for a data block or JSON-LD, safe inside <script>: nothing in it can close the element or start markup. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A video's captions as a player loads them: the file, its language tag and the name the captions menu shows. */
export interface CaptionTrack {
  src: string;
  srclang: string | null;
  label: string;
}

/** The captions of a video with a transcript in this language (null: not known); the player's menu names the language in itself. */
export function captionTrack(videoId: string, language: string | null): CaptionTrack {
  return { src: captionsPath(videoId), srclang: language, label: language ? languageLabel(language) : 'Captions' };
}

/**
 * The <track> inside a <video>: captions the viewer turns on from the player's menu (not shown
 * until then). Loaded from our own origin, which the CSP's media-src allows.
 */
export function captionTrackHtml(track: CaptionTrack | null): string {
  if (!track) return '';
  const srclang = track.srclang ? ` srclang="${escapeHtml(track.srclang)}"` : '';
  return `<track kind="captions" src="${escapeHtml(track.src)}"${srclang} label="${escapeHtml(track.label)}">`;
}

/**
 * The script that gives a page's <video> its source (the adaptive stream or the original file), told
 * where hls.js is; before /player.js, whose reporting then finds the source in place.
 */
export function playbackScriptHtml(): string {
  return `<script src="/playback.js" data-hls-script="${escapeHtml(hlsScriptPath())}" defer></script>`;
}

// Inline styles are allowed by their hash, so the policy needs no 'unsafe-inline' at all.
const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

export interface PageAllowances {
  /** It frames our own players (the channel page's featured item). */
  framesOwnPages?: boolean;
  /**
   * It plays adaptive streams through hls.js (/playback.js): the <video> then plays a MediaSource,
   * whose address is a blob: URL. hls.js fetches playlists and segments from our origin, which
   * connect-src allows already, and runs without a worker, so nothing else widens.
   */
  playsStreams?: boolean;
}

/** The headers of a page with this inline style, framable by any site (`*`) or only by ourselves. */
export function securityHeaders(framedBy: 'anyone' | 'self', css: string, allowances: PageAllowances = {}): Record<string, string> {
  const policy = [
    "default-src 'none'",
    ...(allowances.framesOwnPages ? ["frame-src 'self'"] : []),
    "script-src 'self'",
    `style-src ${styleHash(css)}`,
    allowances.playsStreams ? "media-src 'self' blob:" : "media-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    framedBy === 'anyone' ? 'frame-ancestors *' : "frame-ancestors 'self'",
  ].join('; ');
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    // Our own requests (media, /collect) keep the page address; other sites never see the page's id.
    'Referrer-Policy': 'same-origin',
    // Every render carries new tokens: nothing may serve one page view to another.
    'Cache-Control': 'no-store',
  };
}

/**
 * A page policy that also lets media, posters and hls.js's requests reach `origin`: with
 * `CUEPOINT_MEDIA_DELIVERY=redirect`, /media answers with a redirect to the object store's presigned
 * URLs, and a CSP checks where a redirect lands, so 'self' alone would block them.
 */
export function allowMediaOrigin(policy: string, origin: string): string {
  return policy
    .split('; ')
    .map((directive) => (/^(media-src|img-src|connect-src) /.test(directive) ? `${directive} ${origin}` : directive))
    .join('; ');
}

// The lead form over the player: a dimmed layer the size of the video, its controls large enough to
// use on a phone. `[hidden]` must win over the layer's display. Where it does not fit the player (a
// phone's player is about 190 px tall; the form needs up to 270) or the player is partly off screen
// (a phone in landscape), the player script makes it take the whole screen (.cp-lead-full). `safe
// center` keeps the headline reachable should it still overflow: plain center cuts off the top.
export const LEAD_FORM_STYLE =
  '.cp-stage{position:relative}.cp-lead{position:absolute;inset:0;display:flex;flex-direction:column;justify-content:safe center;' +
  'align-items:center;gap:8px;padding:16px;overflow:auto;background:rgba(0,0,0,.85);color:#fff;font:16px/1.4 system-ui,sans-serif}' +
  '.cp-lead.cp-lead-full{position:fixed;z-index:2147483000;background:#111}' +
  '@media (max-height:420px){.cp-lead{gap:4px;padding:8px 16px}.cp-lead h2{font-size:1.05rem}.cp-lead input{padding:6px 8px}}' +
  '.cp-lead[hidden]{display:none}.cp-lead h2{font-size:1.2rem;margin:0 0 4px;text-align:center}' +
  '.cp-lead label{display:flex;flex-direction:column;gap:2px;width:min(22rem,100%);font-size:.9rem}' +
  '.cp-lead input{font:inherit;padding:8px;border-radius:4px;border:1px solid #999;background:#fff;color:#111}' +
  '.cp-lead input[aria-invalid=true]{border-color:#ff8a80;outline:2px solid #ff8a80}' +
  '.cp-lead button{font:inherit;padding:8px 16px;border-radius:4px;border:0;cursor:pointer}' +
  '.cp-lead button[type=submit]{background:#2563eb;color:#fff}.cp-lead .cp-dismiss{background:transparent;color:#ddd;text-decoration:underline}' +
  '.cp-lead .cp-actions{display:flex;gap:8px;align-items:center}.cp-lead .cp-status{min-height:1.4em;margin:0;color:#ffd180}' +
  '.cp-lead :focus-visible{outline:3px solid #93c5fd;outline-offset:2px}' +
  '.cp-lead-sent{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}';

const FIELD_LABELS: Record<LeadFormField, { label: string; type: string; autocomplete: string; maxlength: number }> = {
  first_name: { label: 'First name', type: 'text', autocomplete: 'given-name', maxlength: 100 },
  last_name: { label: 'Last name', type: 'text', autocomplete: 'family-name', maxlength: 100 },
  phone: { label: 'Phone', type: 'tel', autocomplete: 'tel', maxlength: 32 },
};

/**
 * The lead form, hidden until the player shows it: a real <form> with a label on every input, a
 * status line read out by screen readers and describing every input (so a field marked invalid
 * says why), a dismiss button unless it is an unskippable gate, and, outside the form, a visually
 * hidden line that confirms a sent form to screen readers after the form has gone.
 */
export function leadFormHtml(form: LeadForm | null): string {
  if (!form) return '';
  const dismissable = form.placement !== 'before' || form.skippable;
  const attributes = [
    ` data-placement="${form.placement}"`,
    form.at_second !== null ? ` data-at-second="${form.at_second}"` : '',
    ` data-dismissable="${dismissable}"`,
  ].join('');
  const input = (name: string, label: string, type: string, autocomplete: string, maxlength: number, required: boolean) =>
    `<label>${label}<input name="${name}" type="${type}" autocomplete="${autocomplete}" maxlength="${maxlength}"` +
    `${required ? ' required aria-required="true"' : ''} aria-describedby="cp-lead-status"></label>`;
  const fields = [
    input('email', 'Email', 'email', 'email', 254, true),
    ...form.fields.map((name) => {
      const field = FIELD_LABELS[name];
      return input(name, field.label, field.type, field.autocomplete, field.maxlength, false);
    }),
  ].join('');
  const dismiss = dismissable
    ? `<button type="button" class="cp-dismiss">${form.placement === 'before' ? 'Skip' : 'No thanks'}</button>`
    : '';
  return (
    `<form class="cp-lead" hidden novalidate aria-labelledby="cp-lead-title"${attributes}>` +
    `<h2 id="cp-lead-title">${escapeHtml(form.headline)}</h2>${fields}` +
    `<p id="cp-lead-status" class="cp-status" role="status" aria-live="polite"></p>` +
    `<div class="cp-actions"><button type="submit">${escapeHtml(form.button_text)}</button>${dismiss}</div></form>` +
    // Outside the form, which hides once sent: a hidden live region is not read out.
    `<p class="cp-lead-sent" role="status" aria-live="polite"></p>`
  );
}

/** The style of the short pages that say something is not there (404, 503, paused). */
export const NOTICE_STYLE =
  'html{color-scheme:light dark}body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,sans-serif;text-align:center}' +
  'main{padding:24px}h1{font-size:1.4rem;margin:0 0 8px}p{margin:0;opacity:.75}';
