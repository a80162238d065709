/**
 * Client ID metadata documents end to end (issue 29): an assistant whose client_id is the https URL
 * of its document. The service runs as a process with NODE_EXTRA_CA_CERTS naming a test authority,
 * and fetches documents from https servers on loopback (allowed by CUEPOINT_ALLOW_PRIVATE_NETWORKS)
 * through the SSRF guard, trusting what Node trusts: a document served under that authority's
 * certificate is read (once, then kept while fresh), one whose client_id is not its own URL is
 * refused, and one behind a certificate nobody vouches for is never read.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import test from 'node:test';
import { startServer, tempDir } from '../helpers/server-process.ts';

const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: 'pipe' });
const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** A test certificate authority, a certificate for localhost it signed, and one for localhost nobody signed. */
function certificates(dir: string) {
  openssl(
    [
      'req',
      '-x509',
      ...EC,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Cuepoint Test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  openssl(['req', ...EC, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=localhost'], dir);
  writeFileSync(join(dir, 'leaf.ext'), 'subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'leaf.pem',
      '-days',
      '2',
      '-extfile',
      'leaf.ext',
    ],
    dir,
  );
  openssl(
    [
      'req',
      '-x509',
      ...EC,
      '-keyout',
      'stranger.key',
      '-out',
      'stranger.pem',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
    ],
    dir,
  );
  const read = (name: string) => readFileSync(join(dir, name));
  return {
    caPath: join(dir, 'ca.pem'),
    trusted: { key: read('leaf.key'), cert: read('leaf.pem') },
    untrusted: { key: read('stranger.key'), cert: read('stranger.pem') },
  };
}

/** An https server on loopback serving documents by path; counts what it is asked. */
async function documentServer(
  t: test.TestContext,
  tls: { key: Buffer; cert: Buffer },
  documents: (base: string) => Record<string, object>,
) {
  const asked: string[] = [];
  let base = '';
  const server: Server = createServer(tls, (request, response) => {
    asked.push(request.url ?? '');
    const document = documents(base)[request.url ?? ''];
    if (!document) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' }).end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://localhost:${(server.address() as AddressInfo).port}`;
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { base, asked };
}

test('client ID metadata documents are fetched over TLS Node trusts, checked, and kept while fresh', { timeout: 300_000 }, async (t) => {
  const dir = tempDir(t);
  const certs = certificates(dir);
  const redirect = 'http://127.0.0.1/callback';
  const assistant = await documentServer(t, certs.trusted, (base) => ({
    '/assistant.json': { client_id: `${base}/assistant.json`, client_name: 'Document Assistant', redirect_uris: [redirect] },
    '/liar.json': { client_id: `${base}/someone-else.json`, client_name: 'Liar', redirect_uris: [redirect] },
  }));
  const stranger = await documentServer(t, certs.untrusted, (base) => ({
    '/assistant.json': { client_id: `${base}/assistant.json`, client_name: 'Stranger', redirect_uris: [redirect] },
  }));
  const service = await startServer(t, {
    dataDir: tempDir(t),
    env: { NODE_EXTRA_CA_CERTS: certs.caPath, CUEPOINT_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8' },
  });

  const authorize = (clientId: string) =>
    fetch(
      `${service.url}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:40111/callback',
        state: 's',
        code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
        code_challenge_method: 'S256',
      })}`,
      { redirect: 'manual', signal: AbortSignal.timeout(60_000) },
    );

  const known = await authorize(`${assistant.base}/assistant.json`);
  assert.equal(known.status, 303, await known.text());
  assert.match(known.headers.get('location') ?? '', /^\/sign-in\?next=/, 'a good document: on to sign-in');
  assert.equal((await authorize(`${assistant.base}/assistant.json`)).status, 303);
  assert.deepEqual(
    assistant.asked.filter((path) => path === '/assistant.json'),
    ['/assistant.json'],
    'read once, then kept while its Cache-Control says it is fresh',
  );

  const liar = await authorize(`${assistant.base}/liar.json`);
  assert.equal(liar.status, 400);
  assert.match(await liar.text(), /must say client_id &#34;https:\/\/localhost:\d+\/liar\.json&#34;, exactly its own URL/);

  const untrusted = await authorize(`${stranger.base}/assistant.json`);
  assert.equal(untrusted.status, 400);
  assert.match(await untrusted.text(), /metadata document could not be fetched: A secure connection to localhost could not be established/);
  assert.deepEqual(stranger.asked, [], 'no request is made over a connection whose certificate is not trusted');
});
