/**
 * Where media files live: behind this interface, so the local disk (local-media-store.ts) and an
 * S3-compatible object store are interchangeable. Keys are built only from ids the database issued
 * (a workspace, a video, a rendition) and fixed file names (mediaFileIsValid), never from anything a
 * user typed, so no request can reach outside the store.
 */
import type { Readable } from 'node:stream';
import { DependencyUnavailableError } from '../core/pipeline/unavailable.ts';

/**
 * A file of a video: its `source` (the original, kept), `poster.jpg`, or an HLS file
 * `hls/<rendition id>/<name>` (a rendition's playlist and segments).
 */
export type MediaFile = 'source' | 'poster.jpg' | `hls/${string}`;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UUID_PATTERN = new RegExp(`^${UUID}$`);
const FILE_PATTERN = new RegExp(`^(source|poster\\.jpg|hls/${UUID}/[a-z0-9][a-z0-9._-]{0,63})$`);

/** Whether `file` is a name the store may hold (a defence in depth: callers build names from ids). */
export function mediaFileIsValid(file: string): file is MediaFile {
  return FILE_PATTERN.test(file) && !file.includes('..');
}

export interface MediaKey {
  workspaceId: string;
  videoId: string;
  file: MediaFile;
}

/** A video's place in the store: all its files share it. */
export type VideoFiles = Omit<MediaKey, 'file'>;

/** Refuses a key that is not made of ids and a valid file name; every store checks each key with it. */
export function checkMediaKey(key: MediaKey): void {
  if (!UUID_PATTERN.test(key.workspaceId) || !UUID_PATTERN.test(key.videoId) || !mediaFileIsValid(key.file)) {
    throw new Error('Media keys are made of ids and known file names only');
  }
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

/**
 * The store could not be reached or answered with a server error: nothing was written or read.
 * Requests answer it 503 with Retry-After, and jobs retry later.
 */
export class MediaStoreUnavailableError extends DependencyUnavailableError {
  constructor(options?: { cause?: unknown }) {
    super('Media storage is unavailable right now. Retry in a few seconds.', options);
    this.name = 'MediaStoreUnavailableError';
  }
}

/** What a request needs to know of a stored file before reading it. */
export interface StoredFile {
  size: number;
  /** A strong entity tag, quoted: it changes whenever the bytes could have. */
  etag: string;
  lastModified: Date;
}

/** Inclusive byte positions, as in a Range header. */
export interface ByteSpan {
  start: number;
  end: number;
}

export interface MediaStore {
  /** `local` or `s3`: logged at start-up. */
  readonly kind: string;
  /**
   * Streams `body` into the store without holding it in memory, and returns its size. A body that
   * breaks the size rule throws UploadSizeError and leaves nothing behind. A file appears whole or
   * not at all. A write that fails destroys `body` (nothing more is read from it).
   */
  write(key: MediaKey, body: Readable, size: SizeRule): Promise<number>;
  /** The file's size and validators, or undefined when there is no such file. */
  stat(key: MediaKey): Promise<StoredFile | undefined>;
  /** The file's bytes (all, or the span), streamed; undefined when there is no such file. */
  read(key: MediaKey, span?: ByteSpan): Promise<Readable | undefined>;
  /**
   * Runs `use` with a local path holding the file (ffmpeg and the prober read files): the file
   * itself on local disk, a temporary download from an object store (removed afterwards).
   */
  withLocalFile<T>(key: MediaKey, use: (path: string) => Promise<T>): Promise<T>;
  /**
   * A URL a browser can fetch the file from directly for `expiresInSeconds`, or null when the store
   * has none (local disk): then the service streams the file itself. `contentType` is what the URL's
   * answer says the file is (the store may not know: a source is stored before it is probed).
   */
  presignedUrl(key: MediaKey, expiresInSeconds: number, options?: { contentType?: string }): Promise<string | null>;
  remove(key: MediaKey): Promise<void>;
  /** Removes every file of the video. */
  removeVideo(video: VideoFiles): Promise<void>;
  /** Removes every file under `hls/<renditionId>/` of the video (a rendition made again, or dropped). */
  removeRendition(video: VideoFiles, renditionId: string): Promise<void>;
  /**
   * Removes what writes cut short by a killed process left behind (temporary files not written to
   * since `olderThan`, unfinished multipart uploads); returns how many went. Run by the worker's
   * maintenance pass.
   */
  removeAbandonedWrites(olderThan: Date): Promise<number>;
}

/**
 * How /media answers for a file: `stream` sends the bytes itself (Range, conditional requests);
 * `redirect` answers 302 to a presigned URL valid for `urlSeconds`, so the bytes go from the object
 * store straight to the viewer (only with a store that has such URLs; playlists are always streamed).
 */
export interface MediaDelivery {
  mode: 'stream' | 'redirect';
  urlSeconds: number;
}
