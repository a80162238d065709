/**
 * isDeliverableAddress: the common form providers accept, which sign-in and invitation forms reuse;
 * the forms the standard allows but providers refuse (quoted local parts, IP literals, dotless
 * domains) and anything with spaces or line breaks are refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDeliverableAddress, normalizedAddress } from './deliverable-address.ts';

test('ordinary addresses, with tags, subdomains, apostrophes and international domains, are deliverable', () => {
  for (const address of [
    'grace@example.org',
    'Grace.Hopper+videos@mail.example.co.uk',
    "o'brien@example.ie",
    'a_b-c=d@x-y.example',
    'user@bücher.example',
    'user@xn--bcher-kva.example',
    'user@例え.テスト',
    `${'a'.repeat(64)}@example.com`,
  ]) {
    assert.equal(isDeliverableAddress(address), true, address);
  }
});

test('addresses providers refuse, or that could smuggle a header, are not', () => {
  for (const address of [
    '',
    'grace',
    '@example.org',
    'grace@',
    'grace@localhost',
    'grace@example',
    'grace@example.123',
    'grace@@example.org',
    'a@b@example.org',
    '.grace@example.org',
    'grace.@example.org',
    'gr..ace@example.org',
    '"grace hopper"@example.org',
    'grace hopper@example.org',
    'grace@[127.0.0.1]',
    'grace@127.0.0.1',
    'grace@-example.org',
    'grace@example-.org',
    'grace@exa_mple.org',
    'grace@example..org',
    'grace@example.org\r\nBcc: x@evil.example',
    'grace@example.org\n',
    'grace\u0000@example.org',
    'grace@example.org>',
    '<grace@example.org>',
    'grace@example.org, eve@example.org',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(64)}.com`,
    `${'a'.repeat(60)}@${Array(10).fill('b'.repeat(20)).join('.')}.com`,
  ]) {
    assert.equal(isDeliverableAddress(address), false, JSON.stringify(address));
  }
});

test('normalizedAddress trims and lowers the domain, and keeps the local part as typed', () => {
  assert.equal(normalizedAddress('  Grace.Hopper@Example.ORG '), 'Grace.Hopper@example.org');
});
