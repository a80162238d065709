/**
 * Writes one object from a stream at flat memory: the body passes through a byte-counting Transform
 * into lib-storage's Upload, which sends it as one PUT when it fits in a part and as a multipart
 * upload otherwise, holding at most `queueSize` parts in flight and one filling. A body that breaks
 * its size rule errors the Transform (too long as soon as it is, too short at its end, in flush)
 * before the last part is sent, so the upload is aborted and nothing appears; S3 never replaces an
 * object with a PUT or multipart upload that did not complete, so an earlier object stays as it was.
 */
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { type SizeRule, UploadSizeError } from './media-store.ts';
import { storeFailure } from './s3-errors.ts';

/** S3 allows at most this many parts in one upload. */
const MAX_PARTS = 10_000;

export interface UploadShape {
  /** Bytes per part (S3's minimum is 5 MiB); raised when the size rule allows more than MAX_PARTS of them. */
  partBytes: number;
  /** Parts sent at once. */
  queueSize: number;
}

export async function uploadObject(
  client: S3Client,
  target: { bucket: string; key: string },
  body: Readable,
  size: SizeRule,
  shape: UploadShape,
): Promise<number> {
  const limit = 'exactly' in size ? size.exactly : size.atMost;
  let received = 0;
  let sizeError: UploadSizeError | undefined;
  let bodyError: Error | undefined;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > limit) sizeError = new UploadSizeError(size, received);
      callback(sizeError ?? null, chunk);
    },
    flush(callback) {
      if ('exactly' in size && received !== size.exactly) sizeError = new UploadSizeError(size, received);
      callback(sizeError ?? null);
    },
  });
  // The body's own failure (the sender went away) is told apart from the store's below.
  const onBodyError = (error: Error) => {
    bodyError = error;
    counter.destroy(error);
  };
  body.once('error', onBodyError);
  body.pipe(counter);
  const upload = new Upload({
    client,
    params: { Bucket: target.bucket, Key: target.key, Body: counter },
    partSize: Math.max(shape.partBytes, Math.ceil(limit / MAX_PARTS)),
    queueSize: shape.queueSize,
    leavePartsOnError: false,
  });
  try {
    await upload.done();
    return received;
  } catch (error) {
    // Nothing more is read: whatever went wrong, the rest of the body would go nowhere.
    body.unpipe(counter);
    body.destroy();
    counter.destroy();
    // The sender's fault first: a wrong size or a body cut off is not the store's failure, whatever
    // the aborted upload reported after it.
    throw sizeError ?? bodyError ?? storeFailure(error);
  } finally {
    body.off('error', onBodyError);
  }
}
