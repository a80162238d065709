/**
 * The S3 media store against a real S3-protocol server (s3rver, test/helpers/s3-server.ts): the
 * contract every store keeps, then what is S3's own: multipart uploads read back byte-exact (and
 * aborted when their body breaks its size rule), ranged reads across parts, presigned URLs that work,
 * refuse tampering and expire, abandoned multipart uploads aborted (ours only), and a store that is
 * down, hung, throttling or refusing access failing fast with the right error.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { test } from 'node:test';
import { CreateMultipartUploadCommand, HeadObjectCommand, ListMultipartUploadsCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { mediaStoreContract } from '../../test/helpers/media-store-contract.ts';
import { startS3Server } from '../../test/helpers/s3-server.ts';
import { type MediaKey, type MediaStore, MediaStoreUnavailableError, UploadSizeError } from './media-store.ts';
import { createS3Clients, DEFAULT_S3_TIMEOUTS, type S3Settings } from './s3-clients.ts';
import { createS3MediaStore } from './s3-media-store.ts';

mediaStoreContract('S3', async (t) => createS3MediaStore((await startS3Server(t)).settings));

const MIB = 1024 * 1024;
const PARTS = { partBytes: 5 * MIB, queueSize: 2 };
const source = (): MediaKey => ({ workspaceId: randomUUID(), videoId: randomUUID(), file: 'source' });
/** A patterned body; filled in place, since a 12 MiB array of numbers first would take a second and a half. */
const bytes = (size: number) => {
  const body = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) body[i] = (i * 31 + 7) % 251;
  return body;
};
/** A body sent in 64 KiB chunks, as a socket delivers it. */
const chunked = (body: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < body.length; at += 64 * 1024) yield body.subarray(at, at + 64 * 1024);
    })(),
  );
const readAll = async (store: MediaStore, key: MediaKey, span?: { start: number; end: number }) => {
  const stream = await store.read(key, span);
  return stream ? buffer(stream) : undefined;
};
const isOutage = (error: unknown) => error instanceof MediaStoreUnavailableError;

test('a body over the part size goes up in parts and reads back byte-exact, whole and across a part boundary', async (t) => {
  const server = await startS3Server(t);
  const store = createS3MediaStore(server.settings, { upload: PARTS });
  const key = source();
  const file = bytes(12 * MIB);
  assert.equal(await store.write(key, chunked(file), { exactly: file.length }), file.length);

  const parts = server.requests.filter((r) => r.method === 'PUT' && r.query.has('partNumber'));
  assert.deepEqual(parts.map((r) => r.query.get('partNumber')).sort(), ['1', '2', '3'], 'three parts: 5 + 5 + 2 MiB');
  assert.ok(
    server.requests.some((r) => r.method === 'POST' && r.query.has('uploadId')),
    'the multipart upload was completed',
  );
  assert.equal((await store.stat(key))?.size, file.length);
  assert.ok((await readAll(store, key))?.equals(file));
  const span = { start: 5 * MIB - 10, end: 5 * MIB + 9 };
  assert.ok((await readAll(store, key, span))?.equals(file.subarray(span.start, span.end + 1)));
  assert.equal(server.requests.at(-1)?.range, `bytes=${span.start}-${span.end}`, 'the store asked S3 for the span only');
});

test('a multipart body that breaks its size rule is aborted: no object, no parts left behind, an earlier file kept', async (t) => {
  const server = await startS3Server(t);
  const store = createS3MediaStore(server.settings, { upload: PARTS });
  const key = source();
  await store.write(key, Readable.from([Buffer.from('the earlier file')]), { atMost: 100 });

  // Two whole parts go up before the body ends short; the flush check fails the last one.
  await assert.rejects(store.write(key, chunked(bytes(12 * MIB)), { exactly: 12 * MIB + 1 }), UploadSizeError);
  // Too long: refused as soon as it is, mid-part.
  await assert.rejects(store.write(key, chunked(bytes(12 * MIB)), { atMost: 11 * MIB }), UploadSizeError);
  assert.ok(
    server.requests.some((r) => r.method === 'DELETE' && r.query.has('uploadId')),
    'the multipart upload was aborted',
  );
  assert.equal((await readAll(store, key))?.toString(), 'the earlier file');
  assert.equal(await store.removeAbandonedWrites(new Date(Date.now() + 60_000)), 0, 'no unfinished upload is left to clean up');
});

