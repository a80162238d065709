/**
 * The viewer side's pages: GET /watch/{video_id} (a plain page) and GET /embed/{video_id} (for an
 * <iframe>: full-bleed video, frameable anywhere), server-rendered HTML for ready, non-archived
 * videos, each render carrying a fresh viewing token for the player script (GET /player.js) that
 * reports to POST /collect. A video with a lead form gets it rendered hidden over the player; the
 * script shows it at its placement and submits it to POST /leads/capture. Anything else is a
 * friendly HTML 404, and a database outage a friendly HTML 503 with Retry-After. Nothing is written.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { outageError } from '../core/unavailable.ts';
import type { Database } from '../db/tables/index.ts';
import { type LeadForm, type LeadFormField, storedLeadForm } from '../domains/leads/lead-form.ts';
import { findServableVideo } from '../domains/videos/servable-videos.queries.ts';
import { createViewingTokens } from '../domains/viewing/viewing-token.ts';

export interface WatchPagesOptions {
  db: Kysely<Database>;
  /** The service secret the viewing tokens are signed with (POST /collect checks them). */
  secret: string;
  clock: () => Date;
}

type PageKind = 'watch' | 'embed';

interface PageVideo {
  id: string;
  title: string;
  duration_seconds: number | null;
  has_poster: boolean;
  width: number | null;
  height: number | null;
  lead_form: unknown;
}

// The lead form over the player: a dimmed layer the size of the video, its controls large enough to
// use on a phone. `[hidden]` must win over the layer's display.
const FORM_STYLE =
  '.cp-stage{position:relative}.cp-lead{position:absolute;inset:0;display:flex;flex-direction:column;justify-content:center;' +
  'align-items:center;gap:8px;padding:16px;overflow:auto;background:rgba(0,0,0,.85);color:#fff;font:16px/1.4 system-ui,sans-serif}' +
  '.cp-lead[hidden]{display:none}.cp-lead h2{font-size:1.2rem;margin:0 0 4px;text-align:center}' +
  '.cp-lead label{display:flex;flex-direction:column;gap:2px;width:min(22rem,100%);font-size:.9rem}' +
  '.cp-lead input{font:inherit;padding:8px;border-radius:4px;border:1px solid #999;background:#fff;color:#111}' +
  '.cp-lead input[aria-invalid=true]{border-color:#ff8a80;outline:2px solid #ff8a80}' +
  '.cp-lead button{font:inherit;padding:8px 16px;border-radius:4px;border:0;cursor:pointer}' +
  '.cp-lead button[type=submit]{background:#2563eb;color:#fff}.cp-lead .cp-dismiss{background:transparent;color:#ddd;text-decoration:underline}' +
  '.cp-lead .cp-actions{display:flex;gap:8px;align-items:center}.cp-lead .cp-status{min-height:1.4em;margin:0;color:#ffd180}' +
  '.cp-lead :focus-visible{outline:3px solid #93c5fd;outline-offset:2px}' +
  '.cp-lead-sent{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}';

const STYLES: Record<PageKind | 'missing', string> = {
  watch:
    'html{color-scheme:light dark}body{margin:0;font:16px/1.5 system-ui,sans-serif}main{max-width:960px;margin:0 auto;padding:24px 16px}' +
    'video{display:block;width:100%;height:auto;max-height:80vh;background:#000;border-radius:6px}h1{font-size:1.4rem;margin:16px 0 0}' +
    FORM_STYLE,
  embed:
    'html,body{margin:0;height:100%;overflow:hidden;background:#000}video{display:block;width:100%;height:100%;object-fit:contain}' +
    `.cp-stage{height:100%}${FORM_STYLE}`,
  missing:
    'html{color-scheme:light dark}body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,sans-serif;text-align:center}' +
    'main{padding:24px}h1{font-size:1.4rem;margin:0 0 8px}p{margin:0;opacity:.75}',
};

// Inline styles are allowed by their hash, so the policy needs no 'unsafe-inline' at all.
const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

