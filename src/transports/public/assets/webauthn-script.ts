/**
 * @simplewebauthn/browser for the passkey pages (sign-in and the account's passkeys), served by us
 * from the installed package as a file, never from a CDN: its UMD bundle, which defines
 * `window.SimpleWebAuthnBrowser` for the pages' own scripts. Its address carries the package's version
 * and a hash of the bytes, so it is cached for a year as immutable and a new build is a new address.
 * Read once per process, on first use.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { etagListMatches } from '../http/conditional-request.ts';

interface WebauthnScript {
  path: string;
  body: Buffer;
  etag: string;
}

let loaded: WebauthnScript | undefined;

function webauthnScript(): WebauthnScript {
  if (loaded) return loaded;
  // The package exports only its modules; its bundle sits beside them, a folder up from the CommonJS entry.
  const root = join(dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')), '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const body = readFileSync(join(root, 'dist', 'bundle', 'index.umd.min.js'));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  loaded = { path: `/vendor/simplewebauthn-browser-${version}.${hash}.min.js`, body, etag: `"${hash}"` };
  return loaded;
}

/** Where the passkey pages load the library from. */
export function webauthnScriptPath(): string {
  return webauthnScript().path;
}

export function serveWebauthnScript(app: FastifyInstance): void {
  const script = webauthnScript();
  app.get(script.path, (request, reply) => {
    reply
      .header('Content-Type', 'text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('ETag', script.etag)
      .header('X-Content-Type-Options', 'nosniff');
    if (etagListMatches(request.headers['if-none-match'], script.etag, 'weak')) return reply.code(304).send();
    return reply.send(script.body);
  });
}
