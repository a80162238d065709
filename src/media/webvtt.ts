/**
 * Reads the WebVTT that ffmpeg writes when it converts a subtitle track into timed segments of plain
 * text: styling tags and positioning dropped, the few entities WebVTT defines decoded, empty cues
 * skipped. Only cue timings and text matter here; regions, styles and notes are ignored. Writes
 * segments back as WebVTT (the demo clips' captions), escaped so the reader gets the same text.
 */
export interface TranscriptSegment {
  start_seconds: number;
  end_seconds: number;
  text: string;
}

const TIMING = /^((?:\d+:)?\d{2}:\d{2}\.\d{3})\s+-->\s+((?:\d+:)?\d{2}:\d{2}\.\d{3})/;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&nbsp;': ' ', '&lrm;': '', '&rlm;': '' };

export function parseWebVtt(source: string): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  for (const block of source.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n');
    const timingAt = lines.findIndex((line) => TIMING.test(line));
    if (timingAt === -1) continue; // the header, a NOTE, a STYLE or REGION block
    const [, start, end] = TIMING.exec(lines[timingAt] as string) as RegExpExecArray;
    const text = lines
      .slice(timingAt + 1)
      .map(plainText)
      .filter(Boolean)
      .join(' ');
    if (text) segments.push({ start_seconds: seconds(start as string), end_seconds: seconds(end as string), text });
  }
  return segments.sort((a, b) => a.start_seconds - b.start_seconds);
}

function plainText(line: string): string {
  return line
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:amp|lt|gt|nbsp|lrm|rlm);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
}

function seconds(timestamp: string): number {
  const parts = timestamp.split(':').map(Number);
  const [h, m, s] = parts.length === 3 ? parts : [0, ...parts];
  return Math.round(((h as number) * 3600 + (m as number) * 60 + (s as number)) * 1000) / 1000;
}

export function formatWebVtt(segments: readonly TranscriptSegment[]): string {
  const cues = segments.map(
    (segment) =>
      `${timestamp(segment.start_seconds)} --> ${timestamp(segment.end_seconds)}\n${segment.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\s+/g, ' ')}`,
  );
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

function timestamp(totalSeconds: number): string {
  const milliseconds = Math.round(totalSeconds * 1000);
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  const hours = Math.floor(milliseconds / 3_600_000);
  const minutes = Math.floor(milliseconds / 60_000) % 60;
  const seconds = Math.floor(milliseconds / 1000) % 60;
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(milliseconds % 1000, 3)}`;
}
