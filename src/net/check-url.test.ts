/**
 * The SSRF bypass corpus (reliability.md §2.5) against a loopback canary that must never be hit,
 * while every connection attempt undici makes is recorded: a refusal must come before any socket.
 */
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, type TestContext, test } from 'node:test';
import { parseCidr } from './address-policy.ts';
import { checkUrl, type Lookup, parseOutboundUrl } from './check-url.ts';
import { OutboundRequestError } from './outbound-error.ts';
import { safeFetch } from './safe-fetch.ts';

let canary: Server;
let canaryHits = 0;
let P = 0;

/**
 * The hosts undici tries to connect to while the test runs. Recorded per test, not per file: with
 * the test runner's isolation off, other files' tests share this process and its diagnostics channel.
 */
function recordConnectAttempts(t: TestContext): string[] {
  const attempts: string[] = [];
  const record = (message: unknown) => {
    attempts.push((message as { connectParams: { hostname: string } }).connectParams.hostname);
  };
  subscribe('undici:client:beforeConnect', record);
  t.after(() => unsubscribe('undici:client:beforeConnect', record));
  return attempts;
}

before(async () => {
  canary = createServer((_req, res) => {
    canaryHits++;
    res.end('canary');
  });
  canary.listen(0, '127.0.0.1');
  await once(canary, 'listening');
  P = (canary.address() as AddressInfo).port;
});

after(() => {
  canary.close();
});

const publicLookup: Lookup = async () => [{ address: '93.184.215.14', family: 4 }];

function refused(reason: string) {
  return (error: unknown) => {
    assert.ok(error instanceof OutboundRequestError, String(error));
    assert.equal(error.reason, reason, error.message);
    return true;
  };
}

test('the WHATWG parser turns every odd IPv4 spelling into the dotted form the guard judges', () => {
  for (const spelling of ['127.1', '2130706433', '0x7f.1', '0177.0.0.1', '0x7f000001', '017700000001', '127.0.0.1.']) {
    assert.equal(parseOutboundUrl(`http://${spelling}/`).hostname, '127.0.0.1', spelling);
  }
  assert.equal(parseOutboundUrl('http://0/').hostname, '0.0.0.0');
  assert.equal(parseOutboundUrl('http://[::ffff:127.0.0.1]/').hostname, '[::ffff:7f00:1]');
  assert.equal(parseOutboundUrl('http://[0:0:0:0:0:0:0:1]/').hostname, '[::1]');
});

test('the corpus is refused as blocked_address with an empty allow-list, and nothing connects', async (t) => {
  const connectAttempts = recordConnectAttempts(t);
  const corpus = [
    `http://127.0.0.1:${P}/`,
    `http://localhost:${P}/`,
    `http://127.1:${P}/`,
    `http://0:${P}/`,
    `http://0.0.0.0:${P}/`,
    `http://2130706433:${P}/`,
    `http://0x7f000001:${P}/`,
    `http://017700000001:${P}/`,
    `http://0177.0.0.1:${P}/`,
    `http://0x7f.1:${P}/`,
    `http://[::1]:${P}/`,
    `http://[::ffff:127.0.0.1]:${P}/`,
    `http://[::ffff:7f00:1]:${P}/`,
    `http://[0:0:0:0:0:0:0:1]:${P}/`,
    `http://[::]:${P}/`,
    `http://[64:ff9b::7f00:1]:${P}/`,
    `http://[2002:7f00:1::]:${P}/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://100.100.100.200/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://10.0.0.1/',
    'http://192.168.1.1/',
    'http://192.168.0.1/',
    'http://172.16.0.1/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'https://10.0.0.1:8443/',
  ];
  for (const url of corpus) await assert.rejects(safeFetch(url), refused('blocked_address'), url);
  assert.equal(canaryHits, 0);
  assert.deepEqual(connectAttempts, []);
});

test('metadata addresses stay refused whatever the allow-list holds', async (t) => {
  const connectAttempts = recordConnectAttempts(t);
  for (const allow of [['169.254.0.0/16'], ['0.0.0.0/0', '::/0'], ['fd00::/8', '100.64.0.0/10']]) {
    const allowPrivateNetworks = allow.map(parseCidr);
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00:ec2::254]/',
      'http://100.100.100.200/',
    ]) {
      await assert.rejects(safeFetch(url, { allowPrivateNetworks }), refused('blocked_address'), `${url} with ${allow}`);
    }
    // And through a hostname whose answer is the metadata address.
    const lookup: Lookup = async () => [{ address: '169.254.169.254', family: 4 }];
    await assert.rejects(checkUrl('http://metadata.test/', { allowPrivateNetworks, lookup }), (error: unknown) => {
      assert.ok(error instanceof OutboundRequestError);
      assert.equal(error.reason, 'blocked_address');
      assert.equal(error.address, '169.254.169.254');
      assert.equal(error.message, 'metadata.test resolves to a cloud metadata address, which cannot be fetched.');
      return true;
    });
  }
  assert.deepEqual(connectAttempts, []);
});

test('schemes other than http(s), credentials in the URL, and malformed or huge URLs are invalid_url', async (t) => {
  const connectAttempts = recordConnectAttempts(t);
  const corpus = [
    `ftp://127.0.0.1:${P}/`,
    'file:///etc/passwd',
    'gopher://127.0.0.1:70/_HELO',
    'data:text/plain,hello',
    'javascript:alert(1)',
    'ws://example.com/',
    `http://user:pass@127.0.0.1:${P}/`,
    `http://evil@127.0.0.1:${P}/`,
    'https://user:pass@example.com/',
    'https://:secret@example.com/',
    'not a url',
    '/relative/path',
    `http://example.com/${'a'.repeat(5000)}`,
  ];
  for (const url of corpus) await assert.rejects(checkUrl(url, { lookup: publicLookup }), refused('invalid_url'), url.slice(0, 60));
  await assert.rejects(checkUrl('https://user:hunter2@example.com/'), (error: unknown) => {
    assert.ok(error instanceof OutboundRequestError);
    assert.doesNotMatch(`${error.message} ${error.url}`, /hunter2/);
    return true;
  });
  assert.deepEqual(connectAttempts, []);
});

