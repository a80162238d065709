/**
 * /app/videos/{video_id}: everything about one video on one page, each part from its own catalog
 * operation called in parallel as the signed-in person: the player and lifetime figures (get_video),
 * the retention curve with key moments and drop-offs (get_video_retention, get_video_key_moments),
 * daily views, watch time and conversions for a chosen window (get_video_analytics; get_workspace
 * for the time zone "the last 7 days" are counted in), the leads it brought (list_leads), the
 * transcript with search and caption upload (get_video_transcript, set_video_transcript), and the
 * share and embed codes. "Edit" for roles with videos:write; "Delete video" (delete_video) for owners
 * and admins, confirmed in its dialog.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { OperationOutcome } from '../../../../core/pipeline/pipeline.ts';
import { escapeHtml } from '../../http/page-parts.ts';
import type { SessionCookies } from '../../http/session-cookie.ts';
import type { PublicSurfaceDeps } from '../../surface.ts';
import { frameOf } from '../frame/dashboard-frame.ts';
import { DASHBOARD_HEADERS, dashboardPage } from '../frame/dashboard-page.ts';
import { confirmControl } from '../kit/confirm-dialog.ts';
import type { DashboardSession } from '../kit/dashboard-session.ts';
import { type Answer, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import type {
  AnalyticsAnswer,
  KeyMomentsAnswer,
  LeadsAnswer,
  Part,
  RetentionAnswer,
  TranscriptAnswer,
  VideoAnswer,
} from './video-answers.ts';
import { LEADS_SHOWN, leadsPart } from './video-leads.ts';
import { performancePart } from './video-performance.ts';
import { lifetimeTiles, playerPart, videoFacts } from './video-player.ts';
import { analyticsWindow, chosenRange } from './video-range.ts';
import { retentionPart } from './video-retention.ts';
import { sharePart } from './video-share.ts';
import { type CaptionForm, captionForm, transcriptPart } from './video-transcript.ts';

type Params = { video_id: string };

/** Caption files can be long (the operation takes up to a million characters); a form body encodes them larger still. */
const CAPTION_BODY_LIMIT = 4 * 1024 * 1024;

/** The longest transcript page the operation gives in one call: the page shows this much. */
const TRANSCRIPT_CHARS = 100_000;

const DONE: Record<string, string> = {
  captions: 'The captions are saved: the transcript, the player’s captions and search use them now.',
  'captions-unchanged': 'Those captions say what the transcript already said: nothing changed.',
};

const SECTIONS: [id: string, label: string][] = [
  ['overview', 'Overview'],
  ['retention', 'Retention'],
  ['performance', 'Views'],
  ['leads', 'Leads'],
  ['transcript', 'Transcript'],
  ['share', 'Share'],
];

function partOf<T>(answer: Answer<T>): Part<T> {
  return answer.ok ? { ok: true, body: answer.body } : { ok: false, status: answer.status, message: answer.error.message };
}

/** Calls an operation when the person's role may, else answers nothing (the part says so). */
async function ifMay<T>(context: PageContext, scope: string, name: string, input: Record<string, unknown>): Promise<Part<T> | undefined> {
  if (!context.may(scope)) return undefined;
  return partOf(await context.call<T>(name, input));
}

function section(id: string, heading: string, body: string): string {
  return `<section id="${id}" class="video-section" aria-labelledby="${id}-heading"><h2 id="${id}-heading">${escapeHtml(heading)}</h2>${body}</section>`;
}

