import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DataDirInUseError, lockDataDir } from './data-dir-lock.ts';

const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cuepoint-lock-'));
  const pgdata = join(dir, 'pgdata');
  mkdirSync(pgdata);
  return { dir, pgdata, lock: join(dir, 'cuepoint.lock') };
};

test('a held data dir refuses a second opener, even in the same process', () => {
  const { dir, pgdata, lock } = fresh();
  const held = lockDataDir(dir, pgdata);
  assert.match(readFileSync(lock, 'utf8'), new RegExp(`^${process.pid}( \\d+)?$`));
  assert.throws(() => lockDataDir(dir, pgdata), DataDirInUseError);
  held.release();
  assert.equal(existsSync(lock), false);
  lockDataDir(dir, pgdata).release();
});

test('a lock held by another live process is respected', async (t) => {
  const { dir, pgdata, lock } = fresh();
  const other = spawn('sleep', ['30']);
  t.after(() => other.kill('SIGKILL'));
  await new Promise((resolve) => other.once('spawn', resolve));
  writeFileSync(lock, String(other.pid));
  assert.throws(
    () => lockDataDir(dir, pgdata),
    (error: Error) => error instanceof DataDirInUseError && error.message.includes(String(other.pid)),
  );
});

test('stale locks — a dead PID, or a reused PID with another start time — are cleared with postmaster.pid', () => {
  for (const content of ['999999999', `${process.pid} 1`]) {
    const { dir, pgdata, lock } = fresh();
    writeFileSync(lock, content);
    writeFileSync(join(pgdata, 'postmaster.pid'), '-42');
    const held = lockDataDir(dir, pgdata);
    assert.equal(existsSync(join(pgdata, 'postmaster.pid')), false, content);
    assert.notEqual(readFileSync(lock, 'utf8'), content);
    held.release();
  }
});

test('a process that exits without releasing (a forced stop) drops its lock and postmaster.pid on the way out', async () => {
  const { dir, pgdata, lock } = fresh();
  const module = new URL('./data-dir-lock.ts', import.meta.url).href;
  const script = `
    import { writeFileSync } from 'node:fs';
    import { lockDataDir } from ${JSON.stringify(module)};
    lockDataDir(${JSON.stringify(dir)}, ${JSON.stringify(pgdata)});
    writeFileSync(${JSON.stringify(join(pgdata, 'postmaster.pid'))}, String(process.pid));
    process.stdout.write('held');
    process.exit(1);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const code = await new Promise((resolve) => child.once('close', resolve));
  assert.deepEqual([code, out], [1, 'held']);
  assert.equal(existsSync(lock), false);
  assert.equal(existsSync(join(pgdata, 'postmaster.pid')), false);
  lockDataDir(dir, pgdata).release();
});
