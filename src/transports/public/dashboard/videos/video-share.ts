/**
 * Share and embed codes: the watch page's address and an <iframe> snippet of the embed page, in
 * read-only fields whose text is selectable without script; "Copy" buttons appear when the small
 * script (videos-copy.js) runs, since without it they could do nothing.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import type { VideoAnswer } from './video-answers.ts';

export function embedSnippet(video: VideoAnswer): string {
  return `<iframe src="${escapeHtml(video.embed_url ?? '')}" title="${escapeHtml(video.title)}" width="640" height="360" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen loading="lazy"></iframe>`;
}

function copyField(id: string, label: string, hint: string, value: string, multiline: boolean): string {
  const field = multiline
    ? `<textarea id="${id}" class="video-code" readonly rows="3" aria-describedby="${id}-hint">${escapeHtml(value)}</textarea>`
    : `<input id="${id}" class="video-code" type="text" readonly value="${escapeHtml(value)}" aria-describedby="${id}-hint">`;
  return (
    `<div class="video-copy"><label class="video-copy-label" for="${id}">${escapeHtml(label)}</label><span class="hint" id="${id}-hint">${escapeHtml(hint)}</span>` +
    `<div class="video-copy-row">${field}<button type="button" class="video-copy-button" data-copy="${id}" hidden>Copy</button></div></div>`
  );
}

export function sharePart(video: VideoAnswer): string {
  if (!video.watch_url || !video.embed_url) {
    const why = video.archived
      ? 'Archived videos are not served, so there is nothing to share. Unarchive it first.'
      : 'The watch page and the embed code are ready when the video is.';
    return `<p class="empty">${escapeHtml(why)}</p>`;
  }
  return (
    copyField('share-watch-url', 'Watch page', 'A page of its own for this video: send the link or post it.', video.watch_url, false) +
    copyField(
      'share-embed-code',
      'Embed code',
      'Paste it into your site’s HTML: the player, its lead form and its analytics come with it.',
      embedSnippet(video),
      true,
    ) +
    `<p class="video-share-links"><a href="${escapeHtml(video.watch_url)}" target="_blank" rel="noopener">Open the watch page<span class="visually-hidden"> (opens in a new tab)</span></a></p>` +
    '<p class="visually-hidden" role="status" id="copy-status"></p>'
  );
}
