/**
 * The library's filters: what the GET form holds, how it becomes list_videos' input (only what a
 * person chose is sent, so the operation's defaults apply), and the query string that keeps them
 * across folder links and pages.
 */
import { type FolderView, folderOptions, selectField, textField } from './video-form-parts.ts';

export interface LibraryFilters {
  q: string;
  status: string;
  folder_id: string;
  tag: string;
  archived: string;
  sort: string;
}

const STATUSES = [
  ['', 'Any status'],
  ['ready', 'Ready'],
  ['processing', 'Processing'],
  ['waiting_upload', 'Waiting for file'],
  ['failed', 'Failed'],
] as const;

const ARCHIVED = [
  ['', 'Not archived'],
  ['include', 'Archived too'],
  ['only', 'Archived only'],
] as const;

const SORTS = [
  ['', 'Newest first'],
  ['oldest', 'Oldest first'],
  ['most_viewed', 'Most viewed'],
  ['title', 'Title A–Z'],
] as const;

export function listInput(filters: LibraryFilters): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (filters.q.trim()) input.search = filters.q.trim();
  if (filters.status) input.status = filters.status;
  if (filters.folder_id) input.folder_id = filters.folder_id;
  if (filters.tag.trim()) input.tags = [filters.tag.trim()];
  if (filters.archived) input.archived = filters.archived;
  if (filters.sort) input.sort = filters.sort;
  return input;
}

/** Whether the list is narrowed (the sort alone narrows nothing). */
export function filtersInUse(filters: LibraryFilters): boolean {
  return Boolean(filters.q.trim() || filters.status || filters.folder_id || filters.tag.trim() || filters.archived);
}

/** `?q=…&status=…` with only the filters in use, and the cursor of a next page. */
export function filtersQuery(filters: LibraryFilters, cursor?: string): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value.trim()) query.set(key, value.trim());
  if (cursor) query.set('cursor', cursor);
  return query.size > 0 ? `?${query}` : '';
}

export function filterForm(filters: LibraryFilters, folders: readonly FolderView[]): string {
  const search = textField({
    id: 'filter-q',
    name: 'q',
    label: 'Search videos',
    value: filters.q,
    type: 'search',
    maxLength: 200,
    attributes: 'placeholder="Title, description or tag"',
  });
  return (
    '<form class="filters library-filters" method="get" action="/app/videos" aria-label="Filter videos">' +
    search +
    selectField({ id: 'filter-status', name: 'status', label: 'Status', options: STATUSES, value: filters.status }) +
    selectField({
      id: 'filter-folder',
      name: 'folder_id',
      label: 'Folder',
      options: folderOptions(folders, 'Any folder'),
      value: filters.folder_id,
    }) +
    textField({ id: 'filter-tag', name: 'tag', label: 'Tag', value: filters.tag, maxLength: 64 }) +
    selectField({ id: 'filter-archived', name: 'archived', label: 'Archived', options: ARCHIVED, value: filters.archived }) +
    selectField({ id: 'filter-sort', name: 'sort', label: 'Sort', options: SORTS, value: filters.sort }) +
    '<div class="filter-buttons"><button type="submit">Apply</button>' +
    (filtersInUse(filters) || filters.sort ? '<a class="button quiet" href="/app/videos">Clear</a>' : '') +
    '</div></form>'
  );
}
