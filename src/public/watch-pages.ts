/**
 * The viewer side's pages: GET /watch/{video_id} (a plain page) and GET /embed/{video_id} (for an
 * <iframe>: full-bleed video, frameable anywhere), server-rendered HTML for ready, non-archived
 * videos, each render carrying a fresh viewing token for the player script (GET /player.js) that
 * reports to POST /collect. A video with a lead form gets it rendered hidden over the player; the
 * script shows it at its placement and submits it to POST /leads/capture. Anything else is a
 * friendly HTML 404, and a database outage a friendly HTML 503 with Retry-After. Nothing is written.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { outageError } from '../core/unavailable.ts';
import type { Database } from '../db/tables/index.ts';
import { storedLeadForm } from '../domains/leads/lead-form.ts';
import { findServableVideo } from '../domains/videos/servable-videos.queries.ts';
import { createViewingTokens } from '../domains/viewing/viewing-token.ts';
import { escapeHtml, htmlPage, LEAD_FORM_STYLE, leadFormHtml, NOTICE_STYLE, securityHeaders } from './page-parts.ts';

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

const STYLES: Record<PageKind | 'missing', string> = {
  watch:
    'html{color-scheme:light dark}body{margin:0;font:16px/1.5 system-ui,sans-serif}main{max-width:960px;margin:0 auto;padding:24px 16px}' +
    'video{display:block;width:100%;height:auto;max-height:80vh;background:#000;border-radius:6px}h1{font-size:1.4rem;margin:16px 0 0}' +
    LEAD_FORM_STYLE,
  embed:
    'html,body{margin:0;height:100%;overflow:hidden;background:#000}video{display:block;width:100%;height:100%;object-fit:contain}' +
    `.cp-stage{height:100%}${LEAD_FORM_STYLE}`,
  missing: NOTICE_STYLE,
};

function page(kind: PageKind | 'missing', title: string, body: string): string {
  return htmlPage(STYLES[kind], title, body);
}

// The embed page exists to be framed by customers' sites; the watch page only by ourselves.
const HEADERS = {
  watch: { found: securityHeaders('self', STYLES.watch), missing: securityHeaders('self', STYLES.missing) },
  embed: { found: securityHeaders('anyone', STYLES.embed), missing: securityHeaders('anyone', STYLES.missing) },
};

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
