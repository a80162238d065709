/**
 * Who a public request is counted as: the peer, unless it is a trusted proxy, then the rightmost
 * X-Forwarded-For entry that is not one; a forged header from anywhere else changes nothing. IPv4
 * clients are their address (an IPv4-mapped IPv6 address too), IPv6 clients their /64.
 */
import assert from 'node:assert/strict';
import { BlockList, isIP } from 'node:net';
import { test } from 'node:test';
import { parseCidr } from '../../../net/address-policy.ts';
import { canonicalAddress } from '../../../net/ip-address.ts';
import { addressGroup, clientAddress } from './client-address.ts';

function trusting(...entries: string[]) {
  const list = new BlockList();
  for (const cidr of entries.map(parseCidr)) list.addSubnet(cidr.network, cidr.prefix, cidr.family);
  return (address: string) => list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}
const nobody = trusting();

test('without trusted proxies the peer is the client, whatever X-Forwarded-For says', () => {
  assert.equal(clientAddress('203.0.113.7', undefined, nobody), '203.0.113.7');
  assert.equal(clientAddress('203.0.113.7', '198.51.100.1', nobody), '203.0.113.7');
  assert.equal(clientAddress('203.0.113.7', ['198.51.100.1', '198.51.100.2'], nobody), '203.0.113.7');
  assert.equal(clientAddress(undefined, '198.51.100.1', nobody), 'unknown', 'a gone socket is not an address the header may fill');
});

test('behind trusted proxies: the rightmost entry that is not a proxy; what the client wrote left of it is never read', () => {
  const lb = trusting('10.0.0.0/8', '2001:db8:ffff::/48');
  // One load balancer: it appended the client.
  assert.equal(clientAddress('10.1.2.3', '203.0.113.7', lb), '203.0.113.7');
  // The client forged entries of its own; the balancer appended the real one last.
  assert.equal(clientAddress('10.1.2.3', '1.1.1.1, 8.8.8.8, 203.0.113.7', lb), '203.0.113.7');
  // A CDN edge, then the balancer: both trusted, both skipped.
  assert.equal(clientAddress('10.1.2.3', '203.0.113.7, 10.9.9.9', lb), '203.0.113.7');
  assert.equal(clientAddress('::ffff:10.1.2.3', '203.0.113.7, 2001:db8:ffff::1', lb), '203.0.113.7', 'a mapped peer is its IPv4');
  // Two X-Forwarded-For headers read as one list, in order.
  assert.equal(clientAddress('10.1.2.3', ['1.1.1.1', '203.0.113.7'], lb), '203.0.113.7');
  // Only trusted hops all the way: the leftmost of them.
  assert.equal(clientAddress('10.1.2.3', '10.4.4.4', lb), '10.4.4.4');
  // No header from a proxy: the proxy itself.
  assert.equal(clientAddress('10.1.2.3', undefined, lb), '10.1.2.3');
  // A peer that is not a proxy is the client, its header ignored.
  assert.equal(clientAddress('203.0.113.9', '10.1.2.3, 198.51.100.1', lb), '203.0.113.9');
});

test('X-Forwarded-For entries with ports, brackets, quotes and spaces; garbage stops at the last trusted hop', () => {
  const lb = trusting('10.0.0.0/8');
  assert.equal(clientAddress('10.0.0.1', ' 203.0.113.7:51234 ', lb), '203.0.113.7');
  assert.equal(clientAddress('10.0.0.1', '[2001:DB8::7]:443', lb), '2001:db8::7');
  assert.equal(clientAddress('10.0.0.1', '"[2001:db8::7]"', lb), '2001:db8::7');
  assert.equal(clientAddress('10.0.0.1', '2001:db8::7', lb), '2001:db8::7');
  assert.equal(clientAddress('10.0.0.1', '::ffff:203.0.113.7', lb), '203.0.113.7');
  assert.equal(clientAddress('10.0.0.1', 'unknown', lb), '10.0.0.1');
  assert.equal(clientAddress('10.0.0.1', '203.0.113.7, not-an-ip', lb), '10.0.0.1');
  assert.equal(clientAddress('10.0.0.1', '', lb), '10.0.0.1');
});

test('IPv4-mapped IPv6 is IPv4; IPv6 is spelled one way; zones are dropped', () => {
  assert.equal(canonicalAddress('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(canonicalAddress('::FFFF:cb00:7107'), '203.0.113.7');
  assert.equal(canonicalAddress('2001:0DB8:0000:0000:0000:0000:0000:0001'), '2001:db8::1');
  assert.equal(canonicalAddress('fe80::1%eth0'), 'fe80::1');
  assert.equal(canonicalAddress('203.0.113.7'), '203.0.113.7');
  assert.equal(canonicalAddress('nope'), undefined);
  assert.equal(canonicalAddress('1.2.3.4.5'), undefined);
});

test('an IPv4 client is its address; an IPv6 client is its /64', () => {
  assert.equal(addressGroup('203.0.113.7'), '203.0.113.7');
  assert.equal(addressGroup('203.0.113.8'), '203.0.113.8');
  assert.equal(addressGroup('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64');
  assert.equal(addressGroup('2001:db8:1:2::1'), '2001:db8:1:2::/64', 'the same /64: the same client');
  assert.equal(addressGroup('2001:db8:1:3::1'), '2001:db8:1:3::/64', 'the next /64: another client');
  assert.equal(addressGroup('2001:db8::1'), '2001:db8::/64');
  assert.equal(addressGroup('unknown'), 'unknown');
});
