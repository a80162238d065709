/**
 * The media store on any S3-compatible object store (AWS S3, MinIO, R2, B2, …) through the AWS SDK
 * v3: objects under `${prefix}${workspace}/${video}/${file}`, every key checked to be made of ids and
 * known file names. Writes stream at flat memory (s3-upload.ts); reads are HEAD and ranged GETs;
 * ffmpeg gets a temporary local copy; playback can skip the service with presigned GET URLs.
 * Outages become MediaStoreUnavailableError (s3-errors.ts), within the bounds of s3-clients.ts.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type ByteSpan, checkMediaKey, type MediaKey, type MediaStore, mediaFileIsValid, type VideoFiles } from './media-store.ts';
import { createS3Clients, DEFAULT_S3_TIMEOUTS, type S3Settings, type S3Timeouts } from './s3-clients.ts';
import { isMissingKey, storeFailure } from './s3-errors.ts';
import { type UploadShape, uploadObject } from './s3-upload.ts';
import { makeWorkDir } from './work-dirs.ts';

export interface S3StoreOptions {
  timeouts?: Partial<S3Timeouts>;
  /** How uploads are cut into parts: 5 MiB parts, two at a time, unless told otherwise. */
  upload?: Partial<UploadShape>;
  /** The time presigned URLs are signed at (tests sign in the past to see one expire). */
  clock?: () => Date;
}