/** The page; `captions` is the caption form sent back with its problems. */
async function renderVideoPage(context: PageContext, videoId: string, captions?: CaptionForm): Promise<FastifyReply> {
  const query = context.query;
  const range = chosenRange(query);
  const q = (query.q ?? '').trim().slice(0, 200);
  const needsZone = range.kind === 'preset';
  // One call per part, all at once. The time zone is needed first only for a preset window, so that
  // part waits for get_workspace while every other part is already on its way.
  const workspace = context.call<{ settings?: { timezone?: string } }>('get_workspace', {});
  const analytics = (async (): Promise<Part<AnalyticsAnswer> | undefined> => {
    if (!context.may('analytics:read')) return undefined;
    const zone = needsZone ? await workspace : undefined;
    const timeZone = zone?.ok ? (zone.body.settings?.timezone ?? 'UTC') : 'UTC';
    const window = analyticsWindow(range, timeZone, context.deps.clock());
    if (!window) return undefined;
    return partOf(await context.call<AnalyticsAnswer>('get_video_analytics', { video_id: videoId, ...window }));
  })();
  const [video, retention, moments, performance, leads, transcript, zone] = await Promise.all([
    context.call<VideoAnswer>('get_video', { video_id: videoId }),
    ifMay<RetentionAnswer>(context, 'analytics:read', 'get_video_retention', { video_id: videoId }),
    ifMay<KeyMomentsAnswer>(context, 'videos:read', 'get_video_key_moments', { video_id: videoId }),
    analytics,
    ifMay<LeadsAnswer>(context, 'leads:read', 'list_leads', { video_id: videoId, sort: 'engagement', limit: LEADS_SHOWN }),
    ifMay<TranscriptAnswer>(context, 'transcripts:read', 'get_video_transcript', { video_id: videoId, max_chars: TRANSCRIPT_CHARS }),
    workspace,
  ]);
  if (!video.ok) {
    if (video.status === 404 || video.status === 400) return context.notFound('No such video', 'It may have been deleted.');
    return context.refused(video);
  }
  const timeZone = zone.ok ? (zone.body.settings?.timezone ?? 'UTC') : 'UTC';
  const v = video.body;
  const pagePath = `/app/videos/${v.video_id}`;
  const done = DONE[query.done ?? ''];
  const status = v.archived
    ? '<span class="status archived">archived</span>'
    : `<span class="status ${escapeHtml(v.status)}">${escapeHtml(v.status.replace('_', ' '))}</span>`;
  const actions =
    (context.may('videos:write') ? `<a class="button" href="${pagePath}/edit">Edit</a>` : '') +
    (context.manager
      ? confirmControl({
          label: 'Delete video',
          page: pagePath,
          action: `${pagePath}/delete`,
          heading: `Delete “${v.title}”?`,
          consequence:
            'The video, its files, captions, transcript and statistics are removed for good, and it leaves every route and the channel. This cannot be undone; archiving is the reversible way.',
          csrf: context.csrf,
          open: query.confirm === '1',
        })
      : '');
  const upload = context.may('videos:write') ? captionForm(v.video_id, context.csrf, captions, v.transcript?.language ?? null) : '';
  const content =
    '<p class="crumbs"><a href="/app/videos">Videos</a></p>' +
    `<div class="title-row"><div class="video-title"><h1>${escapeHtml(v.title)}</h1><p class="video-status">${status}</p></div>` +
    `<div class="actions">${actions}</div></div>` +
    (v.description ? `<p class="lede">${escapeHtml(v.description)}</p>` : '') +
    (done ? `<p class="notice" role="status">${escapeHtml(done)}</p>` : '') +
    `<nav class="tabs video-tabs" aria-label="Parts of this page">${SECTIONS.map(([id, label]) => `<a href="#${id}">${label}</a>`).join('')}</nav>` +
    `<div id="overview" class="video-overview">${playerPart(v)}<div class="video-about">${videoFacts(v, timeZone)}</div></div>` +
    lifetimeTiles(v) +
    section(
      'retention',
      'Retention',
      retention ? retentionPart(retention, moments) : '<p class="empty">Your role does not show analytics.</p>',
    ) +
    section(
      'performance',
      'Views, watch time and conversions',
      context.may('analytics:read')
        ? performancePart(performance, pagePath, range, { q })
        : '<p class="empty">Your role does not show analytics.</p>',
    ) +
    section('leads', 'Leads from this video', leadsPart(leads, v.video_id, timeZone)) +
    section(
      'transcript',
      'Transcript',
      transcriptPart(transcript, {
        pagePath,
        q,
        keep: { range: query.range ?? '', from: query.from ?? '', to: query.to ?? '' },
        timeZone,
        upload,
      }),
    ) +
    section('share', 'Share and embed', sharePart(v));
  const scripts = ['videos-copy.js', ...(v.playback_url ? ['videos-seek.js'] : []), ...(upload ? ['videos-captions.js'] : [])];
  return context.page(v.title, content, { status: captions ? 400 : 200, scripts });
}

