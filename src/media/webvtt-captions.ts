/**
 * Reads an uploaded WebVTT file into cues, reporting every problem with its line. It reads what
 * tools really write: a byte order mark, any line endings, text after `WEBVTT` and header lines
 * (`Kind:`, `Language:`), NOTE, STYLE and REGION blocks, cue identifiers, cue settings, markup, and
 * cues that overlap (two speakers at once) or come out of order. It refuses what would lose or
 * garble words: a file that does not start with `WEBVTT`, a timing line it cannot read, times out of
 * range, a cue ending before it starts, and text in no cue.
 */
import { cueCollector } from './caption-cues.ts';
import { type CaptionReading, captionLines, isBlank } from './caption-lines.ts';
import { isTimingLine, looksLikeTiming, notATimingLine, quoted } from './caption-timing.ts';
import { webVttCueText } from './cue-text.ts';

const HEADER = /^WEBVTT(?:[ \t]|$)/;
const IGNORED_BLOCK = /^(?:NOTE(?:[ \t]|$)|(?:STYLE|REGION)[ \t]*$)/;
const SRT_LIKE = /^\d+$/;

type State = 'between' | 'identifier' | 'cue' | 'ignored';

export function readWebVttCaptions(text: string): CaptionReading {
  const lines = captionLines(text);
  const first = lines.findIndex((line) => !isBlank(line));
  if (first === -1) return { cues: [], problems: ['the file is empty'] };
  if (!HEADER.test(lines[first] as string)) return { cues: [], problems: [missingHeader(lines, first)] };

  const collector = cueCollector('webvtt', webVttCueText);
  const { cues, problems } = collector;
  let state = 'between' as State; // set by startCue too, so declared wide: the compiler cannot follow it
  let identifier = { line: 0, text: '' };

  const finishCue = () => collector.finish();
  const startCue = (line: string, number: number) => {
    // A timing line it cannot read leaves the text after it in no cue, and that text is not reported again.
    state = collector.start(line, number) ? 'cue' : 'ignored';
  };
  const strayBlock = (next?: { line: number; text: string }) => {
    if (next && looksLikeTiming(next.text)) problems.push(`line ${next.line}: ${notATimingLine(next.text, 'webvtt')}`);
    else if (looksLikeTiming(identifier.text)) problems.push(`line ${identifier.line}: ${notATimingLine(identifier.text, 'webvtt')}`);
    else problems.push(`line ${identifier.line}: text outside any cue (${quoted(identifier.text)}): ${CUE_SHAPE}`);
    state = 'ignored';
  };

  // The header: the WEBVTT line and the lines after it, up to an empty line or, in files that forget
  // that line, the first cue's timing.
  let body = first + 1;
  while (body < lines.length && !isBlank(lines[body] as string) && !isTimingLine(lines[body] as string)) body++;
  for (let index = body; index < lines.length; index++) {
    const line = lines[index] as string;
    const number = index + 1;
    if (isBlank(line)) {
      if (state === 'identifier') strayBlock();
      finishCue();
      state = 'between';
      continue;
    }
    if (state === 'cue') {
      // A timing line inside a cue's text starts the next cue, as browsers read it (the blank line was forgotten).
      if (isTimingLine(line)) startCue(line, number);
      else collector.current()?.lines.push(line);
    } else if (state === 'identifier') {
      if (isTimingLine(line)) startCue(line, number);
      else strayBlock({ line: number, text: line });
    } else if (state === 'between') {
      if (IGNORED_BLOCK.test(line)) state = 'ignored';
      else if (isTimingLine(line)) startCue(line, number);
      else {
        identifier = { line: number, text: line };
        state = 'identifier';
      }
    }
  }
  if (state === 'identifier') strayBlock();
  finishCue();
  return { cues, problems };
}

const CUE_SHAPE = 'a cue is a timing line, such as 00:01.000 --> 00:04.000, then its text, and an empty line after it';

function missingHeader(lines: readonly string[], first: number): string {
  const problem = `line ${first + 1}: a WebVTT file starts with the line WEBVTT`;
  const next = lines[first + 1] ?? '';
  const srt = SRT_LIKE.test((lines[first] as string).trim()) && isTimingLine(next) && next.includes(',');
  return srt ? `${problem}; this one looks like SRT (numbered cues, times with commas): send it with format srt` : problem;
}
