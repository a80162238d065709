/**
 * The default media store: files on local disk under `<data dir>/media/<workspace>/<video>/<file>`.
 * Writes go to a temporary file that is renamed into place once complete, so a reader never sees
 * half a file and a failed upload leaves nothing.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type MediaKey, type MediaStore, type SizeRule, UploadSizeError } from './media-store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PART_SUFFIX = '.part';

export function createLocalMediaStore(root: string): MediaStore {
  const pathOf = (key: MediaKey): string => {
    // Defence in depth: keys are database ids, and nothing else may shape a path.
    if (!UUID.test(key.workspaceId) || !UUID.test(key.videoId)) throw new Error('Media keys are made of ids only');
    return join(root, key.workspaceId, key.videoId, key.file);
  };
  return {
    pathOf,
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
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch {
        return undefined;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
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
