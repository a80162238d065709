/**
 * Whether a state-changing request comes from the service's own pages (DESIGN §10; OWASP CSRF
 * cheat sheet, "Fetch Metadata" and "Verifying Origin"). Browsers send Sec-Fetch-Site on every
 * request, and a page of another site cannot make it say same-origin: when present it decides. Older
 * browsers send only Origin, which must then be PUBLIC_URL's. A request with neither comes from a
 * program, not from a browser another site steered, and is let through to the CSRF token.
 */
import type { FastifyRequest } from 'fastify';

export function isFromOwnOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== new URL(publicUrl).origin) return false;
  return true;
}
