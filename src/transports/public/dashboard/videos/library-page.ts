/**
 * /app/videos: the library as list_videos gives it (search, status, folder, tag, archived, sort, a
 * cursor for the next page) beside the folders as list_folders gives them, both asked at once. Filters
 * are a GET form, so a filtered library is a link a person can keep or send. Members see "New video"
 * and "Manage folders"; viewers the same library without them.
 */

import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { formatClock, formatCount, formatDate } from '../kit/formats.ts';
import { type DashboardEnv, dashboardGet, type PageContext } from '../kit/page-route.ts';
import { workspaceZone } from '../kit/workspace-zone.ts';
import { libraryEmptyState } from './library-empty-state.ts';
import { filterForm, filtersInUse, filtersQuery, type LibraryFilters, listInput } from './library-filters.ts';
import { doneNotice, type FolderView, ownPath, type Pagination, statusBadge, type VideoRow } from './video-form-parts.ts';

const NOTICES: Record<string, string> = {
  archived: 'The video is archived: it is hidden from the library and its public pages stop playing it. Unarchive it from its edit page.',
  unarchived: 'The video is back in the library and plays on its public pages again.',
  deleted: 'The video is deleted.',
};

export function registerLibraryPage(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/videos', async (ctx) => {
    const filters: LibraryFilters = {
      q: ctx.query.q ?? '',
      status: ctx.query.status ?? '',
      folder_id: ctx.query.folder_id ?? '',
      tag: ctx.query.tag ?? '',
      archived: ctx.query.archived ?? '',
      sort: ctx.query.sort ?? '',
    };
    const [videos, folders, timeZone] = await Promise.all([
      ctx.call<{ videos: VideoRow[]; pagination: Pagination }>('list_videos', {
        ...listInput(filters),
        limit: 25,
        cursor: ctx.query.cursor,
      }),
      ctx.call<{ folders: FolderView[] }>('list_folders', { limit: 100 }),
      // For the days videos were added, in the workspace's time zone as everywhere else.
      workspaceZone(ctx),
    ]);
    const folderList = folders.ok ? folders.body.folders : [];
    const writes = ctx.may('videos:write');
    const content =
      '<div class="title-row library-head"><div><h1>Videos</h1>' +
      (videos.ok ? `<p class="lede">${libraryCount(videos.body.pagination.total, filtersInUse(filters))}</p>` : '') +
      '</div>' +
      (writes
        ? '<div class="actions"><a class="button" href="/app/videos/folders">Manage folders</a><a class="button primary" href="/app/videos/new">New video</a></div>'
        : '') +
      '</div>' +
      doneNotice(ctx.query.done, NOTICES) +
      '<div class="library">' +
      folderNavigation(folderList, filters) +
      '<div class="library-main">' +
      filterForm(filters, folderList) +
      (videos.ok
        ? videoTable(ctx, videos.body, filters, folderList.length, timeZone)
        : `<p class="alert" role="alert">${escapeHtml(videos.error.message)}</p>`) +
      '</div></div>';
    const watching = videos.ok && videos.body.videos.some((video) => video.status === 'processing' || video.status === 'waiting_upload');
    return ctx.page('Videos', content, watching ? { scripts: ['videos-upload.js'] } : {});
  });
}

function libraryCount(total: number, filtered: boolean): string {
  const noun = total === 1 ? 'video' : 'videos';
  return filtered ? `${formatCount(total)} ${noun} match these filters` : `${formatCount(total)} ${noun} in your library`;
}

/** The folders as links that filter the library, with how many videos each holds. */
function folderNavigation(folders: readonly FolderView[], filters: LibraryFilters): string {
  const link = (href: string, label: string, count: string, current: boolean) =>
    `<li><a href="${escapeHtml(href)}"${current ? ' aria-current="true"' : ''}><span>${escapeHtml(label)}</span>${count ? `<span class="count">${count}</span>` : ''}</a></li>`;
  const others = { ...filters, folder_id: '' };
  return (
    '<nav class="folders" aria-label="Folders"><h2>Folders</h2><ul>' +
    link(`/app/videos${filtersQuery(others)}`, 'All videos', '', filters.folder_id === '') +
    folders
      .map((folder) =>
        link(
          `/app/videos${filtersQuery({ ...others, folder_id: folder.folder_id })}`,
          folder.name,
          formatCount(folder.video_count),
          folder.folder_id === filters.folder_id,
        ),
      )
      .join('') +
    '</ul>' +
    (folders.length === 0 ? '<p class="hint">No folders yet.</p>' : '') +
    '</nav>'
  );
}

function videoTable(
  ctx: PageContext,
  page: { videos: VideoRow[]; pagination: Pagination },
  filters: LibraryFilters,
  folderCount: number,
  timeZone: string,
): string {
  if (page.videos.length === 0) return libraryEmptyState(ctx, filtersInUse(filters) || Boolean(ctx.query.cursor), folderCount);
  const rows = page.videos.map((video) => videoRow(video, ctx.deps.publicUrl, timeZone)).join('');
  const next =
    page.pagination.has_more && page.pagination.next_cursor
      ? `<a class="button" href="/app/videos${escapeHtml(filtersQuery(filters, page.pagination.next_cursor))}" rel="next">Next page</a>`
      : '';
  const first = ctx.query.cursor ? `<a class="button" href="/app/videos${escapeHtml(filtersQuery(filters))}">First page</a>` : '';
  return (
    '<div class="table-scroll"><table class="videos"><caption class="visually-hidden">Videos</caption><thead><tr>' +
    '<th scope="col">Video</th><th scope="col">Status</th><th scope="col" class="number">Length</th>' +
    '<th scope="col" class="number">Views</th><th scope="col">Added</th></tr></thead>' +
    `<tbody>${rows}</tbody></table></div>` +
    (next || first ? `<nav class="pages" aria-label="Pages">${first}${next}</nav>` : '')
  );
}

function videoRow(video: VideoRow, publicUrl: string, timeZone: string): string {
  const href = `/app/videos/${encodeURIComponent(video.video_id)}`;
  const poster = video.poster_url
    ? `<img class="video-thumb" src="${escapeHtml(ownPath(video.poster_url, publicUrl))}" alt="" width="96" height="54" loading="lazy">`
    : '<span class="video-thumb none" aria-hidden="true"></span>';
  const details = [video.folder_name ? escapeHtml(video.folder_name) : '', ...video.tags.map((tag) => `#${escapeHtml(tag)}`)]
    .filter(Boolean)
    .join(' · ');
  const live =
    video.status === 'processing' || video.status === 'waiting_upload'
      ? ` data-status-url="/app/videos/${encodeURIComponent(video.video_id)}/status.json"`
      : '';
  return (
    '<tr>' +
    `<td><div class="video-cell">${poster}<div><a class="library-title" href="${href}">${escapeHtml(video.title)}</a>` +
    (details ? `<div class="meta">${details}</div>` : '') +
    '</div></div></td>' +
    `<td data-label="Status"><span class="live-status"${live}>${statusBadge(video.status, video.archived)}</span></td>` +
    `<td class="number" data-label="Length">${video.duration_seconds === null ? '—' : formatClock(video.duration_seconds)}</td>` +
    `<td class="number" data-label="Views">${formatCount(video.views)}</td>` +
    `<td class="nowrap" data-label="Added">${formatDate(video.created_at, timeZone)}</td>` +
    '</tr>'
  );
}
