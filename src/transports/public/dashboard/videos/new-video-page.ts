/**
 * /app/videos/new: add a video, for the roles that may write (videos:write). Two ways, as the catalog
 * offers them:
 * - Upload a file: the form's fields go to create_video_upload (POST /app/videos/uploads), whose
 *   one-time URL videos-upload.js sends the file to with progress, restartable after a failure, then
 *   follows processing until the video is ready. A browser without JavaScript cannot send a file to
 *   that URL, so the form says so and points to the link import.
 * - Import from a link: import_video (POST /app/videos/import), a plain form; then the processing page.
 */
import type { FastifyInstance } from 'fastify';
import { type Answer, csrfField, type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import {
  type FolderView,
  fieldError,
  folderOptions,
  generalProblem,
  type Problems,
  problemsOf,
  selectField,
  tagsFrom,
  textField,
  topField,
} from './video-form-parts.ts';

interface NewVideoValues {
  title: string;
  folder_id: string;
  tags: string;
  source_url: string;
}

const BLANK: NewVideoValues = { title: '', folder_id: '', tags: '', source_url: '' };

/** Which form field carries an operation's field. */
function uploadField(field: string): string | null {
  const top = topField(field);
  if (top === 'file_name' || top === 'file_size') return 'file';
  return ['title', 'folder_id', 'tags'].includes(top) ? top : null;
}

function importField(field: string): string | null {
  const top = topField(field);
  return ['source_url', 'title', 'folder_id', 'tags'].includes(top) ? top : null;
}

export function registerNewVideoPage(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/videos/new', async (ctx) => {
    if (!ctx.may('videos:write')) return notAllowed(ctx);
    return render(ctx, 200, { upload: BLANK, imported: BLANK }, {}, {});
  });

  dashboardPost(scope, env, '/app/videos/uploads', async (ctx) => {
    const wantsJson = (ctx.request.headers.accept ?? '').includes('application/json');
    const values = { ...BLANK, title: ctx.form.title ?? '', folder_id: ctx.form.folder_id ?? '', tags: ctx.form.tags ?? '' };
    const size = Number(ctx.form.file_size);
    if (!ctx.may('videos:write') && !wantsJson) return notAllowed(ctx);
    if (!ctx.form.file_size || !Number.isInteger(size)) {
      // Only a page without JavaScript posts the form itself: it sends the file's name, never the file.
      const problems = {
        file: 'This browser sent the file’s name but not the file: sending a file needs JavaScript. Import it from a link instead.',
      };
      if (wantsJson) return ctx.reply.code(400).header('Cache-Control', 'no-store').send({ problems });
      return render(ctx, 400, { upload: values, imported: BLANK }, problems, {});
    }
    const answer = await ctx.call<{ video_id: string; upload_url: string; upload_headers: Record<string, string>; expires_at: string }>(
      'create_video_upload',
      {
        file_name: ctx.form.file_name ?? '',
        file_size: size,
        ...optional(values),
      },
    );
    if (!answer.ok) {
      if (answer.status === 403 && answer.error.code !== 'plan_limit' && !wantsJson) return ctx.refused(answer);
      const problems = problemsOf(answer, uploadField);
      if (wantsJson) return ctx.reply.code(answer.status).header('Cache-Control', 'no-store').send({ problems });
      return render(ctx, answer.status, { upload: values, imported: BLANK }, problems, {});
    }
    const upload = answer.body;
    const url = new URL(upload.upload_url);
    return ctx.reply
      .code(201)
      .header('Cache-Control', 'no-store')
      .send({
        video_id: upload.video_id,
        // The upload target is on this same service (docs/uploads-and-media.md), so the page sends to
        // its path: the page's own origin, whatever name it was reached by, and its policy's connect-src 'self'.
        upload_path: `${url.pathname}${url.search}`,
        // The browser sets Content-Length itself and refuses to be told it.
        upload_headers: Object.fromEntries(
          Object.entries(upload.upload_headers).filter(([name]) => name.toLowerCase() !== 'content-length'),
        ),
        expires_at: upload.expires_at,
        status_url: `/app/videos/${upload.video_id}/status.json`,
        video_url: `/app/videos/${upload.video_id}`,
      });
  });

  dashboardPost(scope, env, '/app/videos/import', async (ctx) => {
    const values = {
      source_url: ctx.form.source_url ?? '',
      title: ctx.form.title ?? '',
      folder_id: ctx.form.folder_id ?? '',
      tags: ctx.form.tags ?? '',
    };
    const answer = await ctx.call<{ video_id: string }>('import_video', { source_url: values.source_url.trim(), ...optional(values) });
    if (!answer.ok) {
      if (answer.status === 403 && answer.error.code !== 'plan_limit') return ctx.refused(answer);
      return render(ctx, answer.status, { upload: BLANK, imported: values }, {}, problemsOf(answer, importField));
    }
    return ctx.redirect(`/app/videos/${answer.body.video_id}/processing?done=imported`);
  });
}

