/**
 * The default media store: files on local disk under `<data dir>/media/<workspace>/<video>/<file>`.
 * Writes go to a temporary file that is renamed into place once complete, so a reader never sees
 * half a file and a failed upload leaves nothing; a file is never changed in place, so its size and
 * modification time make a strong ETag.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkMediaKey, type MediaKey, type MediaStore, type SizeRule, UploadSizeError, type VideoFiles } from './media-store.ts';

const PART_SUFFIX = '.part';

export function createLocalMediaStore(root: string): MediaStore {
  const videoDir = (video: VideoFiles): string => {
    checkMediaKey({ ...video, file: 'source' });
    return join(root, video.workspaceId, video.videoId);
  };
  const pathOf = (key: MediaKey): string => {
    checkMediaKey(key);
    return join(root, key.workspaceId, key.videoId, key.file);
  };
  const statOf = async (key: MediaKey) => {
    const stats = await stat(pathOf(key)).catch(() => undefined);
    return stats?.isFile() ? stats : undefined;
  };
  return {
    kind: 'local',
    async write(key, body, size: SizeRule) {
      const limit = 'exactly' in size ? size.exactly : size.atMost;
      const target = pathOf(key);
      await mkdir(join(target, '..'), { recursive: true });
      const temporary = `${target}.${randomUUID()}${PART_SUFFIX}`;
      let received = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          received += chunk.length;
          // Stop reading the moment the body outgrows its declared size.
          callback(received > limit ? new UploadSizeError(size, received) : null, chunk);
        },
      });
      try {
        await pipeline(body, counter, createWriteStream(temporary));
        if ('exactly' in size && received !== size.exactly) throw new UploadSizeError(size, received);
        await rename(temporary, target);
        return received;
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async stat(key) {
      const stats = await statOf(key);
      if (!stats) return undefined;
      return {
        size: stats.size,
        etag: `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`,
        lastModified: stats.mtime,
      };
    },
    async read(key, span) {
      if (!(await statOf(key))) return undefined;
      return createReadStream(pathOf(key), span ? { start: span.start, end: span.end } : {});
    },
    async withLocalFile(key, use) {
      return use(pathOf(key));
    },
    async presignedUrl() {
      return null;
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async removeVideo(video) {
      await rm(videoDir(video), { recursive: true, force: true });
    },
    async removeRendition(video, renditionId) {
      checkMediaKey({ ...video, file: `hls/${renditionId}/index.m3u8` });
      await rm(join(videoDir(video), 'hls', renditionId), { recursive: true, force: true });
    },
    async removeAbandonedWrites(olderThan) {
      let removed = 0;
      const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (!entry.isFile() || !entry.name.endsWith(PART_SUFFIX)) continue;
        const path = join(entry.parentPath, entry.name);
        const stats = await stat(path).catch(() => undefined);
        // A write in progress touches its file continually; one left alone this long is dead.
        if (stats && stats.mtime < olderThan) {
          await rm(path, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
