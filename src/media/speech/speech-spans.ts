/**
 * Where in a recording people speak, judged by loudness alone: the recording is cut into 10 ms
 * frames, frames well below the loud parts are quiet, and a quiet stretch of at least PAUSE_SECONDS
 * separates two spans of speech. Engines send spans, packed into windows of a bounded length, to
 * the recogniser: never the silences, and never a cut through the middle of a word when a pause
 * is near.
 */
import { createReadStream } from 'node:fs';
import { BYTES_PER_SAMPLE, SPEECH_SAMPLE_RATE, type WavLayout } from './wav-file.ts';

const FRAMES_PER_SECOND = 100;
const SAMPLES_PER_FRAME = SPEECH_SAMPLE_RATE / FRAMES_PER_SECOND;
/** A pause this long ends a span; shorter ones are the gaps between words. */
const PAUSE_FRAMES = 30;
/** Shorter bursts are clicks and breaths, not words. */
const MIN_SPEECH_FRAMES = 10;
/**
 * Kept on each side of a span (as long as a pause), so the first and last sounds are not clipped
 * and a recogniser sees some silence around the words: PocketSphinx misheard 61% of words with
 * 0.1 s, 53% with 0.2 s and 49% with 0.3 s on the test sentences.
 */
const PAD_FRAMES = 30;
/** Frames this far below the loud ones (the 95th percentile) are quiet... */
const QUIET_BELOW_LOUD_DB = 30;
/** ...and so is anything under this, whatever the recording's level. */
const QUIET_FLOOR_DB = -55;
/** A recording whose loud frames are this quiet holds no speech at all. */
const SILENT_RECORDING_DB = -50;

export interface TimeSpan {
  startSeconds: number;
  endSeconds: number;
}

/** The loudness of each 10 ms frame of the samples, in dB below full scale. Streams the file. */
export async function frameLoudness(wavPath: string, layout: WavLayout): Promise<Float32Array> {
  const frames = new Float32Array(Math.ceil(layout.dataBytes / BYTES_PER_SAMPLE / SAMPLES_PER_FRAME));
  if (layout.dataBytes === 0) return frames;
  let frame = 0;
  let inFrame = 0;
  let sumOfSquares = 0;
  let carry: Buffer | null = null;
  const stream = createReadStream(wavPath, { start: layout.dataOffset, end: layout.dataOffset + layout.dataBytes - 1 });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const bytes: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    const whole = bytes.length - (bytes.length % BYTES_PER_SAMPLE);
    carry = whole < bytes.length ? bytes.subarray(whole) : null;
    for (let at = 0; at < whole; at += BYTES_PER_SAMPLE) {
      const sample = bytes.readInt16LE(at);
      sumOfSquares += sample * sample;
      if (++inFrame === SAMPLES_PER_FRAME) {
        frames[frame++] = decibels(sumOfSquares / inFrame);
        inFrame = 0;
        sumOfSquares = 0;
      }
    }
  }
  if (inFrame > 0) frames[frame++] = decibels(sumOfSquares / inFrame);
  return frames;
}

function decibels(meanSquare: number): number {
  return 10 * Math.log10(meanSquare / (32768 * 32768) + 1e-12);
}

/** The spans of speech in a recording, in order; none when it is silent. */
export function findSpeech(loudness: Float32Array): TimeSpan[] {
  if (loudness.length === 0) return [];
  const sorted = Float32Array.from(loudness).sort();
  const loud = sorted[Math.floor((sorted.length - 1) * 0.95)] as number;
  if (loud < SILENT_RECORDING_DB) return [];
  const threshold = Math.max(loud - QUIET_BELOW_LOUD_DB, QUIET_FLOOR_DB);
  const runs: Array<[number, number]> = []; // [first frame, frame after the last]
  let start = -1;
  let lastLoud = -1;
  for (let i = 0; i < loudness.length; i++) {
    if ((loudness[i] as number) < threshold) continue;
    if (start === -1) start = i;
    else if (i - lastLoud > PAUSE_FRAMES) {
      runs.push([start, lastLoud + 1]);
      start = i;
    }
    lastLoud = i;
  }
  if (start !== -1) runs.push([start, lastLoud + 1]);
  const speech = runs.filter(([from, to]) => to - from >= MIN_SPEECH_FRAMES);
  return speech.map(([from, to], index) => {
    const before = index === 0 ? from : from - (speech[index - 1] as [number, number])[1];
    const after = index === speech.length - 1 ? loudness.length - to : (speech[index + 1] as [number, number])[0] - to;
    const padBefore = Math.min(PAD_FRAMES, index === 0 ? before : Math.floor(before / 2));
    const padAfter = Math.min(PAD_FRAMES, index === speech.length - 1 ? after : Math.floor(after / 2));
    return { startSeconds: seconds(from - padBefore), endSeconds: seconds(to + padAfter) };
  });
}

/**
 * Spans packed into windows for a recogniser: neighbours joined while the window stays within
 * `maxSeconds` and the pause between them is at most `maxGapSeconds`; a span longer than
 * `maxSeconds` cut at its quietest frame in the second half of each window.
 */
export function packWindows(
  spans: readonly TimeSpan[],
  loudness: Float32Array,
  limits: { maxSeconds: number; maxGapSeconds: number },
): TimeSpan[] {
  const pieces = spans.flatMap((span) => cutLongSpan(span, loudness, limits.maxSeconds));
  const windows: TimeSpan[] = [];
  for (const piece of pieces) {
    const last = windows.at(-1);
    if (last && piece.endSeconds - last.startSeconds <= limits.maxSeconds && piece.startSeconds - last.endSeconds <= limits.maxGapSeconds) {
      last.endSeconds = piece.endSeconds;
    } else {
      windows.push({ ...piece });
    }
  }
  return windows;
}

function cutLongSpan(span: TimeSpan, loudness: Float32Array, maxSeconds: number): TimeSpan[] {
  const pieces: TimeSpan[] = [];
  let start = frameOf(span.startSeconds);
  const end = frameOf(span.endSeconds);
  const maxFrames = frameOf(maxSeconds);
  while (end - start > maxFrames) {
    let cut = start + maxFrames;
    for (let i = start + Math.floor(maxFrames / 2); i < start + maxFrames; i++) {
      if ((loudness[i] as number) < (loudness[cut] ?? Number.POSITIVE_INFINITY)) cut = i;
    }
    pieces.push({ startSeconds: seconds(start), endSeconds: seconds(cut) });
    start = cut;
  }
  pieces.push({ startSeconds: seconds(start), endSeconds: seconds(end) });
  return pieces;
}

function frameOf(time: number): number {
  return Math.round(time * FRAMES_PER_SECOND);
}

function seconds(frame: number): number {
  return frame / FRAMES_PER_SECOND;
}
