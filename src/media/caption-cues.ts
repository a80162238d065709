/**
 * What both caption readers (SRT and WebVTT) do with a cue once they know where it starts: read its
 * timing line, gather its text lines, and close it into a CaptionCue, collecting every problem with
 * its line number. The readers keep their own state machines; this is the part they share.
 */
import type { CaptionCue } from './caption-lines.ts';
import { type CaptionFormat, readTimingLine } from './caption-timing.ts';

export function cueCollector(format: CaptionFormat, cueText: (lines: string[]) => string) {
  const cues: CaptionCue[] = [];
  const problems: string[] = [];
  let open: (CaptionCue & { lines: string[] }) | null = null;
  return {
    cues,
    problems,
    /** The cue whose text is being read, if any. */
    current: () => open,
    /** Closes the open cue, if any, into the list. */
    finish(): void {
      if (open) cues.push({ line: open.line, start_seconds: open.start_seconds, end_seconds: open.end_seconds, text: cueText(open.lines) });
      open = null;
    },
    /** Closes the open cue and opens one at this timing line; false (its problem recorded) when the times cannot be read. */
    start(line: string, number: number): boolean {
      this.finish();
      const timing = readTimingLine(line, format);
      if (!timing.ok) {
        problems.push(`line ${number}: ${timing.problem}`);
        return false;
      }
      open = { line: number, start_seconds: timing.start, end_seconds: timing.end, text: '', lines: [] };
      return true;
    },
  };
}
