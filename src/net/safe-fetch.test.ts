/**
 * safeFetch against a real loopback server, reachable because these tests allow-list loopback.
 * Every connection attempt is recorded: refusals must happen before any socket, and the sockets
 * that do open must go to the checked address.
 */
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { LookupAddress } from 'node:dns';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import { createAddressPolicy, parseCidr } from './address-policy.ts';
import type { Lookup } from './check-url.ts';
import { OutboundRequestError } from './outbound-error.ts';
import { createPinnedClient, pinnedLookup } from './pinned-connection.ts';
import { redirectTarget, safeFetch, safeFetchBuffered } from './safe-fetch.ts';

const allowPrivateNetworks = [parseCidr('127.0.0.0/8'), parseCidr('::1')];
let server: Server;
let base = '';
let port = 0;
const seen: IncomingMessage[] = [];
const connectAttempts: string[] = [];
const recordConnect = (message: unknown) => {
  connectAttempts.push((message as { connectParams: { hostname: string } }).connectParams.hostname);
};

before(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    const url = new URL(req.url ?? '/', 'http://x');
    const hops = Number(url.searchParams.get('hops') ?? 0);
    switch (url.pathname) {
      case '/ok':
        return res.end('hello');
      case '/echo': {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () =>
          res.end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString(), auth: req.headers.authorization ?? null })),
        );
        return;
      }
      case '/chain':
        // /chain?hops=N redirects N times, then lands on /ok.
        res.writeHead(302, { location: hops > 1 ? `/chain?hops=${hops - 1}` : '/ok' });
        return res.end();
      case '/loop':
        res.writeHead(301, { location: '/loop' });
        return res.end();
      case '/to':
        res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('location') ?? '/' });
        return res.end();
      case '/big': {
        // Chunked, no Content-Length: only the streaming counter can stop it.
        const chunk = Buffer.alloc(16 * 1024, 97);
        let sent = 0;
        const pump = () => {
          while (sent < 64 && res.write(chunk)) sent++;
          if (sent >= 64) res.end();
          else res.once('drain', pump);
        };
        res.on('close', () => res.removeAllListeners('drain'));
        return pump();
      }
      case '/declared-big':
        res.writeHead(200, { 'content-length': String(1024 * 1024) });
        return res.end(Buffer.alloc(1024 * 1024));
      case '/stall':
        return; // never answers
      case '/stall-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.write('partial'); // never ends
      default:
        res.statusCode = 404;
        return res.end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  subscribe('undici:client:beforeConnect', recordConnect);
});

after(() => {
  unsubscribe('undici:client:beforeConnect', recordConnect);
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  seen.length = 0;
  connectAttempts.length = 0;
});

function failsWith(reason: string) {
  return (error: unknown) => {
    assert.ok(error instanceof OutboundRequestError, String(error));
    assert.equal(error.reason, reason, error.message);
    return true;
  };
}

test('a plain fetch works, streamed or buffered, and reports where it connected', async () => {
  const response = await safeFetch(`${base}/ok`, { allowPrivateNetworks });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-length'), '5');
  assert.equal(response.remoteAddress, '127.0.0.1');
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk as Buffer);
  assert.equal(Buffer.concat(chunks).toString(), 'hello');

  const buffered = await safeFetchBuffered(`${base}/ok`, { allowPrivateNetworks });
  assert.equal(buffered.body.toString(), 'hello');
  assert.equal(buffered.truncated, false);
  assert.deepEqual(connectAttempts, ['127.0.0.1', '127.0.0.1']);
});

test('the same loopback server is refused when the allow-list is empty', async () => {
  await assert.rejects(safeFetch(`${base}/ok`), failsWith('blocked_address'));
  await assert.rejects(safeFetch(`http://localhost:${port}/ok`), failsWith('blocked_address'));
  assert.equal(seen.length, 0);
  assert.deepEqual(connectAttempts, []);
});

test('a hostname resolving to loopback (localhost) is fetched when loopback is allow-listed', async () => {
  const response = await safeFetchBuffered(`http://localhost:${port}/ok`, { allowPrivateNetworks });
  assert.equal(response.body.toString(), 'hello');
  assert.equal(response.url, `http://localhost:${port}/ok`);
});

test('a redirect chain within the cap is followed, each hop re-checked', async () => {
  const response = await safeFetchBuffered(`${base}/chain?hops=5`, { allowPrivateNetworks });
  assert.equal(response.status, 200);
  assert.equal(response.body.toString(), 'hello');
  assert.equal(response.url, `${base}/ok`);
  assert.equal(response.redirects.length, 5);
  assert.equal(seen.length, 6);
});

