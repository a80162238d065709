/**
 * /app/videos/folders: the folders as list_folders gives them, with how many videos each holds; for
 * the roles that may write, create (create_folder), rename (update_folder) and delete (delete_folder,
 * confirmed in a dialog: its videos are unfiled, never deleted). A refused name comes back beside its
 * field, as typed. Viewers see the list and the links into the library.
 */
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { formatCount } from '../kit/formats.ts';
import { csrfField, type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { doneNotice, type FolderView, fieldError, type Problems, problemsOf } from './video-form-parts.ts';

const NOTICES: Record<string, string> = {
  created: 'The folder is created. File videos in it from their edit page, or when you add them.',
  renamed: 'The folder is renamed.',
  deleted: 'The folder is deleted. Its videos are still in the library, in no folder.',
};

/** A refused form on this page: which one (`new` or a folder's id), what was typed, and the problem. */
interface Refusal {
  form: string;
  name: string;
  problems: Problems;
}

export function registerFoldersPage(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/videos/folders', async (ctx) => render(ctx, 200));

  dashboardPost(scope, env, '/app/videos/folders', async (ctx) => {
    const name = ctx.form.name ?? '';
    const answer = await ctx.call('create_folder', { name });
    if (answer.ok) return ctx.redirect('/app/videos/folders?done=created');
    if (answer.status === 403) return ctx.refused(answer);
    return render(ctx, answer.status, { form: 'new', name, problems: problemsOf(answer, nameField) });
  });

  dashboardPost(scope, env, '/app/videos/folders/:folder_id/rename', async (ctx) => {
    const { folder_id } = ctx.request.params as { folder_id: string };
    const name = ctx.form.name ?? '';
    const answer = await ctx.call('update_folder', { folder_id, name });
    if (answer.ok) return ctx.redirect('/app/videos/folders?done=renamed');
    if (answer.status === 403 || answer.status === 404) return ctx.refused(answer);
    return render(ctx, answer.status, { form: folder_id, name, problems: problemsOf(answer, nameField) });
  });

  dashboardPost(scope, env, '/app/videos/folders/:folder_id/delete', async (ctx) => {
    const { folder_id } = ctx.request.params as { folder_id: string };
    const answer = await ctx.call('delete_folder', { folder_id });
    if (!answer.ok) return ctx.refused(answer);
    return ctx.redirect('/app/videos/folders?done=deleted');
  });
}

function nameField(field: string): string | null {
  return field.replace(/^\//, '') === 'name' ? 'name' : null;
}

async function render(ctx: PageContext, status: number, refusal?: Refusal) {
  const answer = await ctx.call<{ folders: FolderView[] }>('list_folders', { limit: 100 });
  if (!answer.ok) return ctx.refused(answer);
  const folders = answer.body.folders;
  const writes = ctx.may('videos:write');
  const confirming = ctx.query.delete ?? '';
  const problem = (form: string) => (refusal?.form === form ? (refusal.problems.name ?? refusal.problems.general) : undefined);
  const content =
    '<p class="crumbs"><a href="/app/videos">Videos</a></p>' +
    '<h1>Folders</h1><p class="lede">Group videos by campaign, customer or team. A video is in one folder at most; the library filters by folder.</p>' +
    doneNotice(ctx.query.done, NOTICES) +
    (writes ? createForm(ctx, refusal?.form === 'new' ? refusal.name : '', problem('new')) : '') +
    '<section aria-labelledby="folders-heading"><h2 id="folders-heading">Your folders</h2>' +
    (folders.length === 0
      ? `<p class="empty">No folders yet.${writes ? ' Create the first one above.' : ''}</p>`
      : `<ul class="rows folder-rows">${folders
          .map((folder) =>
            folderRow(ctx, folder, writes, {
              name: refusal?.form === folder.folder_id ? refusal.name : folder.name,
              problem: problem(folder.folder_id),
              confirming: confirming === folder.folder_id,
            }),
          )
          .join('')}</ul>`) +
    '</section>';
  return ctx.page('Folders', content, { status });
}

function createForm(ctx: PageContext, name: string, problem: string | undefined): string {
  return (
    '<section aria-labelledby="new-folder-heading"><h2 id="new-folder-heading">New folder</h2>' +
    `<form class="folder-form" method="post" action="/app/videos/folders">${csrfField(ctx.csrf)}` +
    '<label for="new-folder-name">Folder name</label>' +
    `<div class="folder-form-row"><input id="new-folder-name" name="name" type="text" maxlength="100" required value="${escapeHtml(name)}"` +
    `${problem ? ' aria-invalid="true" aria-describedby="new-folder-name-error"' : ''}>` +
    '<button type="submit" class="primary">Create folder</button></div>' +
    fieldError('new-folder-name', problem) +
    '</form></section>'
  );
}

function folderRow(
  ctx: PageContext,
  folder: FolderView,
  writes: boolean,
  state: { name: string; problem: string | undefined; confirming: boolean },
): string {
  const id = escapeHtml(folder.folder_id);
  const counts =
    `${formatCount(folder.video_count)} ${folder.video_count === 1 ? 'video' : 'videos'}` +
    (folder.archived_video_count > 0 ? ` · ${formatCount(folder.archived_video_count)} archived` : '');
  const summary =
    `<div class="folder-summary"><a href="/app/videos?folder_id=${id}">${escapeHtml(folder.name)}</a>` +
    `<span class="meta">${counts}</span></div>`;
  if (!writes) return `<li>${summary}</li>`;
  const inputId = `rename-${id}`;
  const dialogId = `delete-${id}`;
  return (
    `<li class="folder-row">${summary}<div class="folder-controls">` +
    `<form class="folder-form" method="post" action="/app/videos/folders/${id}/rename">${csrfField(ctx.csrf)}` +
    `<label class="visually-hidden" for="${inputId}">New name for ${escapeHtml(folder.name)}</label>` +
    `<div class="folder-form-row"><input id="${inputId}" name="name" type="text" maxlength="100" required value="${escapeHtml(state.name)}"` +
    `${state.problem ? ` aria-invalid="true" aria-describedby="${inputId}-error"` : ''}>` +
    `<button type="submit">Rename</button></div>${fieldError(inputId, state.problem)}</form>` +
    // As the kit's confirm control (kit/confirm-dialog.ts), one dialog per folder: an invoker command
    // opens it without script; ?delete=<id> renders it open for a browser without invokers.
    `<button type="button" class="quiet-danger" commandfor="${dialogId}" command="show-modal">Delete<span class="visually-hidden"> folder ${escapeHtml(folder.name)}</span></button>` +
    `<dialog id="${dialogId}" aria-labelledby="${dialogId}-heading"${state.confirming ? ' open' : ''}>` +
    `<h2 id="${dialogId}-heading">Delete the folder “${escapeHtml(folder.name)}”?</h2>` +
    `<p>Its ${counts} stay in the library, in no folder. The folder itself cannot be brought back.</p>` +
    `<div class="dialog-actions"><form method="post" action="/app/videos/folders/${id}/delete">${csrfField(ctx.csrf)}` +
    '<button type="submit" class="danger">Delete folder</button></form>' +
    '<a class="button" href="/app/videos/folders">Cancel</a></div></dialog>' +
    '</div></li>'
  );
}
