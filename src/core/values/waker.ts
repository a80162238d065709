/**
 * A sleep that `wake()` (or stopping) cuts short; a wake with nobody waiting is kept for the next
 * wait. The background senders sleep on one between polls, and wake it when a slot frees or new
 * work appears, so they neither spin nor wait a whole interval for nothing.
 */
export interface Waker {
  wait(ms: number): Promise<void>;
  wake(): void;
}

export function createWaker(signal: AbortSignal): Waker {
  let pending = false;
  let release: (() => void) | undefined;
  return {
    wait(ms: number): Promise<void> {
      if (pending || signal.aborted) {
        pending = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          release = undefined;
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener('abort', done, { once: true });
        release = done;
      });
    },
    wake(): void {
      if (release) release();
      else pending = true;
    },
  };
}
