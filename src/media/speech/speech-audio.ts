/**
 * Takes the sound out of a video with ffmpeg, as speech engines want it: the first audio track,
 * mixed down to mono, resampled to 16 kHz, 16-bit PCM in a WAV file (about 1.9 MB a minute). At
 * most `maxSeconds` are kept, so a file can never yield more audio than the job allows for. The
 * same file always gives the same samples (no dither), so a video is always heard the same way.
 */
import { runFfmpeg } from '../ffmpeg.ts';
import { SPEECH_SAMPLE_RATE } from './wav-file.ts';

export async function extractSpeechAudio(
  ffmpegPath: string,
  sourcePath: string,
  wavPath: string,
  options: { maxSeconds: number; timeoutMs: number; signal?: AbortSignal },
): Promise<void> {
  const run = runFfmpeg(
    ffmpegPath,
    [
      '-i',
      sourcePath,
      '-map',
      '0:a:0',
      '-t',
      String(options.maxSeconds),
      '-ac',
      '1',
      '-ar',
      String(SPEECH_SAMPLE_RATE),
      '-c:a',
      'pcm_s16le',
      // No metadata chunk before the samples: a plain header is what every server reads.
      '-map_metadata',
      '-1',
      '-fflags',
      '+bitexact',
      '-flags:a',
      '+bitexact',
      '-f',
      'wav',
      '-y',
      wavPath,
    ],
    { timeoutMs: options.timeoutMs, signal: options.signal },
  );
  run.stdout.resume();
  await run.finished;
}
