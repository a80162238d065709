/**
 * Writes one object from a stream at flat memory. The body is copied into part buffers from a small
 * pool (`queueSize` parts in flight and one filling, allocated once per upload and reused), sent as
 * one PUT when it fits in a part and as a multipart upload otherwise. lib-storage's Upload does the
 * same with a fresh 5 MiB buffer per part: a gigabyte made 200 large garbage buffers, and the heap's
 * sawtooth moved the server's memory by tens of MiB between collections (the upload benchmark on
 * S3 failed its "flat" rule in two runs of three). A body that breaks its size rule stops the upload
 * before its last part, which is then aborted, so nothing appears; S3 never replaces an object with a
 * PUT or multipart upload that did not complete, so an earlier object stays as it was. A failed
 * write destroys its body.
 */
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
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
  const partBytes = Math.max(shape.partBytes, Math.ceil(limit / MAX_PARTS));
  const { Bucket, Key } = { Bucket: target.bucket, Key: target.key };
  // Calls to the store are told apart from the body's own failure (the sender went away).
  let storeError: unknown;
  const toStore = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      storeError ??= error;
      throw error;
    }
  };

  const free: Buffer[] = [];
  let allocated = 0;
  const inFlight = new Set<Promise<void>>();
  const parts: { PartNumber: number; ETag: string | undefined }[] = [];
  let uploadId: string | undefined;
  const nextBuffer = async (): Promise<Buffer> => {
    // A failed part keeps its buffer, so check the failure before waiting for one to come back.
    while (storeError === undefined && free.length === 0 && allocated > shape.queueSize) await Promise.race(inFlight);
    if (storeError !== undefined) throw storeError;
    const reused = free.pop();
    if (reused) return reused;
    allocated++;
    return Buffer.allocUnsafe(partBytes);
  };
  const sendPart = async (buffer: Buffer, length: number) => {
    uploadId ??= (await toStore(() => client.send(new CreateMultipartUploadCommand({ Bucket, Key })))).UploadId;
    const PartNumber = parts.length + 1;
    const part = { PartNumber, ETag: undefined as string | undefined };
    parts.push(part);
    const UploadId = uploadId;
    const sending = toStore(() =>
      client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: buffer.subarray(0, length) })),
    )
      .then((answer) => {
        part.ETag = answer.ETag;
        free.push(buffer);
      })
      .catch(() => undefined) // recorded in storeError; the loop stops at its next buffer
      .finally(() => inFlight.delete(sending));
    inFlight.add(sending);
  };

  let received = 0;
  try {
    let buffer = await nextBuffer();
    let filled = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > limit) throw new UploadSizeError(size, received);
      for (let offset = 0; offset < chunk.length; ) {
        const copied = chunk.copy(buffer, filled, offset);
        filled += copied;
        offset += copied;
        if (filled === partBytes) {
          await sendPart(buffer, filled);
          buffer = await nextBuffer();
          filled = 0;
        }
      }
    }
    if ('exactly' in size && received !== size.exactly) throw new UploadSizeError(size, received);
    if (uploadId === undefined) {
      await toStore(() => client.send(new PutObjectCommand({ Bucket, Key, Body: buffer.subarray(0, filled), ContentLength: filled })));
      return received;
    }
    if (filled > 0) await sendPart(buffer, filled);
    await Promise.all(inFlight);
    if (storeError !== undefined) throw storeError;
    await toStore(() =>
      client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } })),
    );
    return received;
  } catch (error) {
    // Nothing more is read: whatever went wrong, the rest of the body would go nowhere.
    body.destroy();
    await Promise.allSettled(inFlight);
    if (uploadId !== undefined) {
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId })).catch(() => undefined);
    }
    // The sender's fault first: a wrong size or a body cut off is not the store's failure.
    if (error instanceof UploadSizeError) throw error;
    throw storeError !== undefined ? storeFailure(storeError) : error;
  }
}