test('keys carry the configured prefix, and removing a video removes every object under it', async (t) => {
  const server = await startS3Server(t);
  const settings: S3Settings = { ...server.settings, prefix: 'cuepoint/media/' };
  const store = createS3MediaStore(settings);
  const key = source();
  await store.write(key, Readable.from([Buffer.from('x')]), { exactly: 1 });
  const { transfer } = createS3Clients(settings, DEFAULT_S3_TIMEOUTS);
  const head = await transfer.send(
    new HeadObjectCommand({ Bucket: settings.bucket, Key: `cuepoint/media/${key.workspaceId}/${key.videoId}/source` }),
  );
  assert.equal(head.ContentLength, 1);

  const rendition = randomUUID();
  const files: MediaKey['file'][] = [
    'poster.jpg',
    `hls/${rendition}/index.m3u8`,
    `hls/${rendition}/seg-00000.ts`,
    `hls/${rendition}/seg-00001.ts`,
  ];
  for (const file of files) await store.write({ ...key, file }, Readable.from([Buffer.from(file)]), { atMost: 100 });
  await store.removeVideo(key);
  for (const file of ['source' as const, ...files]) assert.equal(await store.stat({ ...key, file }), undefined, file);
});

test('a presigned URL serves the file (Range too) with the type asked for; altered, it is refused; expired, too', async (t) => {
  const server = await startS3Server(t);
  const store = createS3MediaStore(server.settings);
  const key = source();
  const file = bytes(1000);
  await store.write(key, Readable.from([file]), { exactly: file.length });

  const url = await store.presignedUrl(key, 60, { contentType: 'video/mp4' });
  assert.ok(url);
  assert.match(url, /X-Amz-Expires=60&/);
  const whole = await fetch(url);
  assert.equal(whole.status, 200);
  assert.equal(whole.headers.get('content-type'), 'video/mp4');
  assert.ok(Buffer.from(await whole.arrayBuffer()).equals(file));
  const part = await fetch(url, { headers: { range: 'bytes=100-199' } });
  assert.equal(part.status, 206);
  assert.ok(Buffer.from(await part.arrayBuffer()).equals(file.subarray(100, 200)));

  // The signature covers the lifetime and the key: neither can be changed.
  const longer = url.replace('X-Amz-Expires=60', 'X-Amz-Expires=3600');
  const otherVideo = url.replace(key.videoId, randomUUID());
  for (const altered of [longer, otherVideo]) {
    const refused = await fetch(altered);
    assert.equal(refused.status, 403, altered);
    assert.match(await refused.text(), /SignatureDoesNotMatch/);
  }

  // Signed two minutes ago for one minute: s3rver checks X-Amz-Date + X-Amz-Expires against its clock.
  const signedEarlier = createS3MediaStore(server.settings, { clock: () => new Date(Date.now() - 120_000) });
  const expired = await fetch((await signedEarlier.presignedUrl(key, 60)) as string);
  assert.equal(expired.status, 403);
  assert.match(await expired.text(), /Request has expired/);
});

test('abandoned multipart uploads are aborted once older than the cut-off; uploads of other software stay', async (t) => {
  const server = await startS3Server(t);
  const store = createS3MediaStore(server.settings);
  const { transfer } = createS3Clients(server.settings, DEFAULT_S3_TIMEOUTS);
  const Bucket = server.settings.bucket;
  const begin = async (Key: string) => {
    const { UploadId } = await transfer.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    await transfer.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 1, Body: bytes(1000) }));
  };
  // Three of ours (two pages of the listing) and one that is not a media key.
  const ours = [source(), source(), { ...source(), file: 'poster.jpg' as const }];
  for (const key of ours) await begin(`${key.workspaceId}/${key.videoId}/${key.file}`);
  await begin('backups/2026-11-18.tar');

  assert.equal(await store.removeAbandonedWrites(new Date(Date.now() - 60_000)), 0, 'started after the cut-off: in progress, kept');
  assert.equal(await store.removeAbandonedWrites(new Date(Date.now() + 60_000)), 3);
  const left = await transfer.send(new ListMultipartUploadsCommand({ Bucket }));
  assert.deepEqual(
    left.Uploads?.map((u) => u.Key),
    ['backups/2026-11-18.tar'],
  );
});

