/**
 * Runs ffmpeg as a bounded child process (bounded-process.ts: no shell, stdin closed, a hard time
 * limit, the last few KB of stderr kept to say why it failed). Output is a stream, so a caller can send it straight to the media store.
 */
import { PassThrough, type Readable } from 'node:stream';
import { howItEnded, spawnBounded } from './bounded-process.ts';

const STDERR_KEEP = 2048;

export interface FfmpegRun {
  /** What ffmpeg writes to its standard output. */
  stdout: Readable;
  /** Settles when ffmpeg exits: rejects with the reason unless it exited 0 within the time limit. */
  finished: Promise<void>;
  /** Stops ffmpeg at once (the caller no longer wants its output). */
  kill(): void;
}

export function runFfmpeg(ffmpegPath: string, args: readonly string[], options: { timeoutMs: number; signal?: AbortSignal }): FfmpegRun {
  const run = spawnBounded(ffmpegPath, ['-nostdin', '-hide_banner', '-loglevel', 'error', ...args], {
    ...options,
    stdout: 'pipe',
    stderrKeep: STDERR_KEEP,
  });
  const finished = run.ended.then((end) => {
    if (end.ok) return;
    if (end.reason === 'not_started') throw new Error(`ffmpeg could not be started: ${end.error.message}`);
    if (end.reason === 'timed_out') throw new Error(`ffmpeg took longer than ${options.timeoutMs} ms`);
    throw new Error(`ffmpeg ${howItEnded(end)}: ${end.stderr.trim() || 'no message'}`);
  });
  // Node discards what a child wrote to a pipe nobody is reading when it exits (flushStdio), so a
  // caller that starts reading a moment later would get nothing: hold the output from the start.
  const stdout = (run.child.stdout as Readable).pipe(new PassThrough());
  return { stdout, finished, kill: run.kill };
}

/** Runs ffmpeg and collects its standard output as text, refusing more than `maxBytes`. */
export async function ffmpegText(
  ffmpegPath: string,
  args: readonly string[],
  options: { timeoutMs: number; maxBytes: number; signal?: AbortSignal },
): Promise<string> {
  const run = runFfmpeg(ffmpegPath, args, options);
  const chunks: Buffer[] = [];
  let size = 0;
  const collected = (async () => {
    for await (const chunk of run.stdout as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > options.maxBytes) {
        run.kill();
        throw new Error(`ffmpeg wrote more than ${options.maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
  })();
  const [output, exit] = await Promise.allSettled([collected, run.finished]);
  if (output.status === 'rejected') throw output.reason;
  if (exit.status === 'rejected') throw exit.reason;
  return Buffer.concat(chunks).toString('utf8');
}
