/**
 * The links under a list paged by cursor: "Newest" back to the first page once past it, and "Older …"
 * to the next page, both keeping the list's filters. Nothing when the list fits on one page.
 */
import { escapeHtml } from '../../http/page-parts.ts';

export interface CursorPages {
  /** The page's path, without a query. */
  path: string;
  /** The filters in use, carried on both links. */
  keep: Record<string, string>;
  /** Whether this page is past the first (it was opened with a cursor): then "Newest" is offered. */
  paged: boolean;
  /** The list's next_cursor. */
  next: string | null | undefined;
  /** The navigation's accessible name ("Audit log pages") and the next link's text ("Older events"). */
  label: string;
  older: string;
}

export function cursorPages(pages: CursorPages): string {
  if (!pages.next && !pages.paged) return '';
  const href = (query: Record<string, string>) => {
    const search = new URLSearchParams(query).toString();
    return escapeHtml(search ? `${pages.path}?${search}` : pages.path);
  };
  return (
    `<nav class="pages" aria-label="${escapeHtml(pages.label)}">` +
    (pages.paged ? `<a href="${href(pages.keep)}">Newest</a>` : '') +
    (pages.next ? `<a href="${href({ ...pages.keep, cursor: pages.next })}">${escapeHtml(pages.older)}</a>` : '') +
    '</nav>'
  );
}
