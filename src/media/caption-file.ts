/**
 * An uploaded caption file (WebVTT or SRT) as a transcript's timed segments, or every problem that
 * stops it being one, each naming its line. Beyond what each format's reader checks: the file must
 * hold at least one cue with words, and, once the video's length is known, no cue may start after
 * the video has ended (captions made for another video, or a slip of the hour). Cues without words
 * are skipped and counted; the rest come out in time order.
 */
import type { CaptionReading } from './caption-lines.ts';
import { type CaptionFormat, clockTime } from './caption-timing.ts';
import { readSrtCaptions } from './srt-captions.ts';
import type { TranscriptSegment } from './webvtt.ts';
import { readWebVttCaptions } from './webvtt-captions.ts';

export type { CaptionFormat } from './caption-timing.ts';
export const CAPTION_FORMATS = ['webvtt', 'srt'] as const satisfies readonly CaptionFormat[];

/** Durations are measured from the file's streams; captions often run a moment past them. */
const DURATION_TOLERANCE_SECONDS = 1;

export interface CaptionFile {
  segments: TranscriptSegment[];
  /** Cues with no words, skipped. */
  emptyCues: number;
  /** Empty when the file can be used. */
  problems: string[];
}

export function readCaptionFile(format: CaptionFormat, text: string, videoSeconds: number | null): CaptionFile {
  const reading: CaptionReading = format === 'webvtt' ? readWebVttCaptions(text) : readSrtCaptions(text);
  const problems = [...reading.problems];
  const worded = reading.cues.filter((cue) => cue.text !== '');
  if (problems.length === 0 && reading.cues.length === 0) {
    problems.push(`the file has no cues: ${format === 'webvtt' ? 'a WebVTT' : 'an SRT'} cue is a timing line then its text`);
  } else if (problems.length === 0 && worded.length === 0) {
    problems.push(
      reading.cues.length === 1 ? "the file's one cue has no words" : `none of the file's ${reading.cues.length} cues has any words`,
    );
  }
  if (videoSeconds !== null) {
    for (const cue of worded) {
      if (cue.start_seconds > videoSeconds + DURATION_TOLERANCE_SECONDS) {
        problems.push(
          `line ${cue.line}: the cue starts at ${clockTime(cue.start_seconds)}, after the video ends (at ${clockTime(videoSeconds)})`,
        );
      }
    }
  }
  const segments = worded
    .sort((a, b) => a.start_seconds - b.start_seconds)
    .map(({ start_seconds, end_seconds, text: words }) => ({ start_seconds, end_seconds, text: words }));
  return { segments, emptyCues: reading.cues.length - worded.length, problems: problems.sort((a, b) => lineOf(a) - lineOf(b)) };
}

/** The line a problem names; 0 for one about the whole file, which comes first. */
function lineOf(problem: string): number {
  return Number(/^line (\d+):/.exec(problem)?.[1] ?? 0);
}
