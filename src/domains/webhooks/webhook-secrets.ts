/**
 * Endpoint signing secrets (Standard Webhooks): `whsec_` + base64 of 32 random bytes, shown to the
 * user once. Signing needs the secret itself, so it is kept sealed (AES-256-GCM under a key derived
 * from the service secret), never hashed. After a rotation the previous secret keeps signing too,
 * for ROTATION_OVERLAP_MS, so receivers can switch over without rejecting anything.
 */
import { randomBytes } from 'node:crypto';
import type { SealedBox } from '../../core/secrets/sealed-box.ts';

export const WEBHOOK_SECRET_PURPOSE = 'webhook signing secrets';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export interface SealedSecrets {
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
}

/** Thrown when a stored secret cannot be opened: CUEPOINT_SECRET changed since it was sealed. */
export class UnreadableSecretError extends Error {
  override name = 'UnreadableSecretError';
}

/**
 * The secrets to sign with at `now`: the current one, and the previous one while its overlap lasts
 * (left out if it cannot be read: the rotation was made to get past exactly that).
 */
export function signingSecretsAt(endpoint: SealedSecrets, box: SealedBox, now: Date): string[] {
  const secrets = [open(box, endpoint.secret_sealed)];
  const expires = endpoint.previous_secret_expires_at;
  if (endpoint.previous_secret_sealed && expires && expires.getTime() > now.getTime()) {
    try {
      secrets.push(open(box, endpoint.previous_secret_sealed));
    } catch {
      // Sign with the current secret alone.
    }
  }
  return secrets;
}

function open(box: SealedBox, sealed: string): string {
  try {
    return String(box.open(sealed));
  } catch {
    throw new UnreadableSecretError(
      'The endpoint’s signing secret cannot be read: the service secret (CUEPOINT_SECRET) changed since it was made. Rotate the secret.',
    );
  }
}
