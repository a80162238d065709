/**
 * Where an API or MCP call came from, for its audit event (core/pipeline/audited-write.ts): the
 * client's address as the public surfaces' per-address limits establish it (the socket's peer, or
 * behind CUEPOINT_TRUSTED_PROXIES the forwarded client; public/http/client-address.ts), and its
 * User-Agent. These callers hold a key or a session: their address is the audit trail's "from where".
 * The public pages record no address at all (their visitors are leads; see docs/people.md).
 */
import type { FastifyRequest } from 'fastify';
import type { CallOrigin } from '../core/pipeline/pipeline.ts';
import type { Cidr } from '../net/address-policy.ts';
import { createClientAddresses } from './public/http/client-address.ts';

export type CallOrigins = (request: FastifyRequest, transport: CallOrigin['transport']) => CallOrigin;

export function createCallOrigins(trustedProxies: readonly Cidr[]): CallOrigins {
  const clients = createClientAddresses(trustedProxies);
  return (request, transport) => {
    const address = clients.of(request);
    const userAgent = request.headers['user-agent'];
    return {
      transport,
      // clientAddress answers `unknown` for a request whose socket has already gone.
      ...(address !== 'unknown' ? { address } : {}),
      ...(typeof userAgent === 'string' && userAgent !== '' ? { userAgent } : {}),
    };
  };
}
