import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../config.ts';
import { classifyAddress, createAddressPolicy, parseCidr } from './address-policy.ts';

test('every special-purpose IPv4 range is named, and only global unicast is public', () => {
  const expected: Record<string, string> = {
    '0.0.0.0': 'unspecified',
    '0.1.2.3': 'unspecified',
    '127.0.0.1': 'loopback',
    '127.255.255.254': 'loopback',
    '10.0.0.1': 'private',
    '172.16.0.1': 'private',
    '172.31.255.255': 'private',
    '192.168.1.1': 'private',
    '169.254.1.1': 'link_local',
    '100.64.0.1': 'carrier_grade_nat',
    '100.127.255.255': 'carrier_grade_nat',
    '192.0.2.1': 'documentation',
    '198.51.100.1': 'documentation',
    '203.0.113.1': 'documentation',
    '198.18.0.1': 'benchmarking',
    '224.0.0.1': 'multicast',
    '239.255.255.250': 'multicast',
    '255.255.255.255': 'broadcast',
    '240.0.0.1': 'reserved',
    '192.0.0.8': 'reserved',
    '192.88.99.1': 'reserved',
    '169.254.169.254': 'metadata',
    '169.254.170.2': 'metadata',
    '100.100.100.200': 'metadata',
    '8.8.8.8': 'public',
    '1.1.1.1': 'public',
    '172.32.0.1': 'public',
    '100.128.0.1': 'public',
    '11.0.0.1': 'public',
  };
  for (const [address, range] of Object.entries(expected)) assert.equal(classifyAddress(address), range, address);
});

test('IPv6: special ranges, and forms that embed an IPv4 address are judged as that address', () => {
  const expected: Record<string, string> = {
    '::': 'unspecified',
    '::1': 'loopback',
    '0:0:0:0:0:0:0:1': 'loopback',
    'fc00::1': 'private',
    'fd12:3456::1': 'private',
    'fe80::1': 'link_local',
    'fe80::1%eth0': 'link_local',
    'ff02::1': 'multicast',
    'fec0::1': 'reserved',
    '2001:db8::1': 'documentation',
    '3fff::1': 'documentation',
    '2001::1': 'teredo',
    '2001:2::1': 'benchmarking',
    '100::1': 'reserved',
    '64:ff9b:1::1': 'reserved',
    '::7f00:1': 'reserved',
    '4000::1': 'reserved',
    'fd00:ec2::254': 'metadata',
    // IPv4-mapped, in the spellings a resolver or the URL parser produce.
    '::ffff:127.0.0.1': 'loopback',
    '::ffff:7f00:1': 'loopback',
    '::ffff:10.0.0.1': 'private',
    '::ffff:169.254.169.254': 'metadata',
    '::ffff:8.8.8.8': 'public',
    // NAT64 and 6to4 reach the IPv4 host they carry.
    '64:ff9b::7f00:1': 'loopback',
    '64:ff9b::a9fe:a9fe': 'metadata',
    '64:ff9b::808:808': 'public',
    '2002:a00:1::1': 'private',
    '2002:7f00:1::': 'loopback',
    '2002:808:808::1': 'public',
    '2606:4700:4700::1111': 'public',
    '2a00:1450:4001::1': 'public',
    'not-an-ip': 'invalid',
  };
  for (const [address, range] of Object.entries(expected)) assert.equal(classifyAddress(address), range, address);
});

test('the allow-list opens listed ranges only, and never the metadata addresses', () => {
  const loopbackOnly = createAddressPolicy([parseCidr('127.0.0.0/8')]);
  assert.deepEqual(loopbackOnly.check('127.0.0.1'), { allowed: true, range: 'loopback' });
  assert.deepEqual(loopbackOnly.check('::ffff:127.0.0.1'), { allowed: true, range: 'loopback' });
  assert.deepEqual(loopbackOnly.check('10.0.0.1'), { allowed: false, range: 'private' });
  assert.deepEqual(loopbackOnly.check('::1'), { allowed: false, range: 'loopback' });
  assert.deepEqual(loopbackOnly.check('8.8.8.8'), { allowed: true, range: 'public' });

  for (const allowList of [
    ['169.254.0.0/16', 'fd00::/8', '100.64.0.0/10'],
    ['0.0.0.0/0', '::/0'],
  ]) {
    const policy = createAddressPolicy(allowList.map(parseCidr));
    for (const address of [
      '169.254.169.254',
      '169.254.170.2',
      '169.254.170.23',
      '100.100.100.200',
      'fd00:ec2::254',
      '::ffff:169.254.169.254',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::1',
    ]) {
      assert.deepEqual(policy.check(address), { allowed: false, range: 'metadata' }, `${address} with ${allowList}`);
    }
    assert.equal(policy.check('169.254.1.1').allowed, true);
    assert.equal(policy.check('100.64.0.1').allowed, true);
  }
  assert.equal(createAddressPolicy([parseCidr('0.0.0.0/0')]).check('not-an-ip').allowed, false);
});

test('allow-list entries: addresses and CIDRs are normalised; anything else is refused with the reason', () => {
  assert.equal(parseCidr('127.0.0.0/8').text, '127.0.0.0/8');
  assert.equal(parseCidr(' 10.1.2.3 ').text, '10.1.2.3/32');
  assert.equal(parseCidr('::1').text, '::1/128');
  assert.equal(parseCidr('FD00:0:0::/8').text, 'fd00::/8');
  assert.equal(parseCidr('0.0.0.0/0').text, '0.0.0.0/0');
  assert.deepEqual({ ...parseCidr('fd00::/8') }, { family: 'ipv6', network: 'fd00::', prefix: 8, text: 'fd00::/8' });
  const refused: [string, RegExp][] = [
    ['localhost', /not an IP address or CIDR range/],
    ['10.0.0.0/8/8', /not an IP address/],
    ['127.1', /not an IP address/],
    ['010.0.0.1', /not an IP address/],
    ['fe80::1%eth0', /not an IP address/],
    ['10.0.0.0/33', /prefix length outside 0 to 32/],
    ['::/129', /prefix length outside 0 to 128/],
    ['10.0.0.0/', /prefix length/],
    ['10.0.0.0/-1', /prefix length/],
    ['10.0.0.0/8.5', /prefix length/],
    ['10.0.0.5/8', /bits set after the prefix; did you mean 10\.0\.0\.0\/8\?/],
    ['fd00::1/8', /did you mean fd00::\/8\?/],
  ];
  for (const [entry, message] of refused) assert.throws(() => parseCidr(entry), message, entry);
});

test('CUEPOINT_ALLOW_PRIVATE_NETWORKS is validated at start-up, naming the variable and each bad entry', () => {
  assert.deepEqual(loadConfig({}).allowPrivateNetworks, []);
  const config = loadConfig({ CUEPOINT_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8, ::1 ,,' });
  assert.deepEqual(
    config.allowPrivateNetworks.map((cidr) => cidr.text),
    ['127.0.0.0/8', '::1/128'],
  );
  assert.ok(Object.isFrozen(config.allowPrivateNetworks));
  assert.throws(
    () => loadConfig({ CUEPOINT_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8,localhost,10.0.0.1/8' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /CUEPOINT_ALLOW_PRIVATE_NETWORKS: "localhost" is not an IP address or CIDR range/);
      assert.match(error.message, /CUEPOINT_ALLOW_PRIVATE_NETWORKS: "10\.0\.0\.1\/8" has bits set after the prefix/);
      return true;
    },
  );
});
