/**
 * What every media store must do, the same for each (local-media-store.test.ts runs it on the local
 * disk, the S3 store's test on an S3-compatible server): writes that appear whole or not at all and
 * keep their size rule, stat with strong validators, reads of a whole file or a span, a local copy for
 * ffmpeg, removal of one file, a rendition or a video, and keys refused unless made of ids.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { type TestContext, test } from 'node:test';
import { type MediaKey, type MediaStore, UploadSizeError } from '../../src/storage/media-store.ts';

export function mediaStoreContract(name: string, makeStore: (t: TestContext) => Promise<MediaStore>): void {
  const video = () => ({ workspaceId: randomUUID(), videoId: randomUUID() });
  const bytes = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + 3) % 256));
  const read = async (store: MediaStore, key: MediaKey, span?: { start: number; end: number }) => {
    const stream = await store.read(key, span);
    return stream ? buffer(stream) : undefined;
  };

  test(`${name}: a written file reads back whole, in spans, and from a local copy; stat has strong validators`, async (t) => {
    const store = await makeStore(t);
    const key: MediaKey = { ...video(), file: 'source' };
    const file = bytes(300_000);
    assert.equal(
      await store.write(key, Readable.from([file.subarray(0, 100_000), file.subarray(100_000)]), { exactly: file.length }),
      file.length,
    );
    const stored = await store.stat(key);
    assert.ok(stored);
    assert.equal(stored.size, file.length);
    assert.match(stored.etag, /^"[^"]+"$/, 'a strong, quoted ETag');
    assert.ok(Math.abs(stored.lastModified.getTime() - Date.now()) < 60_000);
    assert.ok((await read(store, key))?.equals(file));
    assert.ok((await read(store, key, { start: 0, end: 0 }))?.equals(file.subarray(0, 1)));
    assert.ok((await read(store, key, { start: 123_456, end: 299_999 }))?.equals(file.subarray(123_456)));
    assert.ok(await store.withLocalFile(key, async (path) => (await readFile(path)).equals(file)));

    const hls: MediaKey = { ...key, file: `hls/${randomUUID()}/seg-00001.ts` };
    await store.write(hls, Readable.from([Buffer.from('segment')]), { atMost: 100 });
    assert.equal((await read(store, hls))?.toString(), 'segment');
  });

  test(`${name}: a missing file is undefined, for stat and read alike`, async (t) => {
    const store = await makeStore(t);
    const key: MediaKey = { ...video(), file: 'poster.jpg' };
    assert.equal(await store.stat(key), undefined);
    assert.equal(await store.read(key), undefined);
    await store.remove(key); // removing what is not there is not an error
  });

  test(`${name}: a body that breaks its size rule leaves nothing, and an earlier file stays as it was`, async (t) => {
    const store = await makeStore(t);
    const key: MediaKey = { ...video(), file: 'source' };
    await assert.rejects(store.write(key, Readable.from([bytes(10)]), { exactly: 11 }), UploadSizeError);
    await assert.rejects(store.write(key, Readable.from([bytes(12)]), { exactly: 11 }), UploadSizeError);
    await assert.rejects(store.write(key, Readable.from([bytes(5), bytes(5)]), { atMost: 9 }), UploadSizeError);
    assert.equal(await store.stat(key), undefined);

    await store.write(key, Readable.from([bytes(8)]), { atMost: 9 });
    const failing = new Readable({
      read() {
        this.push(bytes(4));
        this.destroy(new Error('the client went away'));
      },
    });
    await assert.rejects(store.write(key, failing, { exactly: 8 }));
    assert.ok((await read(store, key))?.equals(bytes(8)), 'a failed write over a file leaves the old file');
  });

  test(`${name}: removing a file, a rendition's files, or all of a video's files`, async (t) => {
    const store = await makeStore(t);
    const ids = video();
    const [kept, dropped] = [randomUUID(), randomUUID()];
    const files: MediaKey['file'][] = [
      'source',
      'poster.jpg',
      `hls/${kept}/index.m3u8`,
      `hls/${dropped}/index.m3u8`,
      `hls/${dropped}/seg-00000.ts`,
    ];
    for (const file of files) await store.write({ ...ids, file }, Readable.from([Buffer.from(file)]), { atMost: 100 });
    const other = video();
    await store.write({ ...other, file: 'source' }, Readable.from([Buffer.from('other')]), { atMost: 100 });

    await store.remove({ ...ids, file: 'poster.jpg' });
    await store.removeRendition(ids, dropped);
    const left = [];
    for (const file of files) if (await store.stat({ ...ids, file })) left.push(file);
    assert.deepEqual(left, ['source', `hls/${kept}/index.m3u8`]);

    await store.removeVideo(ids);
    for (const file of files) assert.equal(await store.stat({ ...ids, file }), undefined);
    assert.ok(await store.stat({ ...other, file: 'source' }), "another video's files stay");
  });

  test(`${name}: keys are made of ids and known file names only`, async (t) => {
    const store = await makeStore(t);
    const ids = video();
    const bad: MediaKey[] = [
      { ...ids, workspaceId: '../x', file: 'source' },
      { ...ids, videoId: 'not-an-id', file: 'source' },
      { ...ids, file: 'hls/../../x' as MediaKey['file'] },
      { ...ids, file: `hls/${randomUUID()}/../source` as MediaKey['file'] },
      { ...ids, file: 'other.jpg' as MediaKey['file'] },
    ];
    for (const key of bad) await assert.rejects(store.stat(key), /ids and known file names/, JSON.stringify(key));
  });
}
