/**
 * Recognised words with their times, grouped into transcript segments the size of a caption: a new
 * segment starts after a pause between words, or when the current one has run MAX_SEGMENT_SECONDS
 * or MAX_SEGMENT_WORDS. Engines that hear words but no sentences (pocketsphinx) write lower-case
 * text without punctuation; a segment's first letter and the word "I" are capitalised so captions
 * read as text.
 */
import type { TranscriptSegment } from '../webvtt.ts';

export interface TimedWord {
  word: string;
  startSeconds: number;
  endSeconds: number;
}

const PAUSE_SECONDS = 0.6;
const MAX_SEGMENT_SECONDS = 7;
const MAX_SEGMENT_WORDS = 14;

export function segmentsOfWords(words: readonly TimedWord[]): TranscriptSegment[] {
  const groups: TimedWord[][] = [];
  for (const word of words) {
    const group = groups.at(-1);
    const first = group?.[0];
    const last = group?.at(-1);
    if (
      !group ||
      !first ||
      !last ||
      word.startSeconds - last.endSeconds >= PAUSE_SECONDS ||
      word.endSeconds - first.startSeconds > MAX_SEGMENT_SECONDS ||
      group.length >= MAX_SEGMENT_WORDS
    ) {
      groups.push([word]);
    } else {
      group.push(word);
    }
  }
  return groups.map((group) => ({
    start_seconds: roundToMs((group[0] as TimedWord).startSeconds),
    end_seconds: roundToMs((group.at(-1) as TimedWord).endSeconds),
    text: sentenceCase(group.map((timed) => timed.word).join(' ')),
  }));
}

function sentenceCase(text: string): string {
  const withI = text.replace(/(?<=^|\s)i(?=$|\s|')/g, 'I');
  return withI.charAt(0).toUpperCase() + withI.slice(1);
}

function roundToMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
