/**
 * The dashboard's stylesheet and scripts, served as files (DESIGN §10: no inline script; the pages'
 * policy is style-src 'self' and script-src 'self'). Each area keeps its own rules in
 * `assets/dashboard/<area>.css`; they are joined, base first, into one stylesheet so a page makes one
 * request for it. Names carry a hash of the content (`?v=`), so browsers keep them for a year and a
 * new release is fetched at once.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const FOLDER = new URL('../../assets/dashboard/', import.meta.url);

interface Asset {
  body: Buffer;
  type: string;
  version: string;
}

function version(body: Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 12);
}

function loadAssets(): Map<string, Asset> {
  const names = readdirSync(FOLDER).sort();
  const css = Buffer.concat(
    ['base.css', ...names.filter((name) => name.endsWith('.css') && name !== 'base.css')].map((name) =>
      readFileSync(new URL(name, FOLDER)),
    ),
  );
  const assets = new Map<string, Asset>([['dashboard.css', { body: css, type: 'text/css; charset=utf-8', version: version(css) }]]);
  for (const name of names.filter((n) => n.endsWith('.js'))) {
    const body = readFileSync(new URL(name, FOLDER));
    assets.set(name, { body, type: 'text/javascript; charset=utf-8', version: version(body) });
  }
  return assets;
}

let loaded: Map<string, Asset> | undefined;
const assets = () => {
  loaded ??= loadAssets();
  return loaded;
};

/** The versioned address of a dashboard asset: `/app/assets/dashboard.css?v=…`. */
export function assetUrl(name: string): string {
  const asset = assets().get(name);
  if (!asset) throw new Error(`No dashboard asset is named ${name}`);
  return `/app/assets/${name}?v=${asset.version}`;
}

export function serveDashboardAssets(scope: FastifyInstance): void {
  scope.get('/app/assets/:name', async (request, reply) => {
    const asset = assets().get((request.params as { name: string }).name);
    if (!asset) return reply.code(404).header('Content-Type', 'text/plain; charset=utf-8').send('Not found');
    const versioned = (request.query as Record<string, unknown>).v === asset.version;
    return reply
      .header('Content-Type', asset.type)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', versioned ? 'public, max-age=31536000, immutable' : 'no-cache')
      .header('ETag', `"${asset.version}"`)
      .send(asset.body);
  });
}
