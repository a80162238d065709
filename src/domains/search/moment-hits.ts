/** A transcript moment as the search operations answer it: the video, the time, a watch link starting there. */
import type { Static } from 'typebox';
import type { MediaLinks } from '../../media/media-links.ts';
import type { Moment } from '../transcripts/index.ts';
import { isServable } from '../videos/index.ts';
import type { MomentHit } from './search.schemas.ts';

/** The watch page, starting at the whole second the words start in (?t=, which /player.js seeks to). */
export function watchAt(links: MediaLinks, videoId: string, seconds: number): string {
  return `${links.watchUrl(videoId)}?t=${Math.floor(seconds)}`;
}

export function momentHit(links: MediaLinks, moment: Moment): Static<typeof MomentHit> {
  const servable = isServable({ status: moment.status as 'ready', archived: moment.archived });
  return {
    video: { video_id: moment.videoId, title: moment.title },
    start_seconds: moment.startSeconds,
    end_seconds: moment.endSeconds,
    snippet: moment.snippet,
    score: Math.round(moment.score * 10_000) / 10_000,
    watch_url: servable ? watchAt(links, moment.videoId, moment.startSeconds) : null,
    transcript_offset: moment.offset,
  };
}
