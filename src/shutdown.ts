/**
 * Graceful stop with a deadline. The first SIGINT or SIGTERM starts `stop` (stop accepting, finish
 * in-flight requests and background work, close the database) and exits 0 when it is done. A stop
 * still running at the deadline, or a second signal, exits 1 at once: an operator or a supervisor
 * must always be able to end the process. The embedded data-directory lock is dropped on any exit
 * (db/data-dir-lock.ts), so even a forced stop leaves the directory ready for the next start.
 */
import type { Log } from './core/context.ts';

export interface ShutdownOptions {
  /** Which signals stop the process (a cluster's API processes take SIGTERM from their primary only). */
  signals: readonly NodeJS.Signals[];
  /** CUEPOINT_SHUTDOWN_TIMEOUT_MS. */
  timeoutMs: number;
  log: Log;
  /** Runs just before a forced exit, for what must not outlive the process (a cluster's children). */
  onForce?: () => void;
}

export function stopOnSignals(stop: () => Promise<void>, options: ShutdownOptions): void {
  let stopping = false;
  const force = (reason: string, details: object) => {
    options.log.error(details, `${reason}; exiting without waiting`);
    options.onForce?.();
    process.exit(1);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return force('second signal while stopping', { signal });
    stopping = true;
    options.log.info(
      { signal, timeout_ms: options.timeoutMs },
      'stopping: no new requests; finishing in-flight requests and background work (send the signal again to exit now)',
    );
    const deadline = setTimeout(
      () => force(`not stopped within ${options.timeoutMs} ms`, { timeout_ms: options.timeoutMs }),
      options.timeoutMs,
    );
    stop().then(
      () => {
        clearTimeout(deadline);
        options.log.info({}, 'stopped');
        process.exit(0);
      },
      (err: unknown) => {
        clearTimeout(deadline);
        options.log.error({ err }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  for (const signal of options.signals) process.on(signal, onSignal);
}
