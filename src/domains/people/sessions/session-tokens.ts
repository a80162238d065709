/**
 * The secret a session cookie (or an emailed link) carries: 32 random bytes in base64url. Only its
 * SHA-256 is stored, so a copy of the database signs nobody in. The CSRF token of a session is an HMAC
 * of its id under the service secret: forms carry it, and a page of another origin cannot read it.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function newSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Whether `text` could be a secret newSecret made: 43 base64url characters. Anything else is not looked up. */
export function isWellFormedSecret(text: string | undefined): text is string {
  return typeof text === 'string' && /^[A-Za-z0-9_-]{43}$/.test(text);
}

export function csrfTokenFor(serviceSecret: string, sessionId: string): string {
  return createHmac('sha256', serviceSecret).update(`csrf:${sessionId}`).digest('base64url');
}

export function csrfTokenMatches(serviceSecret: string, sessionId: string, sent: unknown): boolean {
  if (typeof sent !== 'string') return false;
  const expected = Buffer.from(csrfTokenFor(serviceSecret, sessionId));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