const DEFAULT_UPLOAD: UploadShape = { partBytes: 5 * 1024 * 1024, queueSize: 2 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function createS3MediaStore(settings: S3Settings, options: S3StoreOptions = {}): MediaStore {
  const { quick, transfer } = createS3Clients(settings, { ...DEFAULT_S3_TIMEOUTS, ...options.timeouts });
  const shape = { ...DEFAULT_UPLOAD, ...options.upload };
  const clock = options.clock ?? (() => new Date());
  const Bucket = settings.bucket;
  const keyOf = (key: MediaKey): string => {
    checkMediaKey(key);
    return `${settings.prefix}${key.workspaceId}/${key.videoId}/${key.file}`;
  };
  const videoPrefix = (video: VideoFiles): string => keyOf({ ...video, file: 'source' }).slice(0, -'source'.length);
  /** Our own objects only: a bucket shared with other software keeps theirs, whatever the prefix. */
  const isMediaObject = (key: string | undefined): key is string => {
    if (!key?.startsWith(settings.prefix)) return false;
    const [workspaceId, videoId, ...file] = key.slice(settings.prefix.length).split('/');
    return UUID.test(workspaceId ?? '') && UUID.test(videoId ?? '') && mediaFileIsValid(file.join('/'));
  };

  /** Deletes every object under `prefix`, a page of up to 1,000 at a time. */
  async function removeUnder(prefix: string): Promise<void> {
    let ContinuationToken: string | undefined;
    do {
      const page = await transfer.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
      const keys = (page.Contents ?? []).map((object) => object.Key).filter(isMediaObject);
      if (keys.length > 0) {
        const deleted = await transfer.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
        );
        const failed = deleted.Errors ?? [];
        if (failed.length > 0)
          throw new Error(`The store kept ${failed.length} objects under ${prefix}: ${failed[0]?.Code} ${failed[0]?.Message}`);
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  const storeCall = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw storeFailure(error);
    }
  };

  return {
    kind: 's3',
    async write(key, body, size) {
      return uploadObject(transfer, { bucket: Bucket, key: keyOf(key) }, body, size, shape);
    },
    async stat(key) {
      const Key = keyOf(key);
      return storeCall(async () => {
        try {
          const head = await quick.send(new HeadObjectCommand({ Bucket, Key }));
          return { size: head.ContentLength ?? 0, etag: strongEtag(head.ETag ?? ''), lastModified: head.LastModified ?? new Date(0) };
        } catch (error) {
          if (isMissingKey(error)) return undefined;
          throw error;
        }
      });
    },
    async read(key, span) {
      const Key = keyOf(key);
      return storeCall(async () => {
        try {
          const range = span ? `bytes=${span.start}-${span.end}` : undefined;
          const object = await quick.send(new GetObjectCommand({ Bucket, Key, Range: range }));
          return span ? spanOf(object, span) : (object.Body as Readable);
        } catch (error) {
          if (isMissingKey(error)) return undefined;
          throw error;
        }
      });
    },
    async withLocalFile(key, use) {
      const Key = keyOf(key);
      const dir = await makeWorkDir('s3-copy'); // removed by maintenance if a killed process leaves it
      try {
        const path = join(dir, basename(key.file));
        await storeCall(async () => {
          const object = await transfer.send(new GetObjectCommand({ Bucket, Key }));
          await pipeline(object.Body as Readable, createWriteStream(path));
        });
        return await use(path);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    async presignedUrl(key, expiresInSeconds, presign) {
      const command = new GetObjectCommand({ Bucket, Key: keyOf(key), ResponseContentType: presign?.contentType });
      return storeCall(() => getSignedUrl(quick, command, { expiresIn: expiresInSeconds, signingDate: clock() }));
    },
    async remove(key) {
      const Key = keyOf(key);
      await storeCall(() => quick.send(new DeleteObjectCommand({ Bucket, Key })));
    },
    async removeVideo(video) {
      await storeCall(() => removeUnder(videoPrefix(video)));
    },
    async removeRendition(video, renditionId) {
      const prefix = keyOf({ ...video, file: `hls/${renditionId}/index.m3u8` }).slice(0, -'index.m3u8'.length);
      await storeCall(() => removeUnder(prefix));
    },
    async removeAbandonedWrites(olderThan) {
      return storeCall(async () => {
        let aborted = 0;
        let KeyMarker: string | undefined;
        let UploadIdMarker: string | undefined;
        do {
          const page = await transfer.send(
            new ListMultipartUploadsCommand({ Bucket, Prefix: settings.prefix || undefined, KeyMarker, UploadIdMarker }),
          );
          for (const upload of page.Uploads ?? []) {
            // An upload in progress was started moments ago; one this old belongs to a killed process.
            if (!isMediaObject(upload.Key) || !upload.UploadId || !upload.Initiated || upload.Initiated >= olderThan) continue;
            try {
              await transfer.send(new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }));
              aborted++;
            } catch (error) {
              // Completed or aborted by someone else since the listing: gone either way.
              if (!(error instanceof Error && error.name === 'NoSuchUpload')) throw error;
            }
          }
          [KeyMarker, UploadIdMarker] = page.IsTruncated ? [page.NextKeyMarker, page.NextUploadIdMarker] : [undefined, undefined];
        } while (KeyMarker);
        return aborted;
      });
    },
  };
}

/**
 * The body of a ranged GET, exactly the span: a reply must never run past its Content-Length, and
 * not every S3-compatible server keeps to the range asked (s3rver answers `bytes=0-0` with the whole
 * file). More than asked, from the right start, is cut to the span; anything else is an error.
 */
function spanOf(object: GetObjectCommandOutput, span: ByteSpan): Readable {
  const body = object.Body as Readable;
  const sent = /^bytes (\d+)-(\d+)\//.exec(object.ContentRange ?? '');
  const [first, last] = sent ? [Number(sent[1]), Number(sent[2])] : [0, (object.ContentLength ?? 0) - 1];
  if (first === span.start && last === span.end) return body;
  if (first !== span.start || last < span.end) {
    body.destroy();
    throw new Error(`The store answered ${object.ContentRange ?? 'the whole file'} when asked for bytes ${span.start}-${span.end}.`);
  }
  return Readable.from(firstBytes(body, span.end - span.start + 1));
}

async function* firstBytes(body: Readable, count: number): AsyncGenerator<Buffer> {
  let left = count;
  // Leaving the loop early destroys the body, so the rest is never downloaded.
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const part = chunk.subarray(0, left);
    left -= part.length;
    yield part;
    if (left === 0) return;
  }
}

/** S3 quotes its ETags (`"9b2cf…"`, `"…-3"` for a multipart object); some compatible stores do not. Always quoted, always strong. */
function strongEtag(etag: string): string {
  return `"${etag.replace(/^W\//, '').replace(/^"|"$/g, '')}"`;
}
