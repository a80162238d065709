/**
 * An undici Client that can only connect to addresses already checked. Its socket lookup answers
 * with those addresses whatever it is asked, so a DNS answer that changes between the check and the
 * connect (DNS rebinding) is never consulted. The URL keeps its hostname, so TLS still verifies the
 * certificate for that name (rewriting the URL to the IP would break SNI and the check).
 */
import type { LookupAddress } from 'node:dns';
import { createRequire } from 'node:module';
import type { LookupFunction } from 'node:net';
import type { Client } from 'undici';
import type { AddressPolicy } from './address-policy.ts';
import type { ResolvedAddress } from './check-url.ts';
import { OutboundRequestError } from './outbound-error.ts';

export interface PinnedClientOptions {
  addresses: readonly ResolvedAddress[];
  policy: AddressPolicy;
  connectTimeoutMs: number;
  /** Called with the address the socket really connected to, for logs. */
  onConnected?: (remoteAddress: string) => void;
}

/** A socket lookup that returns the checked addresses, never asking a resolver. */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const first = wanted[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error('No checked address of the requested family');
      error.code = 'ENOTFOUND';
      return callback(error, '', 0);
    }
    if (options.all)
      return callback(
        null,
        wanted.map((a): LookupAddress => ({ address: a.address, family: a.family })),
      );
    callback(null, first.address, first.family);
  };
}

export function createPinnedClient(origin: URL, options: PinnedClientOptions): Client {
  // Loaded on the first outbound request (a webhook, an import, a calendar feed): undici is 109 files
  // that a start need not read.
  const { buildConnector, Client } = createRequire(import.meta.url)('undici') as typeof import('undici');
  const connectTimeout = options.connectTimeoutMs;
  const connectPinned = buildConnector({ lookup: pinnedLookup(options.addresses), timeout: connectTimeout });
  return new Client(origin.origin, {
    connectTimeout,
    connect(connectOptions, callback) {
      connectPinned(connectOptions, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('No socket'), null);
        // A tripwire, not the defence: the lookup above already decided where this goes.
        const remote = socket.remoteAddress ?? '';
        if (!options.policy.check(remote).allowed) {
          socket.destroy();
          return callback(
            new OutboundRequestError('blocked_address', `${origin.host} is not an allowed address.`, { url: origin.href, address: remote }),
            null,
          );
        }
        options.onConnected?.(remote);
        callback(null, socket);
      });
    },
  });
}
