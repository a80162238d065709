/**
 * Verifying a Stripe webhook the way Stripe documents it: the `Stripe-Signature` header holds a
 * timestamp `t` and one or more `v1` signatures (several while a secret is being rolled); each is
 * HMAC-SHA256, keyed by the endpoint's signing secret (`whsec_…`, used as it is), of `t.` followed
 * by the raw request body. The body is never re-serialised: a parsed and re-written JSON would not
 * be the bytes Stripe signed. A timestamp more than TOLERANCE_SECONDS away from our clock is refused,
 * so a captured request cannot be replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The sealed box purpose of the workspace's Stripe signing secret (workspaces.stripe_signing_secret). */
export const STRIPE_SECRET_PURPOSE = 'stripe-webhook';
export const TOLERANCE_SECONDS = 300;
/** A header is a few dozen bytes per signature; anything longer is not Stripe's. */
const MAX_HEADER_LENGTH = 2048;

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' };

export function verifyStripeSignature(rawBody: Buffer, header: string | undefined, secret: string, now: Date): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing' };
  if (header.length > MAX_HEADER_LENGTH) return { ok: false, reason: 'malformed' };
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't') timestamp = value;
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) return { ok: false, reason: 'malformed' };
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  // Every candidate is compared, so the time taken says nothing about which one came close.
  let matched = false;
  for (const signature of signatures) matched = timingSafeEqual(signature, expected) || matched;
  if (!matched) return { ok: false, reason: 'mismatch' };
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return { ok: false, reason: 'stale' };
  return { ok: true };
}