/** The operation's 400 problems by field (`details.errors`), for the form sent back. */
function problemsByField(details: unknown): Record<string, string[]> {
  const errors = (details as { errors?: { field?: string; problem?: string }[] } | undefined)?.errors ?? [];
  const byField: Record<string, string[]> = {};
  for (const error of errors) {
    const field = (error.field ?? '').replace(/^\//, '');
    const key = ['format', 'language', 'text'].includes(field) ? field : '';
    const problem = key ? (error.problem ?? 'is not right') : `${field ? `${field}: ` : ''}${error.problem ?? ''}`;
    byField[key] = [...(byField[key] ?? []), problem];
  }
  return byField;
}

export function registerVideoPage(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  const env = { deps, cookies };

  dashboardGet(scope, env, '/app/videos/:video_id', (context) => renderVideoPage(context, (context.request.params as Params).video_id));

  dashboardPost(scope, env, '/app/videos/:video_id/delete', async (context) => {
    const answer = await context.call('delete_video', { video_id: (context.request.params as Params).video_id });
    if (answer.status === 404) return context.notFound('No such video', 'It may have been deleted.');
    if (!answer.ok) return context.refused(answer);
    return context.redirect('/app?deleted=video');
  });

  dashboardPost(
    scope,
    env,
    '/app/videos/:video_id/captions',
    async (context) => {
      const videoId = (context.request.params as Params).video_id;
      // Refused here too, not only by the pipeline: a role without the right is told so plainly.
      const sent = { format: context.form.format ?? '', language: (context.form.language ?? '').trim(), text: context.form.text ?? '' };
      const answer = await context.call<{ changed: boolean }>('set_video_transcript', {
        video_id: videoId,
        format: sent.format,
        language: sent.language,
        text: sent.text,
      });
      if (answer.ok)
        return context.redirect(`/app/videos/${videoId}?done=${answer.body.changed ? 'captions' : 'captions-unchanged'}#transcript`);
      if (answer.status === 400) {
        const problems = problemsByField(answer.error.details);
        if (Object.keys(problems).length === 0) problems[''] = [answer.error.message];
        return renderVideoPage(context, videoId, { ...sent, problems });
      }
      if (answer.status === 404) return context.notFound('No such video', 'It may have been deleted.');
      return context.refused(answer);
    },
    CAPTION_BODY_LIMIT,
  );
}

/** The page for an operation that said no (a role without the right, a conflict): its own words. */
export async function operationRefused(
  reply: FastifyReply,
  session: DashboardSession,
  deps: PublicSurfaceDeps,
  answer: OperationOutcome,
): Promise<FastifyReply> {
  const message = (answer.body as { error?: { message?: string } })?.error?.message ?? 'That did not work.';
  return reply
    .code(answer.status)
    .headers(answer.headers)
    .headers(DASHBOARD_HEADERS)
    .send(
      dashboardPage(
        'Not done',
        await frameOf(deps, session, '/app/videos'),
        `<h1>Not done</h1><p class="alert" role="alert">${escapeHtml(message)}</p><p><a href="/app">Back to the dashboard</a></p>`,
      ),
    );
}
