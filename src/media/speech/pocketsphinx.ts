/**
 * The local speech-to-text engine: CMU PocketSphinx from Debian's packages (`pocketsphinx` for the
 * `pocketsphinx_batch` program, `pocketsphinx-en-us` for its US English models, 37 MB), so it works
 * offline on a fresh machine and never downloads anything. Each span of speech (speech-spans.ts) is
 * one utterance of a control file, decoded in one run of the program that loads the models once;
 * its CTM output gives every word a start and a duration within its utterance.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { makeWorkDir } from '../../storage/work-dirs.ts';
import { howItEnded, spawnBounded } from '../bounded-process.ts';
import { findSpeech, frameLoudness, packWindows, type TimeSpan } from './speech-spans.ts';
import { type RecognisedSpeech, type SpeechToText, SpeechToTextError } from './speech-to-text.ts';
import { segmentsOfWords, type TimedWord } from './timed-words.ts';
import { readWavLayout } from './wav-file.ts';

export const POCKETSPHINX_PROGRAM = 'pocketsphinx_batch';
/** Where Debian's pocketsphinx-en-us puts its models. */
export const DEBIAN_EN_US_MODEL = '/usr/share/pocketsphinx/model/en-us';
export const POCKETSPHINX_INSTALL_HINT = 'apt-get install pocketsphinx pocketsphinx-en-us';

export interface PocketsphinxInstall {
  program: string;
  acousticModel: string;
  languageModel: string;
  dictionary: string;
}

/** Utterances of at most this long: the decoder's search stays small, and a bad stretch costs little. */
const UTTERANCE_MAX_SECONDS = 20;
/** Spans this close are decoded as one utterance, so the language model sees the words around them. */
const UTTERANCE_JOIN_GAP_SECONDS = 0.6;
/** The time allowed is a minute plus this many seconds per second of speech (it needs about 0.2 here). */
const SECONDS_PER_SECOND_OF_SPEECH = 2;
const STDERR_KEEP = 4096;

