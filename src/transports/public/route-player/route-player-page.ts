/**
 * The HTML of the route player (GET /r/{route_id}): the entry step's video (its original file, with
 * its captions track) with, over it, the question layer, the end card and the route's lead form, all
 * hidden until /route-player.js shows them; the route's name under it. Everything the script needs
 * (the route token, each step's video, adaptive stream, captions, viewing token, question and
 * choices) is a JSON data block,
 * which no browser runs, so the CSP still allows no inline script. And the short pages: paused, not
 * available, temporarily unavailable.
 */
import type { PlayableVideo, RouteGraph } from '../../../domains/routes/index.ts';
import { ROUTE_LEAD_FORM } from '../../../domains/routes/index.ts';
import { hlsPath } from '../../../media/media-links.ts';
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
  scriptJson,
  securityHeaders,
} from '../http/page-parts.ts';

// The layers over the video take its box; on a phone a wide video is short, so the stage keeps a
// height the question and a few choices fit in. Choices wrap and are at least 44 px tall (WCAG 2.5.5).
const OVERLAY =
  'position:absolute;inset:0;display:flex;flex-direction:column;justify-content:center;align-items:center;gap:12px;padding:16px;' +
  'overflow:auto;background:rgba(0,0,0,.85);color:#fff;font:16px/1.4 system-ui,sans-serif;text-align:center';
export const ROUTE_PAGE_STYLE =
  'html{color-scheme:light dark}body{margin:0;font:16px/1.5 system-ui,sans-serif}main{max-width:960px;margin:0 auto;padding:24px 16px}' +
  'video{display:block;width:100%;height:auto;min-height:16rem;max-height:80vh;background:#000;border-radius:6px;object-fit:contain}' +
  'h1{font-size:1.4rem;margin:16px 0 0}' +
  LEAD_FORM_STYLE +
  `.cp-question,.cp-end{${OVERLAY}}.cp-question[hidden],.cp-end[hidden]{display:none}` +
  '.cp-question h2,.cp-end h2{font-size:1.2rem;margin:0;overflow-wrap:anywhere}.cp-end p{margin:0}.cp-end a{color:#93c5fd}' +
  '.cp-choices{display:flex;flex-wrap:wrap;justify-content:center;gap:8px;max-width:100%}' +
  '.cp-choices button,.cp-end button{font:inherit;min-height:44px;min-width:44px;max-width:100%;padding:10px 18px;border-radius:6px;' +
  'border:0;background:#fff;color:#111;cursor:pointer;overflow-wrap:anywhere}' +
  '.cp-question :focus-visible,.cp-end :focus-visible{outline:3px solid #93c5fd;outline-offset:2px}' +
  // Framed by the channel page: the player fills the frame, without the page's margins and heading.
  'main.cp-framed{max-width:none;padding:0}.cp-framed video{height:100vh;min-height:0;max-height:none;border-radius:0}';

export const ROUTE_HEADERS = {
  found: securityHeaders('self', ROUTE_PAGE_STYLE, { playsStreams: true }),
  notice: securityHeaders('self', NOTICE_STYLE),
};

/** The form the page shows for a lead_form choice: the email and a first name (the endpoint takes more). */
const SHOWN_LEAD_FORM = { ...ROUTE_LEAD_FORM, fields: ['first_name' as const] };

export interface StepTokens {
  /** By step id: the viewing token of the step's video, for the playable steps. */
  get(stepId: string): string | undefined;
}

export function routePage(
  route: { id: string; name: string },
  routeToken: string,
  graph: RouteGraph,
  playable: ReadonlyMap<string, PlayableVideo>,
  stepTokens: StepTokens,
  framed = false,
): string {
  const steps = graph.steps.map((step) => {
    const video = playable.get(step.video.id);
    const token = stepTokens.get(step.id);
    return {
      step_id: step.id,
      entry: step.position === 0,
      video:
        video && token
          ? {
              video_id: video.id,
              title: step.video.title,
              src: `/media/${video.id}`,
              hls: video.has_stream ? hlsPath(video.id) : null,
              poster: video.has_poster ? `/media/${video.id}/poster.jpg` : null,
              duration: video.duration_seconds,
              captions: captionsOf(video),
              token,
            }
          : null,
      question: step.question,
      ask_at_seconds: step.askAtSeconds,
      choices: step.choices.map((choice) => ({
        choice_id: choice.id,
        label: choice.label,
        target: choice.target,
        url: choice.url,
        to_step_id: choice.toStepId,
        event_type_id: choice.eventType?.id ?? null,
      })),
    };
  });
  const data = { route_id: route.id, token: routeToken, steps };
  const entry = graph.steps.find((step) => step.position === 0);
  const entryVideo = entry ? playable.get(entry.video.id) : undefined;
  const attributes: [string, string | number | null][] = entryVideo
    ? [
        ['src', `/media/${entryVideo.id}`],
        ['poster', entryVideo.has_poster ? `/media/${entryVideo.id}/poster.jpg` : null],
        ['width', entryVideo.width],
        ['height', entryVideo.height],
        // With a stream on offer, /playback.js chooses before anything is fetched (as on a watch page).
        ['preload', entryVideo.has_stream ? 'none' : 'metadata'],
        ['aria-label', entry?.video.title ?? route.name],
      ]
    : [['aria-label', route.name]];
  const rendered = attributes
    .filter(([, value]) => value !== null)
    .map(([name, value]) => ` ${name}="${escapeHtml(String(value))}"`)
    .join('');
  const stage =
    `<div class="cp-stage"><video${rendered} controls playsinline>${captionTrackHtml(entryVideo ? captionsOf(entryVideo) : null)}</video>` +
    // A question is a group of buttons; it is not a dialog: Escape does not dismiss it.
    `<div class="cp-question" role="group" aria-labelledby="cp-question-text" hidden><h2 id="cp-question-text"></h2><div class="cp-choices"></div></div>` +
    `<div class="cp-end" hidden><h2 tabindex="-1"></h2><p></p><a target="_blank" rel="noopener" hidden></a>` +
    `<button type="button" class="cp-restart">Watch again</button></div>` +
    `${leadFormHtml(SHOWN_LEAD_FORM)}</div>`;
  const body =
    (framed ? `<main class="cp-framed">${stage}</main>` : `<main>${stage}<h1>${escapeHtml(route.name)}</h1></main>`) +
    `<script type="application/json" id="cp-route">${scriptJson(data)}</script>` +
    `${playbackScriptHtml()}<script src="/player.js" defer></script><script src="/route-player.js" defer></script>`;
  return htmlPage(ROUTE_PAGE_STYLE, route.name, body);
}

/** The video's captions track, which the script swaps in when its step plays; null without a transcript. */
function captionsOf(video: PlayableVideo): CaptionTrack | null {
  return video.captions_language === undefined ? null : captionTrack(video.id, video.captions_language);
}

const notice = (title: string, heading: string, text: string) =>
  htmlPage(NOTICE_STYLE, title, `<main><h1>${heading}</h1><p>${text}</p></main>`);

export const PAUSED_PAGE = notice('Route paused', 'This route is paused', 'Its owner has paused it for now. Please come back later.');
export const MISSING_PAGE = notice(
  'Route not available',
  'This route is not available',
  'The link may be mistyped, or the route may have been removed or not be published yet.',
);
// A viewer's browser gets a page, not the API's JSON error, while the database is away.
export const UNAVAILABLE_PAGE = notice(
  'Route temporarily unavailable',
  'This route is temporarily unavailable',
  'Please try again in a few moments.',
);