function securityHeaders(kind: PageKind, css: string): Record<string, string> {
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${styleHash(css)}`,
    "media-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    // The embed page exists to be framed by customers' sites; the watch page only by ourselves.
    kind === 'embed' ? 'frame-ancestors *' : "frame-ancestors 'self'",
  ].join('; ');
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    // Our own requests (media, /collect) keep the page address; other sites never see the video id.
    'Referrer-Policy': 'same-origin',
    // Every render carries a new viewing token: nothing may serve one page view to another.
    'Cache-Control': 'no-store',
  };
}

const HEADERS = {
  watch: { found: securityHeaders('watch', STYLES.watch), missing: securityHeaders('watch', STYLES.missing) },
  embed: { found: securityHeaders('embed', STYLES.embed), missing: securityHeaders('embed', STYLES.missing) },
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(kind: PageKind | 'missing', title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    // An empty icon: browsers would otherwise ask for /favicon.ico on every page view.
    `<link rel="icon" href="data:,"><title>${escapeHtml(title)}</title><style>${STYLES[kind]}</style></head><body>${body}</body></html>`
  );
}

function videoPage(kind: PageKind, video: PageVideo, token: string): string {
  const attributes: [string, string | number | null][] = [
    ['src', `/media/${video.id}`],
    ['poster', video.has_poster ? `/media/${video.id}/poster.jpg` : null],
    // width and height give the box its aspect ratio before the file's metadata arrives.
    ['width', video.width],
    ['height', video.height],
    ['preload', 'metadata'],
    ['aria-label', video.title],
    ['data-cuepoint-token', token],
    ['data-cuepoint-duration', video.duration_seconds],
  ];
  const rendered = attributes
    .filter(([, value]) => value !== null)
    .map(([name, value]) => ` ${name}="${escapeHtml(String(value))}"`)
    .join('');
  const form = leadFormHtml(storedLeadForm(video.lead_form));
  const player = `<div class="cp-stage"><video${rendered} controls playsinline></video>${form}</div><script src="/player.js" defer></script>`;
  const body = kind === 'embed' ? player : `<main>${player}<h1>${escapeHtml(video.title)}</h1></main>`;
  return page(kind, video.title, body);
}

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
function leadFormHtml(form: LeadForm | null): string {
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

const MISSING_PAGE = page(
  'missing',
  'Video not available',
  '<main><h1>This video is not available</h1><p>The link may be mistyped, or the video may have been removed or not be ready yet.</p></main>',
);

// A viewer's browser gets a page, not the API's JSON error, while the database is away.
const UNAVAILABLE_PAGE = page(
  'missing',
  'Video temporarily unavailable',
  '<main><h1>This video is temporarily unavailable</h1><p>Please try again in a few moments.</p></main>',
);

export async function registerWatchPages(app: FastifyInstance, options: WatchPagesOptions): Promise<void> {
  await app.register(async (pages) => {
    pages.setErrorHandler((error, request, reply) => {
      const outage = outageError(error);
      if (!outage) throw error; // the app's handler answers the rest
      request.log.warn({ err: error }, 'database unavailable');
      const kind: PageKind = request.url.startsWith('/embed/') ? 'embed' : 'watch';
      return reply.code(outage.status).headers(HEADERS[kind].missing).headers(outage.headers).send(UNAVAILABLE_PAGE);
    });
    registerPageRoutes(pages, options);
  });
}

function registerPageRoutes(app: FastifyInstance, options: WatchPagesOptions): void {
  const tokens = createViewingTokens(options.secret);
  const playerScript = readFileSync(new URL('./player.js', import.meta.url));

  async function render(kind: PageKind, request: FastifyRequest, reply: FastifyReply) {
    const videoId = (request.params as { '*': string })['*'];
    const video = await findServableVideo(options.db, videoId, (query) =>
      query.select(['id', 'title', 'duration_seconds', 'has_poster', 'width', 'height', 'lead_form']),
    );
    if (!video) return reply.code(404).headers(HEADERS[kind].missing).send(MISSING_PAGE);
    const { token } = tokens.issue(video.id, options.clock());
    return reply
      .code(200)
      .headers(HEADERS[kind].found)
      .send(videoPage(kind, video, token));
  }

  // Wildcards rather than :video_id, so that any malformed id, an over-long one too, gets the page.
  app.get('/watch/*', (request, reply) => render('watch', request, reply));
  app.get('/embed/*', (request, reply) => render('embed', request, reply));
  app.get('/player.js', (_request, reply) =>
    reply
      .header('Content-Type', 'text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300')
      .header('X-Content-Type-Options', 'nosniff')
      .send(playerScript),
  );
}
