/**
 * The viewer side's pages: GET /watch/{video_id} (a plain page) and GET /embed/{video_id} (for an
 * <iframe>: full-bleed video, frameable anywhere), server-rendered HTML for ready, non-archived
 * videos, each render carrying a fresh viewing token for the player script (GET /player.js) that
 * reports to POST /collect. A video with a lead form gets it rendered hidden over the player; the
 * script shows it at its placement and submits it to POST /leads/capture. A video with a bookable
 * "Book a call" event type links to its booking page: below the player on the watch page, over it
 * when the video ends on the embed page (in a new tab: the embed is on someone else's site); the
 * script reports a click as a `cta_click`. A video with a transcript offers it as captions (a
 * <track> of GET /media/{video_id}/captions.vtt). A video with a ready rendition plays its adaptive
 * stream where the browser can (GET /playback.js chooses, loading hls.js, served here too, only when
 * it needs it), its original file otherwise; the original stays the <video>'s src, so it also plays
 * without a script. Anything else is a friendly HTML 404, and a database outage a friendly HTML 503
 * with Retry-After. Nothing is written.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataAccess } from '../../../core/context.ts';
import { storedLeadForm } from '../../../domains/leads/index.ts';
import { findBookableEventType } from '../../../domains/scheduling/index.ts';
import { captionLanguages } from '../../../domains/transcripts/index.ts';
import { findServableVideo, videosWithAdaptiveStream } from '../../../domains/videos/index.ts';
import { createViewingTokens } from '../../../domains/viewing/index.ts';
import { bookingPagePath, hlsPath } from '../../../media/media-links.ts';
import { serveHlsScript } from '../assets/hls-script.ts';
import {
  type CaptionTrack,
  captionTrack,
  captionTrackHtml,
  escapeHtml,
  htmlPage,
  LEAD_FORM_STYLE,
  leadFormHtml,
  NOTICE_STYLE,
  playbackScriptHtml,
  securityHeaders,
} from '../http/page-parts.ts';
import { answerOutageWithPage, servePageScript } from '../http/page-serving.ts';

export interface WatchPagesOptions {
  db: DataAccess;
  /** The service secret the viewing tokens are signed with (POST /collect checks them). */
  secret: string;
  clock: () => Date;
}

type PageKind = 'watch' | 'embed';

interface PageVideo {
  id: string;
  workspace_id: string;
  title: string;
  duration_seconds: number | null;
  has_poster: boolean;
  width: number | null;
  height: number | null;
  lead_form: unknown;
  booking_event_type_id: string | null;
}

/** The "Book a call" link: a real link (keyboard, middle click, no script needed) the player reports when clicked. */
const BOOK_LABEL = 'Book a call';
const BOOK_STYLE = {
  watch:
    '.cp-book{display:inline-flex;align-items:center;min-height:44px;margin-top:12px;padding:0 18px;border-radius:6px;background:#2563eb;' +
    'color:#fff;font-weight:600;text-decoration:none}.cp-book:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}',
  // Over the player's lower right, clear of its controls; the lead form, later in the stage, covers it while it shows.
  embed:
    '.cp-book{position:absolute;right:16px;bottom:64px;display:inline-flex;align-items:center;min-height:44px;padding:0 18px;' +
    'border-radius:6px;background:#2563eb;color:#fff;font:600 16px/1.4 system-ui,sans-serif;text-decoration:none}' +
    '.cp-book[hidden]{display:none}.cp-book:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}',
};

function bookLink(kind: PageKind, href: string): string {
  const attributes = kind === 'embed' ? ` target="_blank" rel="noopener" data-cuepoint-show="ended" hidden` : '';
  return `<a class="cp-book" href="${escapeHtml(href)}" data-cuepoint-cta="${BOOK_LABEL}"${attributes}>${BOOK_LABEL}</a>`;
}

const STYLES: Record<PageKind | 'missing', string> = {
  watch:
    'html{color-scheme:light dark}body{margin:0;font:16px/1.5 system-ui,sans-serif}main{max-width:960px;margin:0 auto;padding:24px 16px}' +
    'video{display:block;width:100%;height:auto;max-height:80vh;background:#000;border-radius:6px}h1{font-size:1.4rem;margin:16px 0 0}' +
    LEAD_FORM_STYLE +
    BOOK_STYLE.watch,
  embed:
    'html,body{margin:0;height:100%;overflow:hidden;background:#000}video{display:block;width:100%;height:100%;object-fit:contain}' +
    `.cp-stage{height:100%}${LEAD_FORM_STYLE}${BOOK_STYLE.embed}`,
  missing: NOTICE_STYLE,
};

function page(kind: PageKind | 'missing', title: string, body: string): string {
  return htmlPage(STYLES[kind], title, body);
}

