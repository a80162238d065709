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

/** How big a written file must be: exactly a declared size (uploads), or at most a cap (imports). */
export type SizeRule = { exactly: number } | { atMost: number };

export class UploadSizeError extends Error {
  readonly received: number;
  constructor(rule: SizeRule, received: number) {
    super(
      'atMost' in rule
        ? `The file is larger than the ${rule.atMost} bytes allowed.`
        : received > rule.exactly
          ? `The file is larger than the declared ${rule.exactly} bytes.`
          : `The upload ended after ${received} of the declared ${rule.exactly} bytes.`,
    );
    this.name = 'UploadSizeError';
    this.received = received;
  }
}

export interface MediaStore {
  /**
   * Streams `body` into the store without holding it in memory, and returns its size. A body that
   * breaks the size rule throws UploadSizeError and leaves nothing behind. A file appears whole or
   * not at all.
   */
  write(key: MediaKey, body: Readable, size: SizeRule): Promise<number>;
  /** A local path the file can be read from (for probing and for sending with Range support). */
  pathOf(key: MediaKey): string;
  size(key: MediaKey): Promise<number | undefined>;
  remove(key: MediaKey): Promise<void>;
  /**
   * Removes what writes cut short by a killed process left behind (temporary files not written to
   * since `olderThan`); returns how many went. Run by the worker's maintenance pass.
   */
  removeAbandonedWrites(olderThan: Date): Promise<number>;
}
