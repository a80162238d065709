/**
 * Which client a public request comes from, for the per-address limits (address-limits.ts).
 *
 * The address is the connection's peer. Only when that peer is one of the operator's own proxies
 * (CUEPOINT_TRUSTED_PROXIES: load balancers, CDN edges) is X-Forwarded-For read, from the right:
 * each trusted proxy appends the address it was reached from, so the entries are skipped while they
 * are trusted proxies too, and the first that is not is the client. Whatever lies left of it was
 * written by the client and is never read, so a forged header cannot choose the bucket. With no
 * trusted proxies (the default) the header is ignored altogether.
 *
 * Clients are then grouped (`addressGroup`): an IPv4 address is one client; an IPv6 client is its
 * /64, since a single host usually holds a whole /64 and can change addresses within it at will.
 */
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Cidr } from '../../../net/address-policy.ts';
import { canonicalAddress, ipv6Groups } from '../../../net/ip-address.ts';

/** What a request without a peer address (its socket already gone) is counted as. */
const UNKNOWN = 'unknown';

export interface ClientAddresses {
  /** The client's address, canonical (an IPv4-mapped IPv6 address as its IPv4). */
  of(request: FastifyRequest): string;
}

export function createClientAddresses(trustedProxies: readonly Cidr[]): ClientAddresses {
  const trusted = new BlockList();
  for (const cidr of trustedProxies) trusted.addSubnet(cidr.network, cidr.prefix, cidr.family);
  const isTrusted = (address: string) => trusted.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  let warned = false;
  return {
    of(request) {
      const forwardedFor = request.headers['x-forwarded-for'];
      if (trustedProxies.length === 0) {
        // Said once: behind a proxy, every client would otherwise silently share the proxy's limits.
        if (forwardedFor !== undefined && !warned) {
          warned = true;
          request.log.warn(
            'X-Forwarded-For is ignored because CUEPOINT_TRUSTED_PROXIES is not set; behind a load balancer or CDN, set it to their addresses, or every client behind them shares one per-address limit',
          );
        }
        return clientAddress(request.socket?.remoteAddress, undefined, isTrusted);
      }
      return clientAddress(request.socket?.remoteAddress, forwardedFor, isTrusted);
    },
  };
}

/**
 * The client behind `peer`: `peer` itself unless it is trusted, else the rightmost X-Forwarded-For
 * entry that is not a trusted proxy. An entry that is not an address stops the walk at the last
 * trusted hop: a proxy never writes one, so it came from whoever reached that hop.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  isTrusted: (address: string) => boolean,
): string {
  let client = peer === undefined ? undefined : canonicalAddress(peer);
  if (client === undefined) return UNKNOWN;
  if (forwardedFor === undefined) return client;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  for (let i = hops.length - 1; i >= 0 && isTrusted(client); i--) {
    const hop = hopAddress(hops[i] as string);
    if (hop === undefined) break;
    client = hop;
  }
  return client;
}

/** One X-Forwarded-For entry as an address: bare, quoted, `[v6]`, `[v6]:port` or `v4:port` (some proxies add the port). */
function hopAddress(entry: string): string | undefined {
  let text = entry.trim().replace(/^"(.*)"$/, '$1');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1] as string;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.indexOf(':'));
  return canonicalAddress(text);
}

/** The group a client's limits are counted for: an IPv4 address, or an IPv6 address's /64. */
export function addressGroup(address: string): string {
  if (isIP(address) !== 6) return address;
  const network = ipv6Groups(address)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':');
  return `${canonicalAddress(`${network}::`)}/64`;
}
