/**
 * Standard Webhooks signing: HMAC-SHA256, keyed with the secret's decoded bytes, over
 * `${webhook-id}.${webhook-timestamp}.${body}`, written `v1,<base64>`; several signatures (one per
 * live secret, during a rotation) are separated by spaces, and receivers accept any that matches.
 */
import { createHmac } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from './webhook-secrets.ts';

export function signatureHeader(messageId: string, timestampSeconds: number, body: string, secrets: readonly string[]): string {
  return secrets.map((secret) => `v1,${sign(messageId, timestampSeconds, body, secret)}`).join(' ');
}

function sign(messageId: string, timestampSeconds: number, body: string, secret: string): string {
  const key = Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, 'base64');
  return createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
}
