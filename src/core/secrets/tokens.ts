/**
 * Credential strings (DESIGN §4): `cue_live_` (API key) or `cue_asst_` (assistant token), then 32
 * random base62 characters and a 6-character base62 CRC32 of them, as GitHub's tokens do. The
 * checksum lets us, and secret scanners, reject a mistyped or made-up string without a database
 * lookup. Only the SHA-256 of the whole string is stored.
 */
import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export type CredentialKind = 'api_key' | 'assistant';

const PREFIX: Record<CredentialKind, string> = { api_key: 'cue_live_', assistant: 'cue_asst_' };
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const TOKEN_PATTERN = /^cue_(live|asst)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;
/** How much of a token lists may show: the prefix and three random characters. */
export const DISPLAY_PREFIX_LENGTH = 12;

export interface NewToken {
  token: string;
  prefix: string;
  hash: string;
}

export function generateToken(kind: CredentialKind): NewToken {
  const random = randomBase62(RANDOM_LENGTH);
  const token = `${PREFIX[kind]}${random}${checksum(random)}`;
  return { token, prefix: token.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashToken(token) };
}

/** The kind a well-formed token claims to be, or undefined for anything malformed. */
export function parseToken(token: string): CredentialKind | undefined {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return undefined;
  const [, family, random, sum] = match;
  if (checksum(random as string) !== sum) return undefined;
  return family === 'live' ? 'api_key' : 'assistant';
}

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

function checksum(text: string): string {
  let value = crc32(text);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting the top bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}
