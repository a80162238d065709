/**
 * /app/videos/{video_id}/edit: a video's details as update_video changes them (title, description,
 * tags, folder, the lead form), and archive or unarchive, for the roles that may write. A refused
 * save comes back as the form with each problem beside its field and every value as it was sent.
 */
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { formatClock, formatCount, formatDate } from '../kit/formats.ts';
import { csrfField, type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { type EditValues, leadFormInput, leadFormSection, valuesOf } from './edit-lead-form.ts';
import {
  doneNotice,
  type FolderView,
  folderOptions,
  generalProblem,
  ownPath,
  type Problems,
  problemsOf,
  selectField,
  statusBadge,
  tagsFrom,
  textArea,
  textField,
  topField,
  type VideoDetailView,
} from './video-form-parts.ts';

const NOTICES: Record<string, string> = {
  saved: 'Your changes are saved.',
  unarchived: 'The video is back in the library and plays on its public pages again.',
};

/** Which input carries an operation field: lead_form.at_second is the "at_second" input. */
function editField(field: string): string | null {
  const path = field.replace(/^\//, '').split(/[./[]/);
  if (path[0] === 'lead_form') return path[1] ?? 'placement';
  const top = topField(field);
  return ['title', 'description', 'tags', 'folder_id'].includes(top) ? top : null;
}

export function registerEditPage(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/videos/:video_id/edit', async (ctx) => {
    const { video_id } = ctx.request.params as { video_id: string };
    if (!ctx.may('videos:write')) return notAllowed(ctx, video_id);
    const [video, folders] = await Promise.all([
      ctx.call<VideoDetailView>('get_video', { video_id }),
      ctx.call<{ folders: FolderView[] }>('list_folders', { limit: 100 }),
    ]);
    if (!video.ok) return missing(ctx, video);
    return render(ctx, 200, video.body, folders.ok ? folders.body.folders : [], valuesOf(video.body), {});
  });

  dashboardPost(scope, env, '/app/videos/:video_id/edit', async (ctx) => {
    const { video_id } = ctx.request.params as { video_id: string };
    const values: EditValues = {
      title: ctx.form.title ?? '',
      description: ctx.form.description ?? '',
      tags: ctx.form.tags ?? '',
      folder_id: ctx.form.folder_id ?? '',
      placement: ctx.form.placement ?? '',
      skippable: ctx.form.skippable === 'on',
      at_second: ctx.form.at_second ?? '',
      fields: ctx.formAll('fields'),
      headline: ctx.form.headline ?? '',
      button_text: ctx.form.button_text ?? '',
    };
    const saved = await ctx.call<VideoDetailView>('update_video', {
      video_id,
      title: values.title,
      description: values.description,
      tags: tagsFrom(values.tags),
      folder_id: values.folder_id || null,
      lead_form: leadFormInput(values),
    });
    if (saved.ok) return ctx.redirect(`/app/videos/${video_id}/edit?done=saved`);
    if (saved.status === 403 || (saved.status === 404 && saved.error.message.includes(video_id))) return missing(ctx, saved);
    // The form again, as sent, with the video as it still is for what the form does not hold.
    const [video, folders] = await Promise.all([
      ctx.call<VideoDetailView>('get_video', { video_id }),
      ctx.call<{ folders: FolderView[] }>('list_folders', { limit: 100 }),
    ]);
    if (!video.ok) return missing(ctx, video);
    return render(ctx, saved.status, video.body, folders.ok ? folders.body.folders : [], values, problemsOf(saved, editField));
  });

  for (const [path, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    dashboardPost(scope, env, `/app/videos/:video_id/${path}`, async (ctx) => {
      const { video_id } = ctx.request.params as { video_id: string };
      const answer = await ctx.call('update_video', { video_id, archived });
      if (!answer.ok) return missing(ctx, answer);
      return ctx.redirect(archived ? '/app/videos?done=archived' : `/app/videos/${video_id}/edit?done=unarchived`);
    });
  }
}

async function missing(
  ctx: PageContext,
  answer: { ok: false; status: number; error: { code: string; message: string }; headers: Record<string, string> },
) {
  if (answer.status === 404 || answer.status === 400) return ctx.notFound('No such video', 'It may have been deleted.');
  return ctx.refused(answer);
}

async function notAllowed(ctx: PageContext, videoId: string) {
  return ctx.page(
    'Edit video',
    '<h1>Edit video</h1><p class="alert" role="alert">Your role in this workspace can watch videos but not change them. ' +
      `An owner, an admin or a member can.</p><p><a href="/app/videos/${escapeHtml(encodeURIComponent(videoId))}">Back to the video</a></p>`,
    { status: 403 },
  );
}

/** The video at a glance beside the form: its poster and what the API says of it. */
function glance(video: VideoDetailView, publicUrl: string): string {
  const poster = video.poster_url
    ? `<img class="video-thumb" src="${escapeHtml(ownPath(video.poster_url, publicUrl))}" alt="" width="320" height="180">`
    : '<span class="video-thumb none" aria-hidden="true"></span>';
  const facts: [string, string][] = [
    ['Status', statusBadge(video.status, video.archived)],
    ['Length', video.duration_seconds === null ? '—' : formatClock(video.duration_seconds)],
    ['Views', formatCount(video.stats.views)],
    ['Leads', formatCount(video.stats.leads)],
    ['Added', formatDate(video.created_at)],
  ];
  if (video.file_name) facts.push(['File', escapeHtml(video.file_name)]);
  return (
    '<aside class="video-glance" aria-label="This video">' +
    poster +
    `<dl>${facts.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('')}</dl>` +
    `<p class="actions"><a class="button" href="/app/videos/${escapeHtml(encodeURIComponent(video.video_id))}">Open the video</a>` +
    (video.watch_url ? `<a class="button" href="${escapeHtml(video.watch_url)}">Watch page</a>` : '') +
    '</p></aside>'
  );
}

async function render(
  ctx: PageContext,
  status: number,
  video: VideoDetailView,
  folders: FolderView[],
  values: EditValues,
  problems: Problems,
) {
  const base = `/app/videos/${encodeURIComponent(video.video_id)}`;
  const details =
    '<section aria-labelledby="details-heading"><h2 id="details-heading">Details</h2>' +
    textField({
      id: 'edit-title',
      name: 'title',
      label: 'Title',
      value: values.title,
      problem: problems.title,
      required: true,
      maxLength: 200,
    }) +
    textArea({
      id: 'edit-description',
      name: 'description',
      label: 'Description',
      value: values.description,
      problem: problems.description,
      hint: 'Shown on the watch page and the channel.',
      maxLength: 5000,
    }) +
    textField({
      id: 'edit-tags',
      name: 'tags',
      label: 'Tags',
      value: values.tags,
      problem: problems.tags,
      hint: 'Separated by commas, for example: onboarding, pricing',
    }) +
    selectField({
      id: 'edit-folder',
      name: 'folder_id',
      label: 'Folder',
      options: folderOptions(folders),
      value: values.folder_id,
      problem: problems.folder_id,
    }) +
    '</section>';
  const archive = video.archived
    ? '<section aria-labelledby="archive-heading"><h2 id="archive-heading">Archived</h2><p>This video is hidden from the library and its public pages do not play it. Unarchiving brings both back.</p>' +
      `<form method="post" action="${base}/unarchive">${csrfField(ctx.csrf)}<button type="submit">Unarchive video</button></form></section>`
    : '<section aria-labelledby="archive-heading"><h2 id="archive-heading">Archive</h2><p>Archiving hides the video from the library, the channel and its public pages; its statistics and leads stay, and you can unarchive it at any time.</p>' +
      `<form method="post" action="${base}/archive">${csrfField(ctx.csrf)}<button type="submit">Archive video</button></form></section>`;
  const content =
    `<p class="crumbs"><a href="/app/videos">Videos</a> › <a href="${base}">${escapeHtml(video.title)}</a></p>` +
    '<h1>Edit video</h1>' +
    doneNotice(ctx.query.done, NOTICES) +
    generalProblem(problems) +
    '<div class="edit-layout">' +
    `<div class="edit-video"><form class="fields edit-form" method="post" action="${base}/edit" novalidate>` +
    csrfField(ctx.csrf) +
    details +
    leadFormSection(values, problems, video.duration_seconds) +
    `<p class="actions"><button type="submit" class="primary">Save changes</button><a class="button" href="${base}">Cancel</a></p>` +
    '</form>' +
    archive +
    '</div>' +
    glance(video, ctx.deps.publicUrl) +
    '</div>';
  return ctx.page(`Edit ${video.title}`, content, { status });
}