test('a redirect loop, or one hop past the cap, fails with too_many_redirects', async () => {
  await assert.rejects(safeFetch(`${base}/loop`, { allowPrivateNetworks }), failsWith('too_many_redirects'));
  assert.equal(seen.length, 6); // the first request and 5 followed redirects
  await assert.rejects(safeFetch(`${base}/chain?hops=3`, { allowPrivateNetworks, maxRedirects: 2 }), failsWith('too_many_redirects'));
  await assert.rejects(safeFetch(`${base}/chain?hops=1`, { allowPrivateNetworks, maxRedirects: 0 }), failsWith('too_many_redirects'));
});

test('with followRedirects false, the 3xx itself is the answer', async () => {
  const response = await safeFetchBuffered(`${base}/chain?hops=1`, { allowPrivateNetworks, followRedirects: false });
  assert.equal(response.status, 302);
  assert.equal(response.headers.get('location'), '/ok');
  assert.equal(seen.length, 1);
});

test('a redirect to a metadata or private address is refused before connecting to it', async () => {
  const targets = [
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://10.0.0.1/',
    'http://192.168.0.1:8080/',
    `http://0x7f000001:${port}/ok`, // loopback is allowed here: the control case, it must succeed
  ];
  for (const target of targets.slice(0, -1)) {
    const url = `${base}/to?location=${encodeURIComponent(target)}`;
    await assert.rejects(safeFetch(url, { allowPrivateNetworks }), (error: unknown) => {
      assert.ok(error instanceof OutboundRequestError);
      assert.equal(error.reason, 'blocked_address');
      assert.match(error.message, /^The server redirected to http/);
      return true;
    });
  }
  // Even an allow-list open to everything keeps the metadata address shut.
  const everything = [parseCidr('0.0.0.0/0'), parseCidr('::/0')];
  await assert.rejects(
    safeFetch(`${base}/to?location=${encodeURIComponent(targets[0] as string)}`, { allowPrivateNetworks: everything }),
    failsWith('blocked_address'),
  );
  const control = await safeFetchBuffered(`${base}/to?location=${encodeURIComponent(targets.at(-1) as string)}`, { allowPrivateNetworks });
  assert.equal(control.body.toString(), 'hello');
  assert.ok(connectAttempts.length > 0);
  assert.deepEqual(new Set(connectAttempts), new Set(['127.0.0.1']));
});

test('a redirect is re-resolved and re-checked: a hostname hop to a blocked answer is refused', async () => {
  const lookup: Lookup = async (hostname) => [{ address: hostname === 'inside.test' ? '10.0.0.7' : '127.0.0.1', family: 4 }];
  const url = `${base}/to?location=${encodeURIComponent('http://inside.test/admin')}`;
  await assert.rejects(safeFetch(url, { allowPrivateNetworks, lookup }), (error: unknown) => {
    assert.ok(error instanceof OutboundRequestError);
    assert.equal(error.reason, 'blocked_address');
    assert.equal(error.address, '10.0.0.7');
    assert.doesNotMatch(error.message, /10\.0\.0\.7/); // the resolved address stays in logs
    return true;
  });
  assert.deepEqual(connectAttempts, ['127.0.0.1']);
});

test('redirects: 303 becomes a GET without body; credentials are dropped across origins; https never steps down to http', async () => {
  const post = {
    allowPrivateNetworks,
    method: 'POST',
    body: '{"a":1}',
    headers: { Authorization: 'Bearer secret', 'Content-Type': 'application/json' },
  };
  const same = await safeFetchBuffered(`${base}/to?status=307&location=/echo`, post);
  assert.deepEqual(JSON.parse(same.body.toString()), { method: 'POST', body: '{"a":1}', auth: 'Bearer secret' });
  const seeOther = await safeFetchBuffered(`${base}/to?status=303&location=/echo`, post);
  assert.deepEqual(JSON.parse(seeOther.body.toString()), { method: 'GET', body: '', auth: 'Bearer secret' });
  const crossOrigin = await safeFetchBuffered(
    `${base}/to?status=308&location=${encodeURIComponent(`http://localhost:${port}/echo`)}`,
    post,
  );
  assert.deepEqual(JSON.parse(crossOrigin.body.toString()), { method: 'POST', body: '{"a":1}', auth: null });

  const from = new URL('https://videos.example.com/a');
  assert.equal(redirectTarget('/b', from).href, 'https://videos.example.com/b');
  assert.equal(redirectTarget('https://cdn.example.com/c', from).href, 'https://cdn.example.com/c');
  assert.throws(() => redirectTarget('http://cdn.example.com/c', from), failsWith('invalid_url'));
  assert.throws(() => redirectTarget('http://[::1', from), failsWith('invalid_url'));
  assert.equal(redirectTarget('https://x.example/', new URL('http://a.example/')).protocol, 'https:');
});

