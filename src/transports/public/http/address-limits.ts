/**
 * A limit per client address on every public write. The surfaces' other limits count what the
 * client chooses (a page view's token, a viewer id, an email), so a script that loads a page or
 * makes up an id per request was never slowed down; its address it cannot choose (client-address.ts,
 * X-Forwarded-For only from CUEPOINT_TRUSTED_PROXIES). One bucket per kind of write and client
 * group (an IPv4 address, an IPv6 /64), on the API's rate limiter (write-limits.ts), a minute wide.
 *
 * The ceilings are sized for a crowd behind one address, an office, a school or a conference on one
 * NAT, and against what one address could otherwise take (docs/decisions.md, "Per-address limits
 * on the public writes").
 * Signed uploads and Stripe's webhooks are not limited here: their writers hold a credential (an
 * upload URL minted by a limited API call; Stripe's signature), and Stripe sends every workspace's
 * events from the same few addresses.
 */
import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Cidr } from '../../../net/address-policy.ts';
import { addressGroup, createClientAddresses } from './client-address.ts';
import type { WriteLimit } from './write-limits.ts';

/** How many people one address may stand for at once: an office or a conference behind one NAT. */
const CROWD = 800;

export type AddressLimitKind =
  | 'viewing'
  | 'route_events'
  | 'channel_events'
  | 'lead_forms'
  | 'bookings'
  | 'booking_cancels'
  | 'sign_ins'
  | 'account_forms'
  | 'client_registrations';

/** Writes a minute per client address (IPv4) or /64 (IPv6), by kind of write. */
export type AddressCeilings = Readonly<Record<AddressLimitKind, number>>;

export const ADDRESS_CEILINGS: AddressCeilings = Object.freeze({
  // POST /collect. A playing player reports every 5 s, and on pause, seek and leaving: about 15
  // batches a minute, so 12,000 for the crowd. That is 200 a second, about 5% of what one process
  // stores (3,735 a second, docs/performance.md): one address cannot take the service for itself.
  viewing: CROWD * 15,
  // POST /r/{route_id}/events: a step reached and a choice made for each video of a route.
  route_events: CROWD * 4,
  // POST /c/{slug}/events: a page view, and an item or two opened from it.
  channel_events: CROWD * 4,
  // POST /leads/capture and /r/{route_id}/lead, one bucket: a person sends a form once, and a room
  // watching one webinar does not all send it in the same minute. A script that made 1,000 leads a
  // minute makes 30.
  lead_forms: 30,
  // POST /book/{event_type_id}: each booking takes a slot of someone's calendar; a person whose time
  // was just taken tries one or two more.
  bookings: 10,
  // POST /bookings/{booking_id}/cancel: an invitee cancels a call once. Wrong secrets count too.
  booking_cancels: 10,
  // POST /sign-in: every attempt costs an argon2 check (19 MiB, a few ms of a core). The lockout
  // (5 failures an account, 20 an address, a quarter-hour) stops guessing; this stops a flood of
  // attempts from taking the cores, and still lets an office full of people sign in at nine.
  sign_ins: 60,
  // Accepting invitations, asking for sign-in links, changing a password: rare, and each may hash.
  account_forms: 20,
  // POST /oauth/register (RFC 7591, open to anyone): an assistant registers once per person who
  // connects it, or once for all of them; a script filling the table gets 20 rows a minute, which the
  // sweep of unused registrations removes.
  client_registrations: 20,
});

const WHAT: Record<AddressLimitKind, string> = {
  viewing: 'viewing reports',
  route_events: 'route events',
  channel_events: 'channel events',
  lead_forms: 'form submissions',
  bookings: 'bookings',
  booking_cancels: 'cancellations',
  sign_ins: 'sign-in attempts',
  account_forms: 'account requests',
  client_registrations: 'client registrations',
};

export interface AddressLimits {
  /** The limit the request's client draws from for this kind of write; draw it first. */
  of(request: FastifyRequest, kind: AddressLimitKind): WriteLimit;
  /** The client's address itself (trusted proxies considered), for what must name it: sessions, sign-in lockouts. */
  addressOf(request: FastifyRequest): string;
}

export interface AddressLimitOptions {
  /** Keys the buckets' names, so no client address is stored in them, in Redis or elsewhere. */
  secret: string;
  trustedProxies: readonly Cidr[];
  /** Tests lower the ceilings instead of sending thousands of requests. */
  ceilings?: Partial<AddressCeilings>;
}

export function createAddressLimits(options: AddressLimitOptions): AddressLimits {
  const ceilings: AddressCeilings = { ...ADDRESS_CEILINGS, ...options.ceilings };
  const clients = createClientAddresses(options.trustedProxies);
  // An address is personal data, and a plain hash of an IPv4 address is undone by trying all 2^32.
  const pseudonym = (group: string) =>
    createHmac('sha256', options.secret).update(`address-limit:${group}`).digest('base64url').slice(0, 22);
  return {
    of(request, kind) {
      return {
        bucket: `address:${kind}:${pseudonym(addressGroup(clients.of(request)))}`,
        limit: ceilings[kind],
        tooMany: `${WHAT[kind]} from your network`,
      };
    },
    addressOf: (request) => clients.of(request),
  };
}
