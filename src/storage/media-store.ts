/**
 * Where media files live: behind this small interface so an S3-compatible store can replace the
 * local disk. Keys are built only from ids the database issued (a workspace, a video, a fixed file
 * name), never from anything a user typed, so no request can reach outside the store.
 */
import type { Readable } from 'node:stream';

export const MEDIA_FILES = ['source', 'poster.jpg'] as const;
export type MediaFile = (typeof MEDIA_FILES)[number];

export interface MediaKey {
  workspaceId: string;
  videoId: string;
  file: MediaFile;
}

export class UploadSizeError extends Error {
  readonly received: number;
  constructor(expected: number, received: number) {
    super(
      received > expected
        ? `The file is larger than the declared ${expected} bytes.`
        : `The upload ended after ${received} of the declared ${expected} bytes.`,
    );
    this.name = 'UploadSizeError';
    this.received = received;
  }
}

export interface MediaStore {
  /**
   * Streams `body` into the store without holding it in memory. It must be exactly `expectedBytes`
   * long; anything else throws UploadSizeError and leaves nothing behind. A file appears whole or
   * not at all.
   */
  write(key: MediaKey, body: Readable, expectedBytes: number): Promise<void>;
  /** A local path the file can be read from (for probing and for sending with Range support). */
  pathOf(key: MediaKey): string;
  size(key: MediaKey): Promise<number | undefined>;
  remove(key: MediaKey): Promise<void>;
}
