/**
 * The circuit breaker on an injected clock: it opens after N failures in a row (not N in total),
 * refuses calls while open, lets exactly one probe through per interval, closes on the probe's
 * success, reopens on its failure, ignores stale outcomes of calls made before it opened, and
 * reports each change of state once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type BreakerState, createCircuitBreaker } from './circuit-breaker.ts';

function breakerOnClock(failuresToOpen = 3, probeIntervalMs = 1000) {
  let now = 0;
  const changes: string[] = [];
  const breaker = createCircuitBreaker({
    failuresToOpen,
    probeIntervalMs,
    now: () => now,
    onChange: (from: BreakerState, to: BreakerState) => changes.push(`${from}->${to}`),
  });
  return {
    breaker,
    changes,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

function failOnce(breaker: ReturnType<typeof breakerOnClock>['breaker']): void {
  const permit = breaker.permit();
  assert.ok(permit, 'a call was allowed');
  permit.failed();
}

test('opens after failures in a row; a success in between starts the count again', () => {
  const { breaker, changes } = breakerOnClock(3);
  failOnce(breaker);
  failOnce(breaker);
  breaker.permit()?.succeeded();
  failOnce(breaker);
  failOnce(breaker);
  assert.equal(breaker.state, 'closed', 'two failures since the last success');
  failOnce(breaker);
  assert.equal(breaker.state, 'open');
  assert.deepEqual(changes, ['closed->open']);
});

test('while open no call goes through, however many are tried, until the interval has passed', () => {
  const { breaker, advance, changes } = breakerOnClock(1, 1000);
  failOnce(breaker);
  for (let i = 0; i < 1000; i++) assert.equal(breaker.permit(), undefined);
  advance(999);
  assert.equal(breaker.permit(), undefined, 'not before the interval');
  advance(1);
  const probe = breaker.permit();
  assert.ok(probe, 'one probe after the interval');
  assert.equal(breaker.state, 'half-open');
  assert.equal(breaker.permit(), undefined, 'only one probe at a time');
  probe.succeeded();
  assert.equal(breaker.state, 'closed');
  assert.ok(breaker.permit(), 'closed again: calls go through');
  assert.deepEqual(changes, ['closed->open', 'open->half-open', 'half-open->closed']);
});

test('a failed probe opens it for another full interval', () => {
  const { breaker, advance } = breakerOnClock(1, 1000);
  failOnce(breaker);
  advance(5000);
  failOnce(breaker);
  assert.equal(breaker.state, 'open');
  advance(999);
  assert.equal(breaker.permit(), undefined, 'the interval restarted at the failed probe');
  advance(1);
  assert.ok(breaker.permit());
});

test('outcomes of calls made before it opened change nothing', () => {
  const { breaker, advance } = breakerOnClock(2, 1000);
  const early = [breaker.permit(), breaker.permit(), breaker.permit()];
  early[0]?.failed();
  early[1]?.failed();
  assert.equal(breaker.state, 'open');
  early[2]?.succeeded();
  assert.equal(breaker.state, 'open', 'a late success from before the outage does not close it');
  advance(1000);
  const probe = breaker.permit();
  assert.ok(probe);
  early[2]?.failed();
  assert.equal(breaker.state, 'half-open', 'a late failure does not decide for the probe');
  probe.succeeded();
  assert.equal(breaker.state, 'closed');
});

test('a dependency that stays down costs one probe per interval, and each change is reported once', () => {
  const { breaker, advance, changes } = breakerOnClock(3, 1000);
  for (let i = 0; i < 3; i++) failOnce(breaker);
  let calls = 0;
  // 10 simulated seconds of traffic, one call attempt per millisecond.
  for (let ms = 0; ms < 10_000; ms++) {
    advance(1);
    const permit = breaker.permit();
    if (permit) {
      calls += 1;
      permit.failed();
    }
  }
  assert.equal(calls, 10, 'one probe per second reached the dependency');
  assert.equal(changes.filter((c) => c === 'closed->open').length, 1);
});
