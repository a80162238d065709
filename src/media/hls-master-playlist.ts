/**
 * A video's HLS master playlist (RFC 8216 §4.3.4.2): one variant per ready rendition, smallest
 * first, each with its peak and average bit rate, its size and its codecs, so a player can choose
 * before it fetches anything. Variant URIs are relative (`<rendition id>/index.m3u8`): the playlist
 * works wherever /media is served from, a CDN included.
 */
import { RENDITION_PLAYLIST } from './hls-rendition.ts';

export interface PlayableRendition {
  id: string;
  width: number;
  height: number;
  codecs: string | null;
  bandwidth: number | null;
  average_bandwidth: number | null;
}

export function masterPlaylist(renditions: readonly PlayableRendition[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const rendition of renditions) {
    const attributes = [
      `BANDWIDTH=${rendition.bandwidth ?? 0}`,
      rendition.average_bandwidth ? `AVERAGE-BANDWIDTH=${rendition.average_bandwidth}` : null,
      `RESOLUTION=${rendition.width}x${rendition.height}`,
      rendition.codecs ? `CODECS="${rendition.codecs}"` : null,
    ].filter((attribute) => attribute !== null);
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, `${rendition.id}/${RENDITION_PLAYLIST}`);
  }
  return `${lines.join('\n')}\n`;
}
