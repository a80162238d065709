/**
 * A circuit breaker for a dependency that can hang (Redis, for the rate limiter). Closed: every call
 * goes through. After `failuresToOpen` failures in a row it opens: no call goes through, so a hung
 * dependency costs callers nothing. Once `probeIntervalMs` has passed it lets exactly one call
 * through as a probe (half-open): success closes it, failure opens it for another interval.
 * Time comes from `now`, so tests drive it without waiting.
 */

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  failuresToOpen: number;
  probeIntervalMs: number;
  /** Milliseconds, from any fixed origin. */
  now: () => number;
  /** Called once per change of state, never per call. */
  onChange?: (from: BreakerState, to: BreakerState) => void;
}

/** Leave to make one call; report how it went, exactly once. */
export interface BreakerPermit {
  succeeded(): void;
  failed(): void;
}

export interface CircuitBreaker {
  readonly state: BreakerState;
  /** A permit when a call may go to the dependency now; undefined when it must not. */
  permit(): BreakerPermit | undefined;
}

export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  let state: BreakerState = 'closed';
  let failuresInARow = 0;
  let openedAt = 0;

  const moveTo = (next: BreakerState) => {
    if (next === state) return;
    const previous = state;
    state = next;
    options.onChange?.(previous, next);
  };
  const open = () => {
    failuresInARow = 0;
    openedAt = options.now();
    moveTo('open');
  };

  // Calls that started while closed count towards opening it; once it has opened, their outcomes are
  // stale (a late success from before the outage proves nothing) and only the probe decides.
  const ordinary: BreakerPermit = {
    succeeded() {
      if (state === 'closed') failuresInARow = 0;
    },
    failed() {
      if (state !== 'closed') return;
      failuresInARow += 1;
      if (failuresInARow >= options.failuresToOpen) open();
    },
  };
  const probe: BreakerPermit = {
    succeeded() {
      if (state === 'half-open') moveTo('closed');
    },
    failed() {
      if (state === 'half-open') open();
    },
  };

  return {
    get state() {
      return state;
    },
    permit() {
      if (state === 'closed') return ordinary;
      if (state === 'open' && options.now() - openedAt >= options.probeIntervalMs) {
        moveTo('half-open');
        return probe;
      }
      return undefined;
    },
  };
}
