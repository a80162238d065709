/**
 * The timing line of a caption cue, `start --> end` and, in WebVTT, cue settings after it (position,
 * alignment: ignored here, since a transcript only keeps the words and their times). WebVTT times
 * follow its specification: minutes and seconds in two digits, exactly three digits of milliseconds
 * after a full stop, hours only when there are any (01:02.500, 1:01:02.500). SRT has no
 * specification, so its times are read as the tools that write it do: hours always, a comma or a
 * full stop before one to three digits of fraction (00:01:02,500). A time that cannot be read is a
 * problem naming it and saying how to write it.
 */

export type CaptionFormat = 'webvtt' | 'srt';

export type TimingRead = { ok: true; start: number; end: number } | { ok: false; problem: string };

/** No real video runs a day; a time beyond it is a typing slip (an hour for a minute). */
export const LATEST_CUE_SECONDS = 24 * 3600;

const WEBVTT_TIME = /^(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})$/;
const SRT_TIME = /^(\d+):(\d{1,2}):(\d{1,2})[,.](\d{1,3})$/;
const EXAMPLE: Record<CaptionFormat, string> = {
  webvtt: '00:01.000 --> 00:04.000',
  srt: '00:00:01,000 --> 00:00:04,000',
};

/** A line holding the arrow is a timing line; one holding something like a time but no arrow is probably a broken one. */
export function isTimingLine(line: string): boolean {
  return line.includes('-->');
}

export function looksLikeTiming(line: string): boolean {
  return /\d{1,2}:\d{2}/.test(line) && /[-–—>]/.test(line);
}

/** What to say about a line that looks like a timing line without being one. */
export function notATimingLine(line: string, format: CaptionFormat): string {
  return `${quoted(line)} is not a timing line: write the start and end times with "-->" between them, such as ${EXAMPLE[format]}`;
}

export function readTimingLine(line: string, format: CaptionFormat): TimingRead {
  const arrow = line.indexOf('-->');
  const startText = line.slice(0, arrow).trim();
  const endText =
    line
      .slice(arrow + 3)
      .trim()
      .split(/[ \t]/, 1)[0] ?? '';
  if (startText === '') return { ok: false, problem: `the timing line has no start time before "-->" (such as ${EXAMPLE[format]})` };
  if (endText === '') return { ok: false, problem: `the timing line has no end time after "-->" (such as ${EXAMPLE[format]})` };
  const start = readTime(startText, format);
  if (typeof start === 'string') return { ok: false, problem: start };
  const end = readTime(endText, format);
  if (typeof end === 'string') return { ok: false, problem: end };
  if (end < start) return { ok: false, problem: `the cue ends (${endText}) before it starts (${startText})` };
  return { ok: true, start, end };
}

/** Seconds, rounded to the millisecond, or the problem with the time as written. */
function readTime(text: string, format: CaptionFormat): number | string {
  const match = (format === 'webvtt' ? WEBVTT_TIME : SRT_TIME).exec(text);
  if (!match) return badTime(text, format);
  const [, hours, minutes, seconds, fraction] = match as unknown as [string, string | undefined, string, string, string];
  if (Number(minutes) > 59 || Number(seconds) > 59) return `${quoted(text)} is not a time: minutes and seconds go up to 59`;
  const total = Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(seconds) + Number(`0.${fraction}`);
  if (total > LATEST_CUE_SECONDS) return `${quoted(text)} is more than 24 hours into the video`;
  return Math.round(total * 1000) / 1000;
}

function badTime(text: string, format: CaptionFormat): string {
  if (format === 'srt') {
    return `${quoted(text)} is not an SRT time: write hours, minutes, seconds and milliseconds, such as 00:01:02,500`;
  }
  if (/^(?:\d+:)?\d{2}:\d{2},\d{3}$/.test(text)) {
    return `${quoted(text)} is not a WebVTT time: WebVTT puts a full stop before the milliseconds (${text.replace(',', '.')}), SRT a comma`;
  }
  return (
    `${quoted(text)} is not a WebVTT time: write minutes and seconds in two digits and milliseconds in three, ` +
    'with hours before them when there are any, such as 01:02.500 or 1:01:02.500'
  );
}

/** Seconds as a caption time, hours always written: 3723.25 → 01:02:03.250. */
export function clockTime(seconds: number, separator: '.' | ',' = '.'): string {
  const millis = Math.round(seconds * 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const hours = Math.floor(millis / 3_600_000);
  const minutes = Math.floor(millis / 60_000) % 60;
  const secs = Math.floor(millis / 1000) % 60;
  return `${pad(hours)}:${pad(minutes)}:${pad(secs)}${separator}${pad(millis % 1000, 3)}`;
}

/** A line of the file quoted inside a problem, cut short: answers name the line, they do not repeat the file. */
export function quoted(text: string): string {
  const MAX = 40;
  const shown = text.length > MAX ? `${text.slice(0, MAX)}…` : text;
  return `"${shown}"`;
}
