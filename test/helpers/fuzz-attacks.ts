/**
 * What the fuzz suites (test/fuzz/) share: the hostile values each field of each input is sent, the
 * operations /v1 and MCP offer, and the small helpers that turn an operation's example into an attack.
 * The suites are split by surface so the test runner can share them out between its workers.
 */
import type { TestContext } from 'node:test';
import { apiOperations, catalog as everyOperation } from '../../src/catalog.ts';
import type { AnyOperation } from '../../src/core/operation.ts';
import {
  type AttackTally,
  BIG_NUMBERS,
  HOSTILE,
  HUGE_ARRAY,
  HUGE_OBJECT,
  IMPOSSIBLE_DATES,
  LONG_ARRAY,
  nestedArrays,
  nestedObjects,
  PROTOTYPE_VALUES,
  WIDE_OBJECT,
} from './hostile-inputs.ts';

/** What /v1 and MCP offer: the dashboard's own actions are never there (test/dashboard-only.test.ts). */
export const catalog = apiOperations(everyOperation);

/** Attacks that put one value in one field, whatever the transport. */
export const VALUE_ATTACKS: [string, unknown[]][] = [
  ['hostile values', HOSTILE],
  ['prototype property names', PROTOTYPE_VALUES],
  ['impossible dates', IMPOSSIBLE_DATES],
  ['oversized numbers', BIG_NUMBERS],
  ['huge arrays', [HUGE_ARRAY, LONG_ARRAY]],
  ['huge objects', [HUGE_OBJECT, WIDE_OBJECT]],
  ['nesting', [nestedArrays(20), nestedObjects(31), nestedObjects(40), nestedArrays(3_000), nestedObjects(3_000)]],
];

/**
 * Over MCP, a sample of each attack: the arguments take the same validation path as REST bodies, so
 * what MCP adds (the SDK's parsing, results, errors) is covered without sending everything twice.
 */
export const MCP_ATTACKS: [string, unknown[]][] = [
  ['hostile values', [null, true, 1.5, '', 'x'.repeat(20_000), '\u0000', [], [null], ['a', 'a'], {}]],
  ['prototype property names', ['constructor', '__proto__', 'toString', ['constructor'], { constructor: 'x', toString: 'y' }]],
  ['impossible dates', ['2030-12-31T23:59:60Z', '2030-02-30', '0000-01-01T00:00:00Z', '10000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z']],
  ['oversized numbers', [Number.MAX_VALUE, -(2 ** 63)]],
  ['huge arrays', [HUGE_ARRAY, LONG_ARRAY]],
  ['huge objects', [HUGE_OBJECT, WIDE_OBJECT]],
  ['nesting', [nestedObjects(31), nestedObjects(40), nestedArrays(3_000)]],
];

export const RAW_MARK = '\u0001raw\u0001';

export function report(t: TestContext, tally: AttackTally, surface: string): void {
  for (const line of tally.lines(surface)) t.diagnostic(line);
}

/** An operation's example, with a real video of the workspace where it names one. */
export function exampleOf(op: AnyOperation, videoId: string): Record<string, unknown> {
  const example = { ...(op.example as Record<string, unknown>) };
  if ('video_id' in example) example.video_id = videoId;
  return example;
}

export function fieldsOf(op: AnyOperation): string[] {
  return Object.keys((op.input as { properties: object }).properties);
}

export const takesBody = (op: AnyOperation) => op.method !== 'GET' && op.method !== 'DELETE';

export function asQueryValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : value;
}

// Thousands of requests: on a busy 2-core machine the REST suite took over the runner's default once,
// and both suites went past 360 s in a full run on a day the machine ran everything 2.2 times slower
// (2026-11-30), so the long suites get a longer guard against a hang (a guard, not a speed target).
export const MANY_REQUESTS = { timeout: 900_000 };
