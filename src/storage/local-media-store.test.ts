import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { mediaStoreContract } from '../../test/helpers/media-store-contract.ts';
import { createLocalMediaStore } from './local-media-store.ts';

mediaStoreContract('local disk', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'cuepoint-media-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return createLocalMediaStore(root);
});

test('files of writes cut short by a killed process are removed once untouched long enough; others stay', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'cuepoint-media-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const store = createLocalMediaStore(root);
  const dir = join(root, randomUUID(), randomUUID());
  mkdirSync(dir, { recursive: true });
  const abandoned = join(dir, `source.${randomUUID()}.part`);
  const inProgress = join(dir, `source.${randomUUID()}.part`);
  const finished = join(dir, 'source');
  for (const path of [abandoned, inProgress, finished]) writeFileSync(path, 'bytes');
  const longAgo = new Date(Date.now() - 7 * 60 * 60 * 1000);
  utimesSync(abandoned, longAgo, longAgo);
  utimesSync(finished, longAgo, longAgo);

  assert.equal(await store.removeAbandonedWrites(new Date(Date.now() - 6 * 60 * 60 * 1000)), 1);
  assert.deepEqual([existsSync(abandoned), existsSync(inProgress), existsSync(finished)], [false, true, true]);
  assert.equal(await createLocalMediaStore(join(root, 'missing')).removeAbandonedWrites(new Date()), 0, 'no media yet is not an error');
});
