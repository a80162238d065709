/**
 * Speech for the speech-to-text tests: sentences spoken by Debian's espeak-ng (a formant
 * synthesiser: robotic, but the same words every time), turned into 16 kHz mono WAV by the bundled
 * ffmpeg, and the word error rate of what an engine heard. The tests never skip: without espeak-ng
 * or PocketSphinx they fail and say how to install them (CI installs them).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPocketsphinx, type PocketsphinxInstall } from '../../src/media/speech/pocketsphinx.ts';
import { extractSpeechAudio } from '../../src/media/speech/speech-audio.ts';
import { BYTES_PER_SAMPLE, readWavLayout, readWavSamples, SPEECH_SAMPLE_RATE, wavFileOf } from '../../src/media/speech/wav-file.ts';
import { testFfmpegPath } from './ffmpeg.ts';

export const SPEECH_TOOLS_INSTALL = 'apt-get install espeak-ng pocketsphinx pocketsphinx-en-us';
/**
 * The voice PocketSphinx hears best of espeak-ng's US English ones (Klatt synthesis, a little slower
 * than its default 175 words a minute): about 40–47% of words misheard on short sentences, against
 * 43–100% for the other voices tried.
 */
const VOICE = ['-v', 'en-us+klatt', '-s', '130'];

export function requirePocketsphinx(): PocketsphinxInstall {
  const found = findPocketsphinx(process.env.PATH ?? '');
  if ('problem' in found) throw new Error(`The speech-to-text tests need PocketSphinx: ${found.problem}`);
  return found;
}

/** Speaks `text` into a WAV file at espeak-ng's own rate (22,050 Hz). */
export function speak(text: string, wavPath: string): void {
  try {
    execFileSync('espeak-ng', [...VOICE, '-w', wavPath, text], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const missing = (error as { code?: string }).code === 'ENOENT';
    throw new Error(
      missing ? `The speech-to-text tests need espeak-ng on PATH; install it with: ${SPEECH_TOOLS_INSTALL}` : `espeak-ng failed: ${error}`,
    );
  }
}

export interface SpokenSentence {
  text: string;
  startSeconds: number;
  endSeconds: number;
}

/**
 * The sentences spoken one after another into one 16 kHz mono WAV, `leadSeconds` of silence first and
 * `gapSeconds` between them; where each one is.
 */
export async function speakSentences(
  dir: string,
  sentences: readonly string[],
  wavPath: string,
  { leadSeconds = 0.5, gapSeconds = 1.5 } = {},
): Promise<SpokenSentence[]> {
  const silence = (seconds: number) => Buffer.alloc(Math.round(seconds * SPEECH_SAMPLE_RATE) * BYTES_PER_SAMPLE);
  const parts: Buffer[] = [silence(leadSeconds)];
  const spoken: SpokenSentence[] = [];
  let at = leadSeconds;
  for (const [index, text] of sentences.entries()) {
    const raw = join(dir, `sentence-${index}.wav`);
    const resampled = join(dir, `sentence-${index}-16k.wav`);
    speak(text, raw);
    await extractSpeechAudio(testFfmpegPath, raw, resampled, { maxSeconds: 600, timeoutMs: 60_000 });
    const layout = await readWavLayout(resampled);
    const samples = await readWavSamples(resampled, layout, 0, Number.POSITIVE_INFINITY);
    const seconds = samples.length / BYTES_PER_SAMPLE / SPEECH_SAMPLE_RATE;
    spoken.push({ text, startSeconds: at, endSeconds: at + seconds });
    parts.push(samples, silence(gapSeconds));
    at += seconds + gapSeconds;
  }
  writeFileSync(wavPath, wavFileOf(Buffer.concat(parts)));
  return spoken;
}

/** Words as a scorer compares them: lower case, letters, digits and apostrophes only. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(' ')
    .filter(Boolean);
}

/** Word error rate: (substitutions + deletions + insertions) / words in the reference, by edit distance over words. */
export function wordErrors(reference: string, heard: string): { errors: number; words: number } {
  const expected = wordsOf(reference);
  const got = wordsOf(heard);
  let previous = Array.from({ length: got.length + 1 }, (_, j) => j);
  for (let i = 1; i <= expected.length; i++) {
    const row = [i];
    for (let j = 1; j <= got.length; j++) {
      const substitution = (previous[j - 1] as number) + (expected[i - 1] === got[j - 1] ? 0 : 1);
      row.push(Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, substitution));
    }
    previous = row;
  }
  return { errors: previous[got.length] as number, words: expected.length };
}