test('a host is refused when any of its addresses is blocked, whatever the order', async (t) => {
  const connectAttempts = recordConnectAttempts(t);
  const mixed: Lookup = async () => [
    { address: '93.184.215.14', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ];
  await assert.rejects(safeFetch(`http://mixed.test:${P}/`, { lookup: mixed }), refused('blocked_address'));
  const mixedV6: Lookup = async () => [
    { address: '2606:4700::1', family: 6 },
    { address: '::ffff:10.0.0.1', family: 6 },
  ];
  await assert.rejects(checkUrl('http://mixed6.test/', { lookup: mixedV6 }), refused('blocked_address'));
  assert.equal(canaryHits, 0);
  assert.deepEqual(connectAttempts, []);
});

test('checkUrl accepts a public host and reports its addresses; resolver failures are dns_failure', async () => {
  const checked = await checkUrl('https://videos.example.com/a.mp4', { lookup: publicLookup });
  assert.equal(checked.url.href, 'https://videos.example.com/a.mp4');
  assert.deepEqual(checked.addresses, [{ address: '93.184.215.14', family: 4 }]);
  const literal = await checkUrl('http://8.8.8.8:8080/x');
  assert.deepEqual(literal.addresses, [{ address: '8.8.8.8', family: 4 }]);

  const failing: Lookup = async () => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
  };
  await assert.rejects(checkUrl('http://nowhere.test/', { lookup: failing }), refused('dns_failure'));
  await assert.rejects(checkUrl('http://empty.test/', { lookup: async () => [] }), refused('dns_failure'));
  // The real resolver, for a name that cannot exist (.invalid is reserved, RFC 2606).
  await assert.rejects(checkUrl('http://no-such-host.invalid/'), refused('dns_failure'));
});

test('localhost is refused without the allow-list and allowed with it', async () => {
  await assert.rejects(checkUrl(`http://localhost:${P}/`), refused('blocked_address'));
  const allowPrivateNetworks = [parseCidr('127.0.0.0/8'), parseCidr('::1')];
  const checked = await checkUrl(`http://localhost:${P}/`, { allowPrivateNetworks });
  assert.ok(checked.addresses.length > 0);
  assert.equal(canaryHits, 0);
});

test('a slow resolver does not outlast the caller’s deadline', async () => {
  const hanging: Lookup = () => new Promise(() => {});
  const started = Date.now();
  await assert.rejects(checkUrl('http://slow.test/', { lookup: hanging, signal: AbortSignal.timeout(100) }), refused('timeout'));
  assert.ok(Date.now() - started < 2000);
});
