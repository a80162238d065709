/**
 * Runs ffmpeg as a child process: arguments as an array (no shell, so no file name or URL is ever
 * interpreted), stdin closed, a hard time limit, and at most the last few KB of stderr kept to say
 * why it failed. Output is a stream, so a caller can send it straight to the media store.
 */
import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';

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
  const child = spawn(ffmpegPath, ['-nostdin', '-hide_banner', '-loglevel', 'error', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEEP);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs);
  const stop = () => child.kill('SIGKILL');
  options.signal?.addEventListener('abort', stop, { once: true });
  const finished = new Promise<void>((resolve, reject) => {
    child.once('error', (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
      reject(new Error(`ffmpeg could not be started: ${error.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
      if (code === 0) resolve();
      else if (timedOut) reject(new Error(`ffmpeg took longer than ${options.timeoutMs} ms`));
      else reject(new Error(`ffmpeg ${signal ? `was stopped by ${signal}` : `exited with ${code}`}: ${stderr.trim() || 'no message'}`));
    });
  });
  // Node discards what a child wrote to a pipe nobody is reading when it exits (flushStdio), so a
  // caller that starts reading a moment later would get nothing: hold the output from the start.
  const stdout = child.stdout.pipe(new PassThrough());
  return { stdout, finished, kill: stop };
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
