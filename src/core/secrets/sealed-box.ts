/**
 * Authenticated encryption (AES-256-GCM) for values we must keep but must not keep readable, such as
 * an idempotent response that carries a newly minted API key. The key is derived from the service
 * secret and a purpose, so one secret serves several uses without reusing a key.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

export interface SealedBox {
  seal(value: unknown): string;
  open(sealed: string): unknown;
}

export function createSealedBox(secret: string, purpose: string): SealedBox {
  const key = createHmac('sha256', secret).update(`cuepoint sealed box: ${purpose}`).digest();
  return {
    seal(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return `v1.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      return JSON.parse(text);
    },
  };
}
