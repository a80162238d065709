/**
 * The search page's HTML: the results of `search` grouped by kind (videos, moments in what is said,
 * routes, leads), each linking to its dashboard page, the matched words marked, and the kinds left out
 * because the person's role may not read them.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatClock } from '../kit/formats.ts';

export interface SearchResult {
  kind: 'video' | 'transcript' | 'route' | 'lead';
  id: string;
  title: string;
  snippet: string;
  score: number;
  start_seconds: number | null;
  url: string | null;
}

export interface SearchAnswer {
  q: string;
  results: SearchResult[];
  left_out: { kind: SearchResult['kind']; needs_scope: string }[];
}

const GROUPS: readonly { kind: SearchResult['kind']; heading: string; plural: string }[] = [
  { kind: 'video', heading: 'Videos', plural: 'videos' },
  { kind: 'transcript', heading: 'Moments in videos', plural: 'moments in what is said' },
  { kind: 'route', heading: 'Routes', plural: 'routes' },
  { kind: 'lead', heading: 'Leads', plural: 'leads' },
];

/**
 * The snippet with the words between ** marks highlighted, everything else escaped. A masked value
 * ("o***@e***.com") holds runs of asterisks too: a mark is two asterisks with none just before or after.
 */
export function markedSnippet(snippet: string): string {
  const marks = /(?<!\*)\*\*([^*]+)\*\*(?!\*)/g;
  let html = '';
  let last = 0;
  for (const match of snippet.matchAll(marks)) {
    html += `${escapeHtml(snippet.slice(last, match.index))}<mark>${escapeHtml(match[1] ?? '')}</mark>`;
    last = match.index + match[0].length;
  }
  return html + escapeHtml(snippet.slice(last));
}

function hrefOf(result: SearchResult): string {
  switch (result.kind) {
    case 'video':
      return `/app/videos/${result.id}`;
    case 'transcript':
      return `/app/videos/${result.id}?t=${Math.floor(result.start_seconds ?? 0)}#transcript`;
    case 'route':
      return `/app/routes/${result.id}`;
    case 'lead':
      return `/app/leads/${result.id}`;
  }
}

export function searchForm(q: string, problem?: string): string {
  return (
    '<form class="search-page" role="search" method="get" action="/app/search">' +
    '<label for="f-q">Search videos, what is said in them, routes and leads</label>' +
    '<div class="search-row">' +
    `<input id="f-q" name="q" type="search" value="${escapeHtml(q)}" maxlength="200"${problem ? ' aria-invalid="true" aria-describedby="f-q-error"' : ''}>` +
    '<button type="submit" class="primary">Search</button></div>' +
    (problem ? `<span class="field-error" id="f-q-error">${escapeHtml(problem)}</span>` : '') +
    '<p class="hint">“A quoted phrase” must appear as written, -word leaves a word out, <code>or</code> between words finds either.</p>' +
    '</form>'
  );
}

export function searchResults(answer: SearchAnswer): string {
  const total = answer.results.length;
  const summary = `<p class="lede" role="status">${total === 0 ? 'Nothing found' : `${total} result${total === 1 ? '' : 's'}`} for “${escapeHtml(answer.q)}”.</p>`;
  const groups = GROUPS.map((group) => {
    const results = answer.results.filter((result) => result.kind === group.kind);
    if (results.length === 0) return '';
    return (
      `<section aria-labelledby="results-${group.kind}" class="card results">` +
      `<h2 id="results-${group.kind}">${group.heading} <span class="count">${results.length}</span></h2><ul class="results">` +
      results
        .map(
          (result) =>
            `<li><a href="${escapeHtml(hrefOf(result))}"><strong>${escapeHtml(result.title)}</strong></a>` +
            (result.kind === 'transcript' && result.start_seconds !== null
              ? ` <span class="badge">at ${formatClock(result.start_seconds)}</span>`
              : '') +
            `<p class="snippet">${markedSnippet(result.snippet)}</p></li>`,
        )
        .join('') +
      '</ul></section>'
    );
  }).join('');
  const leftOut = answer.left_out.length
    ? `<p class="hint">Not searched, as your role may not read them: ${answer.left_out
        .map((item) => GROUPS.find((group) => group.kind === item.kind)?.plural ?? item.kind)
        .join(', ')}.</p>`
    : '';
  const empty =
    total === 0
      ? '<p class="empty">Try fewer words, another spelling, or a word said in a video. Search finds titles, descriptions, tags, transcripts, routes and leads.</p>'
      : '';
  return summary + groups + empty + leftOut;
}
