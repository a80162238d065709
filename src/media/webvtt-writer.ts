/**
 * A transcript's segments as a WebVTT file a browser's <track> reads: the header, then one cue per
 * segment in time order with full hh:mm:ss.ttt times. The words are text, so the three characters
 * WebVTT gives meaning to are written as references (which also keeps an arrow, "-->", out of a
 * cue), and a segment's line breaks become spaces: an empty line inside a cue would end it.
 */
import { clockTime } from './caption-timing.ts';
import type { TranscriptSegment } from './webvtt.ts';

const REFERENCES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

export function writeWebVtt(segments: readonly TranscriptSegment[]): string {
  const cues = segments.map((segment) => {
    const text = segment.text
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[&<>]/g, (c) => REFERENCES[c] as string);
    // A browser drops a cue that ends before it starts; such a segment is shown for no time instead.
    const end = Math.max(segment.end_seconds, segment.start_seconds);
    return `${clockTime(segment.start_seconds)} --> ${clockTime(end)}\n${text}\n`;
  });
  return ['WEBVTT\n', ...cues].join('\n');
}
