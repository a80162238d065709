/**
 * The two things under load, both on loopback and both on the same database pool:
 * - the full stack: buildApp as production runs it (auth, scope, rate limit, validation, pagination,
 *   schema serialization), with an in-memory limiter set high enough never to refuse;
 * - the bare route: a plain Fastify instance with one unauthenticated route running the very same
 *   listVideos query, so the difference between the two is what the service adds on top of the SQL.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import { buildDependencies } from '../src/dependencies.ts';
import { listVideos } from '../src/domains/videos/index.ts';
import { createMediaLinks } from '../src/media/media-links.ts';

const NEVER_LIMITED = 1_000_000;
const SECRET = 'bench-secret-bench-secret-bench-secret-01';
const LIMIT = 50;

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function startFullStack(database: DatabaseHandle): Promise<RunningServer> {
  // list_videos never touches media files; the data directory only has to exist.
  const config = loadConfig({
    CUEPOINT_SECRET: SECRET,
    PUBLIC_URL: 'http://127.0.0.1',
    CUEPOINT_DATA_DIR: join(tmpdir(), 'cuepoint-bench'),
    CUEPOINT_RATE_LIMIT: String(NEVER_LIMITED),
    CUEPOINT_FFMPEG: 'off',
  });
  const app = await buildApp(await buildDependencies(config, { database }));
  return listen(app, `/v1/videos?limit=${LIMIT}`);
}

export async function startBareRoute(database: DatabaseHandle, workspaceId: string): Promise<RunningServer> {
  const app = Fastify({ logger: false });
  const { links } = createMediaLinks(SECRET, 'http://127.0.0.1');
  app.get('/videos', async () => {
    const { rows, total } = await listVideos(
      database.db,
      workspaceId,
      { archived: 'exclude', sort: 'newest' },
      { after: undefined, limit: LIMIT },
      links,
    );
    const hasMore = rows.length > LIMIT;
    const videos = hasMore ? rows.slice(0, LIMIT) : rows;
    const last = videos.at(-1);
    // Same shape and roughly the same size as the real answer; the cursor is just not signed.
    const nextCursor = hasMore && last ? Buffer.from(JSON.stringify([last.created_at, last.video_id])).toString('base64url') : null;
    return { videos, pagination: { total, limit: LIMIT, has_more: hasMore, next_cursor: nextCursor } };
  });
  return listen(app, '/videos');
}

async function listen(app: FastifyInstance, path: string): Promise<RunningServer> {
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `${address}${path}`, close: () => app.close() };
}