/** The program on PATH and the models where Debian puts them, or a sentence saying which is missing. */
export function findPocketsphinx(pathVariable: string, modelDir = DEBIAN_EN_US_MODEL): PocketsphinxInstall | { problem: string } {
  const program = (pathVariable || '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, POCKETSPHINX_PROGRAM))
    .find(isExecutableFile);
  if (!program) return { problem: `${POCKETSPHINX_PROGRAM} is not on PATH (Debian: ${POCKETSPHINX_INSTALL_HINT})` };
  const install = {
    program,
    acousticModel: join(modelDir, 'en-us'),
    languageModel: join(modelDir, 'en-us.lm.bin'),
    dictionary: join(modelDir, 'cmudict-en-us.dict'),
  };
  const missing = [install.acousticModel, install.languageModel, install.dictionary].find((path) => !exists(path));
  if (missing) return { problem: `the US English model is missing (${missing}; Debian: ${POCKETSPHINX_INSTALL_HINT})` };
  return install;
}

export function pocketsphinxEngine(install: PocketsphinxInstall): SpeechToText {
  return {
    description: 'local (pocketsphinx, US English)',
    async transcribe(wavPath, { signal }) {
      const layout = await readWavLayout(wavPath);
      const loudness = await frameLoudness(wavPath, layout);
      const utterances = packWindows(findSpeech(loudness), loudness, {
        maxSeconds: UTTERANCE_MAX_SECONDS,
        maxGapSeconds: UTTERANCE_JOIN_GAP_SECONDS,
      });
      if (utterances.length === 0) return { language: 'en', segments: [] };
      const dir = await makeWorkDir('pocketsphinx');
      try {
        return await decode(install, { dir, wavPath, dataOffset: layout.dataOffset, utterances, signal });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

interface DecodeJob {
  dir: string;
  wavPath: string;
  dataOffset: number;
  utterances: TimeSpan[];
  signal: AbortSignal | undefined;
}

async function decode(install: PocketsphinxInstall, job: DecodeJob): Promise<RecognisedSpeech> {
  // The control file names its audio by a bare name (it splits lines on spaces): a link to the WAV.
  await symlink(job.wavPath, join(job.dir, 'audio.wav'));
  const control = job.utterances
    .map((span, index) => `audio ${Math.round(span.startSeconds * 100)} ${Math.round(span.endSeconds * 100)} u${index}`)
    .join('\n');
  await writeFile(join(job.dir, 'utterances.ctl'), `${control}\n`);
  const ctm = join(job.dir, 'words.ctm');
  const speechSeconds = job.utterances.reduce((total, span) => total + span.endSeconds - span.startSeconds, 0);
  await runProgram(
    install.program,
    [
      ['-hmm', install.acousticModel],
      ['-lm', install.languageModel],
      ['-dict', install.dictionary],
      ['-adcin', 'yes'],
      ['-adchdr', String(job.dataOffset)],
      ['-samprate', '16000'],
      // Half a bit of noise, from a fixed seed: frames of exact digital silence (synthesised speech,
      // gated recordings) give the features a log of zero. On espeak-ng's speech this took the word
      // error rate from 0.67 to 0.40–0.46 (seeds 1 to 5); the fixed seed hears a file the same way
      // every time.
      ['-dither', 'yes'],
      ['-seed', '1'],
      ['-cepdir', job.dir],
      ['-cepext', '.wav'],
      ['-ctl', join(job.dir, 'utterances.ctl')],
      ['-ctm', ctm],
    ].flat(),
    { timeoutMs: 60_000 + speechSeconds * 1000 * SECONDS_PER_SECOND_OF_SPEECH, signal: job.signal },
  );
  const words = parseCtm(await readFile(ctm, 'utf8'), job.utterances);
  return { language: 'en', segments: segmentsOfWords(words) };
}

/**
 * CTM lines are `<utterance> <channel> <start> <duration> <word> <confidence>`, times from the
 * utterance's start. Fillers (`<sil>`, `[NOISE]`, `++UM++`) are not words; `(2)` marks which
 * pronunciation was heard.
 */
export function parseCtm(ctm: string, utterances: readonly TimeSpan[]): TimedWord[] {
  const words: TimedWord[] = [];
  for (const line of ctm.split('\n')) {
    const [utterance, , start, duration, token] = line.trim().split(/\s+/);
    const span = utterances[Number(utterance?.slice(1))];
    if (!span || !token || /^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(token)) continue;
    const startSeconds = span.startSeconds + Number(start);
    const endSeconds = startSeconds + Number(duration);
    if (!Number.isFinite(startSeconds) || !Number.isFinite(endSeconds)) continue;
    words.push({ word: token.replace(/\(\d+\)$/, ''), startSeconds, endSeconds: Math.min(endSeconds, span.endSeconds) });
  }
  return words.sort((a, b) => a.startSeconds - b.startSeconds);
}

async function runProgram(program: string, args: string[], options: { timeoutMs: number; signal: AbortSignal | undefined }): Promise<void> {
  const end = await spawnBounded(program, args, { ...options, stdout: 'ignore', stderrKeep: STDERR_KEEP }).ended;
  if (end.ok) return;
  if (end.reason === 'not_started') {
    throw new SpeechToTextError(`${program} could not be started (${end.error.message}); install it with: ${POCKETSPHINX_INSTALL_HINT}`, {
      cause: end.error,
    });
  }
  if (end.reason === 'timed_out') throw new SpeechToTextError(`pocketsphinx took longer than ${Math.round(options.timeoutMs / 1000)} s`);
  const why =
    end.stderr.split('\n').findLast((line) => /\b(ERROR|FATAL)/.test(line)) ?? end.stderr.trim().split('\n').at(-1) ?? 'no message';
  throw new SpeechToTextError(`pocketsphinx ${howItEnded(end)}: ${why}`);
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
