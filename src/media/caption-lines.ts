/**
 * What the two caption readers (webvtt-captions.ts, srt-captions.ts) share: the file as numbered
 * lines, whatever its line endings and with a byte order mark dropped, and what a reading gives
 * back: the cues, each with the line of its timing, and the problems, each naming its line.
 */

export interface CaptionCue {
  /** The line of its timing line, counted from 1, for problems found later (a cue after the video's end). */
  line: number;
  start_seconds: number;
  end_seconds: number;
  /** Plain text; empty for a cue with no words (real files have them, and they are skipped). */
  text: string;
}

export interface CaptionReading {
  cues: CaptionCue[];
  /** Sentences starting "line N: ". */
  problems: string[];
}

/** The lines of the file: CRLF, LF and CR (which WebVTT allows) all end a line. */
export function captionLines(text: string): string[] {
  return text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
}

/** Spaces alone on a line end a cue as an empty line does: editors leave them, and no one means them as a caption. */
export function isBlank(line: string): boolean {
  return line.trim() === '';
}