/** The optional fields a person filled in (blank ones are left to the operation's defaults). */
function optional(values: NewVideoValues): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (values.title.trim()) input.title = values.title;
  if (values.folder_id) input.folder_id = values.folder_id;
  const tags = tagsFrom(values.tags);
  if (tags.length > 0) input.tags = tags;
  return input;
}

async function notAllowed(ctx: PageContext) {
  return ctx.page(
    'New video',
    '<h1>New video</h1><p class="alert" role="alert">Your role in this workspace can watch the library but not add videos. ' +
      'An owner, an admin or a member can.</p><p><a href="/app/videos">Back to the library</a></p>',
    { status: 403 },
  );
}

async function render(
  ctx: PageContext,
  status: number,
  values: { upload: NewVideoValues; imported: NewVideoValues },
  uploadProblems: Problems,
  importProblems: Problems,
) {
  const folders: Answer<{ folders: FolderView[] }> = await ctx.call('list_folders', { limit: 100 });
  const folderList = folders.ok ? folders.body.folders : [];
  const content =
    '<p class="crumbs"><a href="/app/videos">Videos</a></p>' +
    '<h1>New video</h1><p class="lede">Upload a file from this computer, or import one from a public link. ' +
    'Either way it is processed in the background; you can follow it here and leave when you like.</p>' +
    '<div class="add-video">' +
    uploadSection(ctx, values.upload, uploadProblems, folderList) +
    importSection(ctx, values.imported, importProblems, folderList) +
    '</div>';
  return ctx.page('New video', content, { status, scripts: ['videos-upload.js'] });
}

function commonFields(prefix: string, values: NewVideoValues, problems: Problems, folders: readonly FolderView[]): string {
  return (
    textField({
      id: `${prefix}-title`,
      name: 'title',
      label: 'Title',
      value: values.title,
      problem: problems.title,
      hint: prefix === 'upload' ? 'Optional: the file’s name when left blank.' : 'Optional: the file’s name in the link when left blank.',
      maxLength: 200,
    }) +
    selectField({
      id: `${prefix}-folder`,
      name: 'folder_id',
      label: 'Folder',
      options: folderOptions(folders),
      value: values.folder_id,
      problem: problems.folder_id,
    }) +
    textField({
      id: `${prefix}-tags`,
      name: 'tags',
      label: 'Tags',
      value: values.tags,
      problem: problems.tags,
      hint: 'Separated by commas, for example: onboarding, pricing',
    })
  );
}

function uploadSection(ctx: PageContext, values: NewVideoValues, problems: Problems, folders: readonly FolderView[]): string {
  const fileProblem = problems.file;
  return (
    '<section aria-labelledby="upload-heading"><h2 id="upload-heading">Upload a file</h2>' +
    generalProblem(problems) +
    '<form class="fields" id="upload-form" method="post" action="/app/videos/uploads" novalidate>' +
    csrfField(ctx.csrf) +
    '<div class="video-field"><label for="upload-file">Video file</label><span class="hint" id="upload-file-hint">MP4, MOV, WebM or another video format.</span>' +
    `<input id="upload-file" name="file" type="file" accept="video/*" required aria-describedby="upload-file-hint${fileProblem ? ' upload-file-error' : ''}"${fileProblem ? ' aria-invalid="true"' : ''}>` +
    fieldError('upload-file', fileProblem) +
    '</div>' +
    commonFields('upload', values, problems, folders) +
    '<noscript><p class="alert">Sending a file from this page needs JavaScript, which is off in this browser. ' +
    'Import the video from a public link below instead, or upload it with the API (POST /v1/videos/uploads, then PUT the file to the URL it answers).</p></noscript>' +
    '<button type="submit" class="primary">Upload</button></form>' +
    // Filled in by videos-upload.js while the file goes up and the video is processed.
    '<div class="upload-progress" id="upload-progress" hidden>' +
    '<p class="upload-file" id="upload-file-name"></p>' +
    '<progress id="upload-bar" max="100" value="0" aria-label="Upload progress"></progress>' +
    '<p id="upload-state" role="status"></p>' +
    '<p class="actions"><button type="button" id="upload-retry" hidden>Retry upload</button>' +
    '<a class="button primary" id="upload-open" hidden href="/app/videos">Open the video</a>' +
    '<a class="button" id="upload-another" hidden href="/app/videos/new">Upload another</a></p>' +
    '</div></section>'
  );
}

function importSection(ctx: PageContext, values: NewVideoValues, problems: Problems, folders: readonly FolderView[]): string {
  return (
    '<section id="import" aria-labelledby="import-heading"><h2 id="import-heading">Import from a link</h2>' +
    '<p>A public http or https link to the video file itself (not to a page that plays it).</p>' +
    generalProblem(problems) +
    '<form class="fields" method="post" action="/app/videos/import">' +
    csrfField(ctx.csrf) +
    textField({
      id: 'import-url',
      name: 'source_url',
      label: 'Link to the video file',
      value: values.source_url,
      problem: problems.source_url,
      type: 'url',
      required: true,
      maxLength: 4096,
      attributes: 'placeholder="https://media.example.com/tour.mp4"',
    }) +
    commonFields('import', values, problems, folders) +
    `<button type="submit" class="primary">Import</button></form></section>`
  );
}
