/**
 * The top of the video page: the player and the video's lifetime figures. The player is a <video> of
 * our own media (poster, captions), not the public embed: the team's own plays in the dashboard are not
 * views, so they leave the analytics alone. Media are asked for by path, from the dashboard's own
 * origin (the policy allows media-src 'self' and nothing else).
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatClock, formatCount, formatDate, formatShare, formatWatchTime } from '../kit/formats.ts';
import type { VideoAnswer } from './video-answers.ts';

/** `https://host/media/x` → `/media/x`: the same resource, asked of the origin the page came from. */
export function ownPath(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

const WHY_NO_PLAYER: Record<VideoAnswer['status'], string> = {
  waiting_upload: 'Waiting for its file: the player appears once the upload is finished and processed.',
  processing: 'Processing: the player appears when the video is ready, usually within a minute or two.',
  ready: '',
  failed: 'Processing failed, so there is nothing to play.',
};

export function playerPart(video: VideoAnswer): string {
  if (!video.playback_url) {
    const why = video.archived
      ? 'Archived: the video is not served anywhere. Unarchive it to play and share it again.'
      : WHY_NO_PLAYER[video.status];
    const reason = video.status === 'failed' && video.failure_reason ? `<p class="empty">${escapeHtml(video.failure_reason)}</p>` : '';
    return `<div class="video-player video-player-empty"><p>${escapeHtml(why)}</p>${reason}</div>`;
  }
  const poster = video.poster_url ? ` poster="${escapeHtml(ownPath(video.poster_url))}"` : '';
  const captions = video.transcript?.captions_url
    ? `<track kind="captions" src="${escapeHtml(ownPath(video.transcript.captions_url))}" srclang="${escapeHtml(video.transcript.language ?? 'en')}" label="Captions">`
    : '';
  return (
    `<div class="video-player"><video id="player" controls preload="metadata" playsinline${poster} src="${escapeHtml(ownPath(video.playback_url))}" aria-label="${escapeHtml(video.title)}">` +
    `${captions}<a href="${escapeHtml(ownPath(video.playback_url))}">Download the video</a></video></div>`
  );
}

/** Lifetime figures as get_video gives them, as tiles. */
export function lifetimeTiles(video: VideoAnswer): string {
  const stats = video.stats;
  const tiles: [string, string, string?][] = [
    ['Views', formatCount(stats.views), `${formatCount(stats.unique_viewers)} unique viewers`],
    ['Watch time', formatWatchTime(stats.watch_time_seconds)],
    ['Average engagement', formatShare(stats.average_engagement), 'of the video watched, per view'],
    ['Completion rate', formatShare(stats.completion_rate), `${formatCount(stats.completions)} watched to the end`],
    ['Conversions', formatCount(stats.conversions), 'clicks on the call to action and leads'],
    ['Leads', formatCount(stats.leads), 'captured by its form'],
  ];
  return (
    '<ul class="tiles video-tiles" aria-label="Since the video was added">' +
    tiles
      .map(
        ([label, value, change]) =>
          `<li class="tile"><p class="label">${escapeHtml(label)}</p><p class="value">${escapeHtml(value)}</p>${change ? `<p class="change">${escapeHtml(change)}</p>` : ''}</li>`,
      )
      .join('') +
    '</ul>'
  );
}

function fileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** What the video is: length, size, folder, tags, when it was added. */
export function videoFacts(video: VideoAnswer, timeZone: string): string {
  const facts: [string, string][] = [
    ['Length', video.duration_seconds === null ? 'Not known yet' : formatClock(video.duration_seconds)],
    ['Added', formatDate(video.created_at, timeZone)],
    ['Folder', video.folder_name ?? 'None'],
    ['Tags', video.tags.length > 0 ? video.tags.join(', ') : 'None'],
  ];
  if (video.width && video.height) facts.push(['Dimensions', `${video.width} × ${video.height}`]);
  if (video.file_size !== null) facts.push(['File', `${video.file_name ? `${video.file_name}, ` : ''}${fileSize(video.file_size)}`]);
  return `<dl class="video-facts">${facts.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
}
