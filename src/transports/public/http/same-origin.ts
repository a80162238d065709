/**
 * Whether a state-changing request comes from the service's own pages (DESIGN §10; OWASP CSRF
 * cheat sheet, "Fetch Metadata" and "Verifying Origin"). Browsers send Sec-Fetch-Site and Origin on
 * every POST; a page of another site cannot make them say same-origin. A request with neither comes
 * from a program, not from a browser another site steered, and is let through to the CSRF token.
 */
import type { FastifyRequest } from 'fastify';

export function isFromOwnOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== new URL(publicUrl).origin) return false;
  return true;
}
