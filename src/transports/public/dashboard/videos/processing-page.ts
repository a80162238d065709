/**
 * Following a new video until it is ready:
 * - /app/videos/{video_id}/status.json: what get_video says of its processing, small, for
 *   videos-upload.js to poll (the library's processing rows, the upload and this page);
 * - /app/videos/{video_id}/processing: the page an import lands on, the status announced as it
 *   changes. Without JavaScript it reloads itself every few seconds until the video is ready or failed.
 */
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { type DashboardEnv, dashboardGet } from '../kit/page-route.ts';
import { doneNotice, statusBadge, statusWords, type VideoDetailView } from './video-form-parts.ts';

const NOTICES = { imported: 'The link is accepted: the video is being fetched and processed.' };

/** What status.json answers: enough to say where the video is and where to go next. */
export interface VideoStatusView {
  video_id: string;
  title: string;
  status: VideoDetailView['status'];
  status_words: string;
  failure_reason: string | null;
  video_url: string;
  done: boolean;
}

function statusView(video: VideoDetailView): VideoStatusView {
  return {
    video_id: video.video_id,
    title: video.title,
    status: video.status,
    status_words: statusWords(video.status),
    failure_reason: video.failure_reason,
    video_url: `/app/videos/${video.video_id}`,
    done: video.status === 'ready' || video.status === 'failed',
  };
}

export function registerProcessingPage(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/videos/:video_id/status.json', async (ctx) => {
    const { video_id } = ctx.request.params as { video_id: string };
    const answer = await ctx.call<VideoDetailView>('get_video', { video_id });
    ctx.reply.header('Cache-Control', 'no-store');
    if (!answer.ok) return ctx.reply.code(answer.status).send({ error: answer.error.message });
    return ctx.reply.send(statusView(answer.body));
  });

  dashboardGet(scope, env, '/app/videos/:video_id/processing', async (ctx) => {
    const { video_id } = ctx.request.params as { video_id: string };
    const answer = await ctx.call<VideoDetailView>('get_video', { video_id });
    if (!answer.ok) {
      if (answer.status === 404 || answer.status === 400) return ctx.notFound('No such video', 'It may have been deleted.');
      return ctx.refused(answer);
    }
    const view = statusView(answer.body);
    const href = escapeHtml(view.video_url);
    const content =
      '<p class="crumbs"><a href="/app/videos">Videos</a></p>' +
      `<h1>${escapeHtml(view.title)}</h1>` +
      doneNotice(ctx.query.done, NOTICES) +
      '<section class="processing" aria-labelledby="processing-heading"><h2 id="processing-heading">Processing</h2>' +
      `<p class="processing-state" role="status" data-status-url="${href}/status.json" data-follow="page">` +
      `${statusBadge(view.status)} <span class="status-text">${escapeHtml(explain(view))}</span></p>` +
      (view.done
        ? ''
        : '<progress class="working" aria-label="Processing"></progress><noscript><meta http-equiv="refresh" content="5"></noscript>') +
      '<p class="actions">' +
      `<a class="button${view.status === 'ready' ? ' primary' : ''}" href="${href}" data-ready-link>Open the video</a>` +
      `<a class="button" href="${href}/edit">Edit details</a>` +
      (view.status === 'failed' ? '<a class="button" href="/app/videos/new">Try another file</a>' : '') +
      '</p></section>';
    return ctx.page(view.title, content, { scripts: ['videos-upload.js'] });
  });
}

function explain(view: VideoStatusView): string {
  switch (view.status) {
    case 'ready':
      return 'Ready to share.';
    case 'failed':
      return `It could not be processed: ${view.failure_reason ?? 'no reason was given'}.`;
    case 'waiting_upload':
      return 'Waiting for its file.';
    default:
      return 'Fetching and processing the file. This page follows it; you can also leave and come back.';
  }
}