test('a body past maxBytes fails with too_large, streamed or declared; truncate keeps the start instead', async () => {
  const response = await safeFetch(`${base}/big`, { allowPrivateNetworks, maxBytes: 100_000 });
  let received = 0;
  await assert.rejects(
    (async () => {
      for await (const chunk of response.body) received += (chunk as Buffer).length;
    })(),
    failsWith('too_large'),
  );
  assert.ok(received <= 100_000, `${received} bytes passed the cap`);
  await assert.rejects(safeFetchBuffered(`${base}/big`, { allowPrivateNetworks, maxBytes: 100_000 }), failsWith('too_large'));
  // A declared Content-Length over the cap fails before any of the body is read.
  await assert.rejects(safeFetch(`${base}/declared-big`, { allowPrivateNetworks, maxBytes: 1000 }), failsWith('too_large'));

  const truncated = await safeFetchBuffered(`${base}/big`, { allowPrivateNetworks, maxBytes: 4096, truncate: true });
  assert.equal(truncated.status, 200);
  assert.equal(truncated.body.length, 4096);
  assert.equal(truncated.truncated, true);
  const whole = await safeFetchBuffered(`${base}/ok`, { allowPrivateNetworks, maxBytes: 5 });
  assert.equal(whole.body.toString(), 'hello');
});

test('a server that stalls fails with timeout within the deadline, before or during the body', async () => {
  for (const path of ['/stall', '/stall-body']) {
    const started = Date.now();
    await assert.rejects(safeFetchBuffered(`${base}${path}`, { allowPrivateNetworks, timeoutMs: 300 }), failsWith('timeout'), path);
    const took = Date.now() - started;
    assert.ok(took >= 250 && took < 2000, `${path} took ${took} ms`);
  }
  // Streaming: the headers arrive, then the deadline ends the body.
  const response = await safeFetch(`${base}/stall-body`, { allowPrivateNetworks, timeoutMs: 300 });
  await assert.rejects(
    (async () => {
      for await (const _ of response.body);
    })(),
    failsWith('timeout'),
  );
});

test('the caller’s signal cancels with aborted; refused and broken connections are connection_failed or tls', async () => {
  const controller = new AbortController();
  const pending = safeFetch(`${base}/stall`, { allowPrivateNetworks, signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await assert.rejects(pending, failsWith('aborted'));

  const closed = createServer();
  closed.listen(0, '127.0.0.1');
  await once(closed, 'listening');
  const closedPort = (closed.address() as AddressInfo).port;
  closed.close();
  await once(closed, 'close');
  await assert.rejects(safeFetch(`http://127.0.0.1:${closedPort}/`, { allowPrivateNetworks }), failsWith('connection_failed'));
  // https to a plain-http server: the TLS handshake fails.
  await assert.rejects(safeFetch(`https://127.0.0.1:${port}/ok`, { allowPrivateNetworks, timeoutMs: 2000 }), failsWith('tls'));
});

test('DNS rebinding: the socket connects to the address that was checked; the resolver is asked once per hop', async () => {
  // A rebinding resolver: the checked answer first, then something else. Only the first may be used.
  const answers = ['127.0.0.1', '127.0.0.2'];
  let calls = 0;
  const lookup: Lookup = async () => [{ address: answers[Math.min(calls++, 1)] as string, family: 4 }];
  const response = await safeFetchBuffered(`http://rebind.test:${port}/ok`, { allowPrivateNetworks, lookup });
  assert.equal(response.body.toString(), 'hello');
  assert.equal(response.remoteAddress, '127.0.0.1');
  assert.equal(calls, 1);
  assert.equal(seen[0]?.headers.host, `rebind.test:${port}`); // the URL keeps its name (SNI, virtual hosts)

  assert.deepEqual(connectAttempts, ['rebind.test']);
});

test('the connect path re-checks the address the socket reached (a tripwire behind the pinning)', async () => {
  // A client pinned to loopback under a policy that refuses loopback: the socket opens, then is refused.
  const client = createPinnedClient(new URL(`${base}/ok`), {
    addresses: [{ address: '127.0.0.1', family: 4 }],
    policy: createAddressPolicy([]),
    connectTimeoutMs: 1000,
  });
  await assert.rejects(client.request({ path: '/ok', method: 'GET' }), failsWith('blocked_address'));
  await client.destroy();
  assert.equal(seen.length, 0);
});

test('the pinned lookup answers with the checked addresses whatever it is asked', () => {
  const lookup = pinnedLookup([
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ]);
  const results: unknown[] = [];
  lookup('evil.example', { all: true }, (_e, all) => results.push(all));
  lookup('evil.example', {}, (_e, address, family) => results.push([address, family]));
  lookup('evil.example', { family: 6, all: true }, (_e, all) => results.push(all));
  lookup('evil.example', { family: 4 }, (_e, address) => results.push(address));
  const onlyV4 = pinnedLookup([{ address: '127.0.0.1', family: 4 }]);
  onlyV4('evil.example', { family: 6 }, (error) => results.push((error as NodeJS.ErrnoException).code));
  assert.deepEqual(results, [
    [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ] satisfies LookupAddress[],
    ['127.0.0.1', 4],
    [{ address: '::1', family: 6 }],
    '127.0.0.1',
    'ENOTFOUND',
  ]);
});
