/**
 * A child process the service runs for media work (ffmpeg, pocketsphinx): arguments as an array (no
 * shell, so no file name or URL is ever interpreted), stdin closed, a hard time limit, an abort
 * signal that stops it, and only the tail of its stderr kept. How it ended is a value, so each caller
 * words the failure its own way.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export type ProcessEnd =
  | { ok: true }
  | { ok: false; reason: 'not_started'; error: Error }
  | { ok: false; reason: 'timed_out' }
  | { ok: false; reason: 'failed'; code: number | null; signal: NodeJS.Signals | null; stderr: string };

export interface BoundedProcess {
  child: ChildProcess;
  /** Settles (never rejects) when the process has ended, and says how. */
  ended: Promise<ProcessEnd>;
  /** Stops it at once. */
  kill(): void;
}

export function spawnBounded(
  program: string,
  args: readonly string[],
  options: { timeoutMs: number; signal?: AbortSignal | undefined; stdout: 'pipe' | 'ignore'; stderrKeep: number },
): BoundedProcess {
  const child = spawn(program, args, { stdio: ['ignore', options.stdout, 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-options.stderrKeep);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs);
  const kill = () => child.kill('SIGKILL');
  options.signal?.addEventListener('abort', kill, { once: true });
  const ended = new Promise<ProcessEnd>((resolve) => {
    const settle = (end: ProcessEnd) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      resolve(end);
    };
    child.once('error', (error) => settle({ ok: false, reason: 'not_started', error }));
    child.once('close', (code, signal) => {
      if (code === 0) settle({ ok: true });
      else if (timedOut) settle({ ok: false, reason: 'timed_out' });
      else settle({ ok: false, reason: 'failed', code, signal, stderr });
    });
  });
  return { child, ended, kill };
}

/** "exited with 1" or "was stopped by SIGTERM". */
export function howItEnded(end: { code: number | null; signal: NodeJS.Signals | null }): string {
  return end.signal ? `was stopped by ${end.signal}` : `exited with ${end.code}`;
}
