/**
 * The strict Range reading on its own: every form RFC 9110 allows, and the loose ones it does not
 * (each of which means "the whole file"), against a 1,000-byte file.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveByteRange } from './byte-range.ts';

const SIZE = 1000;
const part = (start: number, end: number) => ({ kind: 'part', start, end });
const whole = { kind: 'whole' };
const unsatisfiable = { kind: 'unsatisfiable' };

test('ranges the RFC defines resolve against the size, ends clamped, over-long suffixes the whole file', () => {
  const cases: [string, object][] = [
    ['bytes=0-0', part(0, 0)],
    ['bytes=100-199', part(100, 199)],
    ['bytes=990-', part(990, 999)],
    ['bytes=0-999', part(0, 999)],
    ['bytes=500-5000', part(500, 999)],
    ['bytes=0-99999999999999999999999999', part(0, 999)],
    ['bytes=-10', part(990, 999)],
    ['bytes=-1000', part(0, 999)],
    ['bytes=-99999999', part(0, 999)],
    ['bytes=-99999999999999999999999999', part(0, 999)],
    ['bytes=007-010', part(7, 10)],
    ['Bytes=0-4', part(0, 4)],
    ['BYTES=-5', part(995, 999)],
    // Empty list elements are allowed around the one range.
    ['bytes=0-4,', part(0, 4)],
    ['bytes=, 0-4', part(0, 4)],
  ];
  for (const [header, expected] of cases) assert.deepEqual(resolveByteRange(header, SIZE), expected, header);
});

test('a range that misses the file is unsatisfiable', () => {
  for (const header of ['bytes=1000-', 'bytes=1000-1000', 'bytes=5000-6000', 'bytes=99999999999999999999999-', 'bytes=-0']) {
    assert.deepEqual(resolveByteRange(header, SIZE), unsatisfiable, header);
  }
  assert.deepEqual(resolveByteRange('bytes=-5', 0), unsatisfiable, 'nothing of an empty file');
  assert.deepEqual(resolveByteRange('bytes=0-', 0), unsatisfiable, 'nothing of an empty file');
});

test('loose forms, other units and several ranges mean the whole file', () => {
  const headers = [
    'bytes=-1-5',
    'bytes=5--1',
    'bytes=--5',
    'bytes=0.5-1.5',
    'bytes=1e3-',
    'bytes=0x10-0x20',
    'bytes=+5-10',
    'bytes=-',
    'bytes=',
    'bytes',
    '0-5',
    'bytes= 0-5',
    'bytes =0-5',
    'bytes=0 -5',
    'bytes=0- 5',
    'bytes=0-5 x',
    'bytes=0-5;q=1',
    'bytes=\t0-5',
    'bytes=5-1',
    'bytes=０-５',
    'items=0-5',
    'bytes=0-1,5-6',
    'bytes=0-1, 3-4',
    'bytes=0-1,\t-5',
    'bytes=0-1, bytes=3-4',
    'bytes=0-0,0-0,0-0',
  ];
  for (const header of headers) assert.deepEqual(resolveByteRange(header, SIZE), whole, header);
  assert.deepEqual(resolveByteRange(undefined, SIZE), whole);
});
