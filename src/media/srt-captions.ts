/**
 * Reads an uploaded SRT (SubRip) file into cues, reporting every problem with its line. SRT has no
 * specification, so it reads what the tools that write it produce: a byte order mark, any line
 * endings, cue numbers that skip or are missing, times with a comma or a full stop and one to three
 * digits of fraction, coordinates after the times, HTML-like and ASS formatting, a forgotten blank
 * line between two cues. It refuses what would lose or garble words: a timing line it cannot read,
 * times out of range, a cue ending before it starts, and text in no cue.
 */
import { cueCollector } from './caption-cues.ts';
import { type CaptionReading, captionLines, isBlank } from './caption-lines.ts';
import { isTimingLine, looksLikeTiming, notATimingLine, quoted } from './caption-timing.ts';
import { srtCueText } from './cue-text.ts';

const CUE_NUMBER = /^\d+$/;

type State = 'between' | 'numbered' | 'cue' | 'ignored';

export function readSrtCaptions(text: string): CaptionReading {
  const lines = captionLines(text);
  const first = lines.findIndex((line) => !isBlank(line));
  if (first === -1) return { cues: [], problems: ['the file is empty'] };
  if (/^WEBVTT(?:[ \t]|$)/.test(lines[first] as string)) {
    return { cues: [], problems: [`line ${first + 1}: this is a WebVTT file (it starts with WEBVTT): send it with format webvtt`] };
  }

  const collector = cueCollector('srt', srtCueText);
  const { cues, problems } = collector;
  let state = 'between' as State; // set by startCue too, so declared wide: the compiler cannot follow it
  let cueNumber = '';

  const finishCue = () => collector.finish();
  const startCue = (line: string, number: number) => {
    // A timing line it cannot read leaves the text after it in no cue, and that text is not reported again.
    state = collector.start(line, number) ? 'cue' : 'ignored';
  };

  for (let index = first; index < lines.length; index++) {
    const line = lines[index] as string;
    const number = index + 1;
    if (isBlank(line)) {
      finishCue();
      state = 'between';
      continue;
    }
    if (state === 'cue') {
      if (isTimingLine(line)) {
        // The blank line before the next cue was forgotten: the number just read is that cue's, not text.
        if (CUE_NUMBER.test((collector.current()?.lines.at(-1) ?? '').trim())) collector.current()?.lines.pop();
        startCue(line, number);
      } else collector.current()?.lines.push(line);
    } else if (state === 'numbered') {
      if (isTimingLine(line)) startCue(line, number);
      else {
        problems.push(
          looksLikeTiming(line)
            ? `line ${number}: ${notATimingLine(line, 'srt')}`
            : `line ${number}: cue ${cueNumber} has no timing line after its number (such as 00:00:01,000 --> 00:00:04,000)`,
        );
        state = 'ignored';
      }
    } else if (state === 'between') {
      if (CUE_NUMBER.test(line.trim())) {
        cueNumber = line.trim();
        state = 'numbered';
      } else if (isTimingLine(line)) startCue(line, number);
      else {
        problems.push(
          looksLikeTiming(line)
            ? `line ${number}: ${notATimingLine(line, 'srt')}`
            : `line ${number}: text outside any cue (${quoted(line)}): ${CUE_SHAPE}`,
        );
        state = 'ignored';
      }
    }
  }
  finishCue();
  return { cues, problems };
}

const CUE_SHAPE = 'a cue is its number, a timing line such as 00:00:01,000 --> 00:00:04,000, then its text, and an empty line after it';
