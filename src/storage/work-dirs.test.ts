import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeWorkDir, removeAbandonedWorkDirs } from './work-dirs.ts';

test('scratch folders left untouched are removed; one still written to, and anything not ours, stay', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'cuepoint-work-dirs-test-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const longAgo = new Date(Date.now() - 7 * 60 * 60 * 1000);
  const age = (path: string) => utimesSync(path, longAgo, longAgo);

  const abandoned = await makeWorkDir('rendition', root);
  writeFileSync(join(abandoned, 'seg-00000.ts'), 'bytes');
  age(join(abandoned, 'seg-00000.ts'));
  age(abandoned);
  // An old folder whose file is still growing (a download): the file's time counts.
  const growing = await makeWorkDir('download', root);
  writeFileSync(join(growing, 'source'), 'more bytes');
  age(growing);
  const fresh = await makeWorkDir('speech', root);
  const notOurs = join(root, 'someone-else');
  mkdirSync(notOurs);
  age(notOurs);

  assert.equal(await removeAbandonedWorkDirs(new Date(Date.now() - 6 * 60 * 60 * 1000), root), 1);
  assert.deepEqual([abandoned, growing, fresh, notOurs].map(existsSync), [false, true, true, true]);
  assert.equal(await removeAbandonedWorkDirs(new Date(), join(root, 'missing')), 0, 'no folder is not an error');
});
