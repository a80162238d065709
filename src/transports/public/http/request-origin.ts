/** Where a signed-in (or signing-in) person's request came from, for their session and the audit log. */
import type { FastifyRequest } from 'fastify';
import type { AddressLimits } from './address-limits.ts';

export function requestOrigin(request: FastifyRequest, addressLimits: AddressLimits): { address: string; userAgent?: string } {
  const userAgent = request.headers['user-agent'];
  return { address: addressLimits.addressOf(request), ...(typeof userAgent === 'string' ? { userAgent } : {}) };
}
