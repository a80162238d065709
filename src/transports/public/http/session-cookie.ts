/**
 * The dashboard's session cookie (DESIGN §10): HttpOnly, SameSite=Lax, path /, and Secure when the
 * service is served over https, where it also takes the `__Host-` prefix (the browser then refuses it
 * unless it is Secure, host-only and path /, so a sibling subdomain cannot plant one). Its value is the
 * session's secret; the server keeps only its hash.
 */
import type { FastifyRequest } from 'fastify';

export interface SessionCookies {
  /** The secret the request's cookie carries, if any. */
  read(request: FastifyRequest): string | undefined;
  /** A Set-Cookie value holding `secret` for `maxAgeSeconds`. */
  set(secret: string, maxAgeSeconds: number): string;
  /** A Set-Cookie value that removes it. */
  clear(): string;
}

export function sessionCookies(publicUrl: string): SessionCookies {
  const secure = new URL(publicUrl).protocol === 'https:';
  const name = secure ? '__Host-cuepoint_session' : 'cuepoint_session';
  const attributes = `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  return {
    read(request) {
      const header = request.headers.cookie;
      if (typeof header !== 'string' || header.length > 8192) return undefined;
      for (const part of header.split(';')) {
        const at = part.indexOf('=');
        if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
      }
      return undefined;
    },
    set: (secret, maxAgeSeconds) => `${name}=${secret}; Max-Age=${Math.floor(maxAgeSeconds)}; ${attributes}`,
    clear: () => `${name}=; Max-Age=0; ${attributes}`,
  };
}
