/** Intl formatters are made once per locale and options and reused; what Intl refuses still throws. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDate, formatMoney } from './formats.ts';
import { dateTimeFormat, numberFormat } from './intl-formats.ts';

test('the same locale and options give the same formatter; other options another', () => {
  const paris = dateTimeFormat('en-US', { month: 'short', timeZone: 'Europe/Paris' });
  assert.equal(dateTimeFormat('en-US', { month: 'short', timeZone: 'Europe/Paris' }), paris);
  assert.notEqual(dateTimeFormat('en-US', { month: 'short', timeZone: 'Asia/Tokyo' }), paris);
  assert.equal(
    numberFormat('en-US', { style: 'currency', currency: 'EUR' }),
    numberFormat('en-US', { style: 'currency', currency: 'EUR' }),
  );
  assert.equal(numberFormat('en-US', { style: 'currency', currency: 'JPY' }).format(4900), '¥4,900');
});

test('a zone or currency Intl refuses throws every time, and the page formats fall back as before', () => {
  assert.throws(() => dateTimeFormat('en-US', { timeZone: 'Mars/Olympus' }), RangeError);
  assert.throws(() => dateTimeFormat('en-US', { timeZone: 'Mars/Olympus' }), RangeError);
  assert.equal(formatDate('2026-11-03T23:30:00Z', 'Mars/Olympus'), 'Nov 3, 2026');
  assert.equal(formatDate('2026-11-03T23:30:00Z', 'Pacific/Auckland'), 'Nov 4, 2026');
  assert.equal(formatMoney(4900, 'USD'), '$49.00');
  assert.match(formatMoney(4900, 'ZZZ'), /^ZZZ\s49\.00$/, 'an unknown code keeps two digits, written by its code');
});