test('a store that is down fails every call with MediaStoreUnavailableError, and works again once it is back', async (t) => {
  const server = await startS3Server(t);
  const store = createS3MediaStore(server.settings);
  const key = source();
  await store.write(key, Readable.from([Buffer.from('kept')]), { exactly: 4 });

  await server.stop();
  await assert.rejects(store.stat(key), isOutage);
  await assert.rejects(store.read(key), isOutage);
  await assert.rejects(
    store.withLocalFile(key, async () => 'never used'),
    isOutage,
  );
  await assert.rejects(store.write(source(), Readable.from([Buffer.from('lost')]), { exactly: 4 }), isOutage);
  await assert.rejects(store.remove(key), isOutage);
  await assert.rejects(store.removeVideo(key), isOutage);
  await assert.rejects(store.removeAbandonedWrites(new Date()), isOutage);
  const refused = await store.stat(key).catch((error: Error) => error.cause);
  assert.match(String((refused as { code?: string }).code), /ECONNREFUSED|ECONNRESET/, 'the cause is kept for the log');

  await server.start();
  assert.equal((await readAll(store, key))?.toString(), 'kept');
});

test('a store that goes down in the middle of a multipart upload: an outage, no hang, and the body is let go', async (t) => {
  const server = await startS3Server(t);
  const store = createS3MediaStore(server.settings, { upload: PARTS });
  const file = bytes(16 * MIB);
  async function* stopsHalfway() {
    yield file.subarray(0, 6 * MIB); // the first part goes up
    await server.stop();
    for (let at = 6 * MIB; at < file.length; at += MIB) yield file.subarray(at, at + MIB);
  }
  const body = Readable.from(stopsHalfway());
  await assert.rejects(store.write(source(), body, { exactly: file.length }), isOutage);
  assert.ok(body.destroyed, 'nothing more is read from the sender');
});

test('a store that accepts connections and never answers is given up on within the timeouts', async (t) => {
  const sockets: Socket[] = [];
  const hung = createTcpServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const socket of sockets) socket.destroy();
    hung.close();
  });
  const store = createS3MediaStore(storeAt(hung.address() as AddressInfo), {
    timeouts: { connectMs: 200, quickResponseMs: 300, quickAttempts: 1, transferResponseMs: 300, transferIdleMs: 300 },
  });
  const stat = await store.stat(source()).catch((error: unknown) => error);
  assert.ok(isOutage(stat));
  assert.equal(((stat as Error).cause as Error).name, 'TimeoutError');
  await assert.rejects(store.write(source(), Readable.from([Buffer.from('x')]), { exactly: 1 }), isOutage);
});

test('throttling and server errors are outages; a refusal such as AccessDenied is an error to log, not a 503', async (t) => {
  let answer = { status: 503, code: 'SlowDown' };
  const server = createHttpServer((request, response) => {
    request.resume();
    response
      .writeHead(answer.status, { 'content-type': 'application/xml' })
      .end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${answer.code}</Code><Message>no</Message></Error>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const store = createS3MediaStore(storeAt(server.address() as AddressInfo), { timeouts: { quickAttempts: 1 } });
  for (const outage of [
    { status: 503, code: 'SlowDown' },
    { status: 500, code: 'InternalError' },
    { status: 429, code: 'TooManyRequests' },
  ]) {
    answer = outage;
    await assert.rejects(store.read(source()), isOutage, outage.code);
  }
  answer = { status: 403, code: 'AccessDenied' };
  await assert.rejects(store.read(source()), (error: Error) => error.name === 'AccessDenied' && !isOutage(error));
});

function storeAt(address: AddressInfo): S3Settings {
  return {
    bucket: 'media',
    endpoint: `http://127.0.0.1:${address.port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    forcePathStyle: true,
    prefix: '',
  };
}
