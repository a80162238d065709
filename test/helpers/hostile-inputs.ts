/**
 * The fuzz corpus and what every answer to it must be: attacks by kind (hostile values, prototype
 * property names, impossible dates, oversized numbers, huge arrays and objects, depth bombs), a check
 * of one answer (no 5xx, under MAX_ANSWER_BYTES, the documented error body, a message in plain words),
 * and a tally per attack of requests, 5xx, slowest and largest answer, for the suite to report.
 * Times are reported, never asserted: the machine is shared.
 */
import { ERROR_STATUS } from '../../src/core/errors.ts';

/** No answer to any attack may be larger than this (the worst seen before bounding was 63 MB). */
export const MAX_ANSWER_BYTES = 64 * 1024;

export const HOSTILE: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  ' ',
  'x'.repeat(20_000),
  '\u0000',
  '💥🎬',
  '../../etc/passwd',
  "' OR 1=1 --",
  '%',
  '2026-13-45T99:99:99Z',
  '00000000-0000-0000-0000-000000000000',
  'urn:uuid:0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01',
  '{0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01}',
  'a,b',
  'a/b\\c',
  [],
  [null],
  ['a', 'a'],
  {},
  { $gt: '' },
];

/** Names found on every object's prototype: a lookup that is not own-keys-only finds a function. */
export const PROTOTYPE_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
];

export const PROTOTYPE_VALUES: unknown[] = [
  ...PROTOTYPE_NAMES,
  ...PROTOTYPE_NAMES.map((name) => [name]),
  PROTOTYPE_NAMES.join(' '),
  { constructor: 'x', toString: 'y' },
];

export const IMPOSSIBLE_DATES: unknown[] = [
  '2030-12-31T23:59:60Z',
  '2016-12-31T23:59:60Z',
  '2030-02-30',
  '2030-02-30T00:00:00Z',
  '2031-02-29',
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '10000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '2030-01-01T24:00:00Z',
  '2030-13-01',
  '2030-00-10',
  '2030-01-01T00:00:00+24:00',
  '9999-12-31T23:59:59-23:59',
  '2030-01-01t00:00:00z',
  '2030-01-01T00:00:00',
  // The edges of what is accepted, which must also be stored and read back.
  '9999-12-31T23:59:59.999Z',
  '9999-12-31',
  '1970-01-01T00:00:00Z',
];

/** Numbers JSON can carry but JavaScript cannot hold exactly, or at all, written as raw JSON text. */
export const RAW_NUMBERS = ['1e400', '-1e400', '123456789012345678901234567890', '9007199254740993', '1e-400', '-0', '4.9e-324'];

/** The same idea for transports that serialise values themselves (MCP): the largest numbers there are. */
export const BIG_NUMBERS: unknown[] = [Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 63, -(2 ** 63), 1e21, 5e-324];

/** About 1 MB of bad items: the array that answered 25 MB and held the process for seconds. */
export const HUGE_ARRAY: unknown[] = Array.from({ length: 200_000 }, () => 'x');

/** Just under the members a JSON body may hold (MAX_MEMBERS), so the validator's own bounds are reached. */
export const LONG_ARRAY: unknown[] = HUGE_ARRAY.slice(0, 900);

/** Many unknown fields in one object. */
export const HUGE_OBJECT: Record<string, unknown> = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`f${i}`, i]));

export const WIDE_OBJECT: Record<string, unknown> = Object.fromEntries(Object.entries(HUGE_OBJECT).slice(0, 900));

export function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

export function nestedObjects(depth: number): unknown {
  let value: unknown = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

/** Depth bombs as JSON text (building them as values would overflow JSON.stringify's stack). */
export function nestedArrayText(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

const JARGON =
  /must NOT|must have|\bshould\b|additionalProperties|must match (pattern|format)|must be equal to|must pass|must be [<>]=?|are identical|allowedValues|\[object Object\]|\bundefined\b|\bNaN\b/;
// A doubled full stop, not a path such as ../etc echoed back.
const DOUBLED_STOP = /\.\.(\s|$|;|\))/;

/** What is wrong with a message's wording, if anything. */
export function wordingProblems(text: string): string[] {
  const found: string[] = [];
  if (DOUBLED_STOP.test(text)) found.push('has a doubled full stop');
  const jargon = JARGON.exec(text);
  if (jargon) found.push(`uses validator jargon (${jargon[0]})`);
  return found;
}

/**
 * What is wrong with one answer: a 5xx, a size over the bound, an error without the documented
 * body or whose code does not match its status, or a message in jargon.
 */
export function answerProblems(status: number, rawSize: number, body: unknown): string[] {
  const found: string[] = [];
  if (status >= 500) found.push(`answered ${status}`);
  if (rawSize > MAX_ANSWER_BYTES) found.push(`answered ${rawSize} bytes`);
  if (status < 400) return found;
  const error = (body as { error?: { code?: string; message?: unknown; request_id?: unknown; details?: { errors?: unknown } } })?.error;
  const code = error?.code as keyof typeof ERROR_STATUS | undefined;
  if (!code || !Object.hasOwn(ERROR_STATUS, code) || ERROR_STATUS[code] !== status) {
    found.push(`has no documented error body for ${status}`);
    return found;
  }
  if (typeof error?.message !== 'string' || typeof error.request_id !== 'string') found.push('lacks message or request_id');
  else {
    if (!/^[A-Z]/.test(error.message) || !/[.]$/.test(error.message)) found.push('message is not a sentence');
    found.push(...wordingProblems(error.message));
  }
  const problems = error?.details?.errors;
  if (Array.isArray(problems)) {
    if (problems.length > 20) found.push(`lists ${problems.length} problems`);
    for (const p of problems as { problem?: unknown }[]) {
      if (typeof p.problem !== 'string') found.push('a problem without words');
      else found.push(...wordingProblems(p.problem).map((w) => `problem ${w}`));
    }
  }
  return found;
}

interface Figures {
  requests: number;
  fiveXx: number;
  slowestMs: number;
  largestBytes: number;
}

/** Requests, 5xx, slowest and largest answer per attack, for the report (never asserted on time). */
export class AttackTally {
  readonly figures = new Map<string, Figures>();

  record(attack: string, status: number, ms: number, bytes: number): void {
    const figures = this.figures.get(attack) ?? { requests: 0, fiveXx: 0, slowestMs: 0, largestBytes: 0 };
    figures.requests++;
    if (status >= 500) figures.fiveXx++;
    figures.slowestMs = Math.max(figures.slowestMs, ms);
    figures.largestBytes = Math.max(figures.largestBytes, bytes);
    this.figures.set(attack, figures);
  }

  get total(): number {
    return [...this.figures.values()].reduce((sum, f) => sum + f.requests, 0);
  }

  lines(surface: string): string[] {
    return [...this.figures].map(
      ([attack, f]) =>
        `${surface} ${attack}: ${f.requests} requests, ${f.fiveXx} 5xx, slowest ${Math.round(f.slowestMs)} ms, largest ${(f.largestBytes / 1024).toFixed(1)} KB`,
    );
  }
}
