/**
 * Writes the files of a ustar archive (the format PGlite's dumpDataDir produces) into a directory.
 * Only what such a dump holds is accepted: regular files and directories with relative names that
 * stay inside the directory. Anything else is refused rather than guessed at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';

const BLOCK = 512;

export interface TarEntry {
  /** Relative to the archive's root, with `/` separators and no leading slash. */
  name: string;
  type: 'file' | 'directory';
  mode: number;
  data: Uint8Array;
}

export function* readTar(archive: Uint8Array): Generator<TarEntry> {
  let offset = 0;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) return; // the end-of-archive marker
    if (text(header, 257, 5) !== 'ustar') throw new Error(`not a ustar archive (entry at byte ${offset})`);
    const prefix = text(header, 345, 155);
    const rawName = `${prefix ? `${prefix}/` : ''}${text(header, 0, 100)}`;
    const size = octal(header, 124, 12);
    const mode = octal(header, 100, 8);
    const flag = String.fromCharCode(header[156] ?? 0);
    const start = offset + BLOCK;
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
    if (offset > archive.length) throw new Error(`truncated archive: ${rawName} runs past its end`);
    const name = rawName.replace(/^\/+/, '').replace(/\/+$/, '');
    if (name === '' || name === '.') continue;
    if (name.split('/').includes('..')) throw new Error(`archive entry outside its root: ${rawName}`);
    if (flag === '0' || flag === '\0') yield { name, type: 'file', mode, data: archive.subarray(start, start + size) };
    else if (flag === '5') yield { name, type: 'directory', mode, data: archive.subarray(start, start) };
    else throw new Error(`unsupported archive entry type '${flag}' for ${rawName}`);
  }
}

/** Extracts every entry for which `keep(name)` holds (default: all) into `dir`, creating it. */
export function extractTar(archive: Uint8Array, dir: string, keep: (name: string) => boolean = () => true): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const root = normalize(dir) + sep;
  // Each directory is made once: a data directory is about 1,300 files in 27 directories, and a
  // mkdir per file was a tenth of the first start's extraction.
  const made = new Set<string>([normalize(dir)]);
  const makeDir = (path: string) => {
    if (made.has(path)) return;
    mkdirSync(path, { recursive: true, mode: 0o700 });
    made.add(path);
  };
  for (const entry of readTar(archive)) {
    if (!keep(entry.name)) continue;
    const target = normalize(join(dir, entry.name));
    if (!target.startsWith(root)) throw new Error(`archive entry outside its root: ${entry.name}`);
    if (entry.type === 'directory') makeDir(target);
    else {
      makeDir(dirname(target));
      writeFileSync(target, entry.data, { mode: entry.mode & 0o777 || 0o600 });
    }
  }
}

function text(block: Uint8Array, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return Buffer.from(end === -1 ? field : field.subarray(0, end)).toString('utf8');
}

function octal(block: Uint8Array, start: number, length: number): number {
  const value = text(block, start, length).trim();
  if (value === '') return 0;
  if (!/^[0-7]+$/.test(value)) throw new Error(`bad number in archive header: ${JSON.stringify(value)}`);
  return Number.parseInt(value, 8);
}
