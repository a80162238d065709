/**
 * hls.js as the pages get it: the installed package's light build (nothing from a CDN) at the
 * address the pages name, immutable for a year, gzipped for browsers that accept it, revalidated by
 * ETag; any other address under /vendor/ is not found.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { hlsScriptPath } from './hls-script.ts';

const require = createRequire(import.meta.url);
const packaged = readFileSync(require.resolve('hls.js/dist/hls.light.min.js'), 'utf8');
const { version } = require('hls.js/package.json') as { version: string };

test('hls.js is served from the installed package at a versioned, content-hashed address, immutable', async (t) => {
  const harness = await startTestApp(t);
  const path = hlsScriptPath();
  assert.match(path, new RegExp(`^/vendor/hls-${version.replaceAll('.', '\\.')}\\.light\\.[0-9a-f]{16}\\.min\\.js$`));

  const plain = await harness.app.inject({ method: 'GET', url: path });
  assert.equal(plain.statusCode, 200);
  assert.equal(plain.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(plain.headers['x-content-type-options'], 'nosniff');
  assert.equal(plain.headers.vary, 'Accept-Encoding');
  assert.equal(plain.headers['content-encoding'], undefined);
  // The package's build, less the comment naming a source map we do not serve.
  assert.equal(plain.body, packaged.replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n'));
  assert.doesNotMatch(plain.body, /sourceMappingURL/);

  const gzipped = await harness.app.inject({ method: 'GET', url: path, headers: { 'accept-encoding': 'br, gzip, deflate' } });
  assert.equal(gzipped.statusCode, 200);
  assert.equal(gzipped.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(gzipped.rawPayload).toString('utf8'), plain.body);
  assert.ok(gzipped.rawPayload.length < plain.rawPayload.length / 2, `${gzipped.rawPayload.length} gzipped bytes`);
  assert.notEqual(gzipped.headers.etag, plain.headers.etag, 'each encoding has its own entity tag');

  // gzip refused with q=0 is not sent; an unknown coding alone gets the plain bytes.
  for (const accepted of ['gzip;q=0', 'br', 'identity']) {
    const res = await harness.app.inject({ method: 'GET', url: path, headers: { 'accept-encoding': accepted } });
    assert.equal(res.headers['content-encoding'], undefined, accepted);
  }

  const revalidated = await harness.app.inject({
    method: 'GET',
    url: path,
    headers: { 'accept-encoding': 'gzip', 'if-none-match': String(gzipped.headers.etag) },
  });
  assert.equal(revalidated.statusCode, 304);
  assert.equal(revalidated.body, '');

  for (const other of [path.replace(/\.[0-9a-f]{16}\./, '.0000000000000000.'), '/vendor/hls.js', '/vendor/hls.light.min.js.map']) {
    const res = await harness.app.inject({ method: 'GET', url: other });
    assert.equal(res.statusCode, 404, other);
  }
});
