/**
 * hls.js for the players (/playback.js loads it only when a page's video is played through it),
 * served by us from the installed package, never from a CDN: the light build (no alternate audio,
 * in-manifest subtitles or DRM, none of which our streams use; captions are the page's own <track>).
 * Its address carries the package's version and a hash of the bytes, so it can be cached for a year
 * as immutable and a new build is a new address. Sent gzipped to browsers that accept it (a third
 * of the size); the bytes and both encodings are made once per process, the gzipped one when it is
 * first asked for (compressing at level 9 took a twentieth of a second of every start).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { etagListMatches } from '../http/conditional-request.ts';

interface Encoded {
  body: Buffer;
  /** Each encoding is its own representation, with its own entity tag. */
  etag: string;
}

interface HlsScript {
  path: string;
  plain: Encoded;
  gzipped(): Encoded;
}

let loaded: HlsScript | undefined;

function hlsScript(): HlsScript {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const { version } = require('hls.js/package.json') as { version: string };
  // The build names a source map we do not serve: without the comment, a browser's developer tools
  // do not ask for it and get a 404.
  const source = readFileSync(require.resolve('hls.js/dist/hls.light.min.js'), 'utf8').replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n');
  const plain = Buffer.from(source);
  const hash = createHash('sha256').update(plain).digest('hex').slice(0, 16);
  let gzipped: Encoded | undefined;
  loaded = {
    path: `/vendor/hls-${version}.light.${hash}.min.js`,
    plain: { body: plain, etag: `"${hash}"` },
    gzipped: () => {
      gzipped ??= { body: gzipSync(plain, { level: 9 }), etag: `"${hash}-gzip"` };
      return gzipped;
    },
  };
  return loaded;
}

/** Where pages tell /playback.js to load hls.js from. */
export function hlsScriptPath(): string {
  return hlsScript().path;
}

/** Whether the request accepts gzip (not refused with q=0). */
function acceptsGzip(request: FastifyRequest): boolean {
  const accepted = String(request.headers['accept-encoding'] ?? '').toLowerCase();
  return accepted.split(',').some((entry) => {
    const [coding, ...parameters] = entry.trim().split(';');
    if (coding?.trim() !== 'gzip') return false;
    const quality = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find((value) => value !== undefined);
    return quality === undefined || Number(quality) > 0;
  });
}

export function serveHlsScript(app: FastifyInstance): void {
  const script = hlsScript();
  app.get(script.path, (request, reply) => {
    const gzip = acceptsGzip(request);
    const chosen = gzip ? script.gzipped() : script.plain;
    reply
      .header('Content-Type', 'text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('ETag', chosen.etag)
      .header('Vary', 'Accept-Encoding')
      .header('X-Content-Type-Options', 'nosniff');
    if (gzip) reply.header('Content-Encoding', 'gzip');
    if (etagListMatches(request.headers['if-none-match'], chosen.etag, 'weak')) return reply.code(304).send();
    return reply.send(chosen.body);
  });
}
