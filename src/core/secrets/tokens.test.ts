import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateToken, hashToken, parseToken } from './tokens.ts';

test('tokens carry their kind, 32 random base62 characters and a CRC32 checksum', () => {
  const live = generateToken('api_key');
  const assistant = generateToken('assistant');
  assert.match(live.token, /^cue_live_[0-9A-Za-z]{38}$/);
  assert.match(assistant.token, /^cue_asst_[0-9A-Za-z]{38}$/);
  assert.equal(live.prefix, live.token.slice(0, 12));
  assert.equal(live.hash, hashToken(live.token));
  assert.match(live.hash, /^[0-9a-f]{64}$/);
  assert.equal(parseToken(live.token), 'api_key');
  assert.equal(parseToken(assistant.token), 'assistant');
  assert.notEqual(generateToken('api_key').token, live.token);
});

test('malformed tokens are recognised without a lookup', () => {
  const { token } = generateToken('api_key');
  const flipped = `${token.slice(0, 20)}${token[20] === 'a' ? 'b' : 'a'}${token.slice(21)}`;
  for (const bad of [
    flipped,
    token.slice(0, -1),
    `${token}x`,
    token.replace('cue_live_', 'cue_test_'),
    token.replace('cue_live_', 'sk_live_'),
    '',
    'Bearer',
  ]) {
    assert.equal(parseToken(bad), undefined, bad);
  }
});
