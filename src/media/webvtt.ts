/**
 * Reads the WebVTT that ffmpeg writes when it converts a subtitle track into timed segments of plain
 * text: styling tags and positioning dropped, character references decoded, empty cues skipped. Only
 * cue timings and text matter here; regions, styles and notes are ignored. ffmpeg's output is
 * trusted to be well formed, so this reader is lenient; files people upload go through the strict
 * one, which names every problem (caption-file.ts).
 */
import { webVttCueText } from './cue-text.ts';

export interface TranscriptSegment {
  start_seconds: number;
  end_seconds: number;
  text: string;
}

const TIMING = /^((?:\d+:)?\d{2}:\d{2}\.\d{3})\s+-->\s+((?:\d+:)?\d{2}:\d{2}\.\d{3})/;

export function parseWebVtt(source: string): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  for (const block of source.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n');
    const timingAt = lines.findIndex((line) => TIMING.test(line));
    if (timingAt === -1) continue; // the header, a NOTE, a STYLE or REGION block
    const [, start, end] = TIMING.exec(lines[timingAt] as string) as RegExpExecArray;
    const text = webVttCueText(lines.slice(timingAt + 1));
    if (text) segments.push({ start_seconds: seconds(start as string), end_seconds: seconds(end as string), text });
  }
  return segments.sort((a, b) => a.start_seconds - b.start_seconds);
}

function seconds(timestamp: string): number {
  const parts = timestamp.split(':').map(Number);
  const [h, m, s] = parts.length === 3 ? parts : [0, ...parts];
  return Math.round(((h as number) * 3600 + (m as number) * 60 + (s as number)) * 1000) / 1000;
}