// The embed page exists to be framed by customers' sites; the watch page only by ourselves.
const HEADERS = {
  watch: { found: securityHeaders('self', STYLES.watch, { playsStreams: true }), missing: securityHeaders('self', STYLES.missing) },
  embed: { found: securityHeaders('anyone', STYLES.embed, { playsStreams: true }), missing: securityHeaders('anyone', STYLES.missing) },
};

/** What a page shows beside the video: where "Book a call" leads, its captions, whether it has an adaptive stream. */
interface PageExtras {
  bookingHref: string | null;
  captions: CaptionTrack | null;
  streams: boolean;
}

function videoPage(kind: PageKind, video: PageVideo, token: string, { bookingHref, captions, streams }: PageExtras): string {
  const attributes: [string, string | number | null][] = [
    ['src', `/media/${video.id}`],
    ['poster', video.has_poster ? `/media/${video.id}/poster.jpg` : null],
    // width and height give the box its aspect ratio before the file's metadata arrives.
    ['width', video.width],
    ['height', video.height],
    // With a stream on offer, the original is only the fallback: the browser must not start fetching
    // it before /playback.js has chosen (it then asks for what preload="metadata" would).
    ['preload', streams ? 'none' : 'metadata'],
    ['data-cuepoint-hls', streams ? hlsPath(video.id) : null],
    ['aria-label', video.title],
    ['data-cuepoint-token', token],
    ['data-cuepoint-duration', video.duration_seconds],
  ];
  const rendered = attributes
    .filter(([, value]) => value !== null)
    .map(([name, value]) => ` ${name}="${escapeHtml(String(value))}"`)
    .join('');
  const form = leadFormHtml(storedLeadForm(video.lead_form));
  const over = bookingHref && kind === 'embed' ? bookLink(kind, bookingHref) : '';
  const below = bookingHref && kind === 'watch' ? bookLink(kind, bookingHref) : '';
  const player =
    `<div class="cp-stage"><video${rendered} controls playsinline>${captionTrackHtml(captions)}</video>${over}${form}</div>` +
    `${streams ? playbackScriptHtml() : ''}<script src="/player.js" defer></script>`;
  const body = kind === 'embed' ? player : `<main>${player}<h1>${escapeHtml(video.title)}</h1>${below}</main>`;
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
    pages.setErrorHandler(
      answerOutageWithPage((request) => {
        const kind: PageKind = request.url.startsWith('/embed/') ? 'embed' : 'watch';
        return { headers: HEADERS[kind].missing, body: UNAVAILABLE_PAGE };
      }),
    );
    registerPageRoutes(pages, options);
  });
}

function registerPageRoutes(app: FastifyInstance, options: WatchPagesOptions): void {
  const tokens = createViewingTokens(options.secret);

  async function render(kind: PageKind, request: FastifyRequest, reply: FastifyReply) {
    const videoId = (request.params as { '*': string })['*'];
    const video = await findServableVideo(options.db, videoId, (query) =>
      query.select([
        'id',
        'workspace_id',
        'title',
        'duration_seconds',
        'has_poster',
        'width',
        'height',
        'lead_form',
        'booking_event_type_id',
      ]),
    );
    if (!video) return reply.code(404).headers(HEADERS[kind].missing).send(MISSING_PAGE);
    const { token } = tokens.issue(video.id, options.clock());
    const languages = await captionLanguages(options.db, video.workspace_id, [video.id]);
    const captions = languages.has(video.id) ? captionTrack(video.id, languages.get(video.id) ?? null) : null;
    const streams = (await videosWithAdaptiveStream(options.db, video.workspace_id, [video.id])).has(video.id);
    return reply
      .code(200)
      .headers(HEADERS[kind].found)
      .send(videoPage(kind, video, token, { bookingHref: await bookingHref(options, video), captions, streams }));
  }

  // Wildcards rather than :video_id, so that any malformed id, an over-long one too, gets the page.
  app.get('/watch/*', (request, reply) => render('watch', request, reply));
  app.get('/embed/*', (request, reply) => render('embed', request, reply));
  servePageScript(app, '/player.js', 'player.js');
  // The route player loads these too.
  servePageScript(app, '/playback.js', 'playback.js');
  serveHlsScript(app);
}

/** Where the video's "Book a call" leads, while its event type can be booked (active, plan with scheduling). */
async function bookingHref(options: WatchPagesOptions, video: PageVideo): Promise<string | null> {
  if (!video.booking_event_type_id) return null;
  const eventType = await findBookableEventType(options.db, video.booking_event_type_id);
  if (eventType?.workspace_id !== video.workspace_id) return null;
  return bookingPagePath(eventType.id, { videoId: video.id });
}
