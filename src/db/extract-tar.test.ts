/**
 * extractTar writes a ustar archive's files and directories, and refuses what a PGlite dump never
 * holds: names that climb out of the directory, links and other entry types, truncated archives.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { extractTar, readTar } from './extract-tar.ts';

/** One ustar header (and its data, padded to whole blocks), as tar writes it. */
function entry(name: string, type: '0' | '5' | '2', data = ''): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'utf8');
  header.write(type === '5' ? '0000750\0' : '0000600\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${Buffer.byteLength(data).toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write(type, 156);
  header.write('ustar\0' + '00', 257);
  header.fill(' ', 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const body = Buffer.alloc(Math.ceil(Buffer.byteLength(data) / 512) * 512);
  body.write(data);
  return Buffer.concat([header, body]);
}

const archive = (...entries: Buffer[]) => new Uint8Array(Buffer.concat([...entries, Buffer.alloc(1024)]));

test('files and directories land where their names say, with their modes; the filter skips entries', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cuepoint-tar-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const tar = archive(
    entry('/base', '5'),
    entry('/base/5/1255', '0', 'catalog pages'),
    entry('/PG_VERSION', '0', '17\n'),
    entry('/postmaster.pid', '0', '42'),
  );
  assert.deepEqual(
    [...readTar(tar)].map((e) => [e.name, e.type, e.data.length]),
    [
      ['base', 'directory', 0],
      ['base/5/1255', 'file', 13],
      ['PG_VERSION', 'file', 3],
      ['postmaster.pid', 'file', 2],
    ],
  );
  const target = join(dir, 'pgdata');
  extractTar(tar, target, (name) => name !== 'postmaster.pid');
  assert.equal(readFileSync(join(target, 'base', '5', '1255'), 'utf8'), 'catalog pages');
  assert.equal(readFileSync(join(target, 'PG_VERSION'), 'utf8'), '17\n');
  assert.equal(statSync(join(target, 'PG_VERSION')).mode & 0o777, 0o600);
  assert.equal(existsSync(join(target, 'postmaster.pid')), false);
});

test('names outside the directory, other entry types and truncated archives are refused', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cuepoint-tar-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  assert.throws(() => extractTar(archive(entry('../escape', '0', 'x')), join(dir, 'a')), /outside its root/);
  assert.throws(() => extractTar(archive(entry('/base/../../escape', '0', 'x')), join(dir, 'b')), /outside its root/);
  assert.equal(existsSync(join(dir, 'escape')), false);
  assert.throws(() => extractTar(archive(entry('/link', '2')), join(dir, 'c')), /unsupported archive entry type '2'/);
  const whole = archive(entry('/big', '0', 'y'.repeat(2000)));
  assert.throws(() => extractTar(whole.subarray(0, 1024), join(dir, 'd')), /truncated archive/);
  assert.throws(() => extractTar(new Uint8Array(Buffer.alloc(512, 1)), join(dir, 'e')), /not a ustar archive/);
});
