/**
 * Whether a user-supplied URL may be fetched: http or https, no credentials, and every address its
 * host resolves to allowed by the address policy. Used when a URL is submitted (a fast, clear
 * refusal) and again by safeFetch on every request and redirect hop, because DNS answers change.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type AddressPolicy, type AddressRange, type Cidr, createAddressPolicy } from './address-policy.ts';
import { abortedError, OutboundRequestError } from './outbound-error.ts';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a hostname to all its addresses. Injectable so tests need no DNS. */
export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface CheckUrlOptions {
  /** The operator's allow-list (Config.allowPrivateNetworks). Default: empty. */
  allowPrivateNetworks?: readonly Cidr[];
  /** Default: dns.lookup with `all: true`, the resolver sockets use (it reads /etc/hosts). */
  lookup?: Lookup;
  /** Longest URL accepted, in characters. Default 4096: pre-signed storage URLs run long. */
  maxUrlLength?: number;
  signal?: AbortSignal;
}

export interface CheckedUrl {
  url: URL;
  /** The host's addresses, every one allowed; connections go to these and nowhere else. */
  addresses: ResolvedAddress[];
}

export const DEFAULT_MAX_URL_LENGTH = 4096;

const RANGE_WORDS: Record<AddressRange, string> = {
  public: 'a public address',
  metadata: 'a cloud metadata address',
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private network address',
  link_local: 'a link-local address',
  carrier_grade_nat: 'a carrier-grade NAT address',
  documentation: 'a documentation address',
  benchmarking: 'a benchmarking address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  teredo: 'a Teredo tunnel address',
  reserved: 'a reserved address',
  invalid: 'an invalid address',
};

const policies = new WeakMap<readonly Cidr[], AddressPolicy>();

export function policyFor(allowPrivateNetworks: readonly Cidr[] = []): AddressPolicy {
  let policy = policies.get(allowPrivateNetworks);
  if (!policy) {
    policy = createAddressPolicy(allowPrivateNetworks);
    policies.set(allowPrivateNetworks, policy);
  }
  return policy;
}

/** Scheme, credentials and length only; no DNS. Accepts a string or a URL the caller resolved. */
export function parseOutboundUrl(input: string | URL, maxUrlLength = DEFAULT_MAX_URL_LENGTH): URL {
  const text = String(input);
  if (text.length > maxUrlLength) throw new OutboundRequestError('invalid_url', `The URL is longer than ${maxUrlLength} characters.`);
  let url: URL;
  try {
    // The WHATWG parser also normalises the odd IPv4 spellings (127.1, 2130706433, 0x7f.1, 0177.0.0.1).
    url = new URL(text);
  } catch {
    throw new OutboundRequestError('invalid_url', 'The URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundRequestError('invalid_url', `Only http and https URLs can be fetched, not ${url.protocol.slice(0, -1)}.`, {
      url: redacted(url),
    });
  }
  if (url.username !== '' || url.password !== '') {
    throw new OutboundRequestError('invalid_url', 'The URL must not contain a user name or password.', { url: redacted(url) });
  }
  return url;
}

/** Parses, resolves and checks a URL; throws OutboundRequestError when it may not be fetched. */
export async function checkUrl(input: string | URL, options: CheckUrlOptions = {}): Promise<CheckedUrl> {
  const url = parseOutboundUrl(input, options.maxUrlLength);
  const policy = policyFor(options.allowPrivateNetworks);
  const host = hostnameOf(url);
  // An IP literal never reaches a resolver (nor Node's connect-time lookup): check it as written.
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await resolve(url, host, options);
  for (const { address } of addresses) {
    const refused = refusalOf(policy, url, address, literal !== 0);
    if (refused) throw refused;
  }
  return { url, addresses };
}

/**
 * The fast half of checkUrl, for a request handler that hands the fetch to a worker: a host written
 * as an IP address (in any spelling the URL parser normalises: 127.1, 0x7f.1, 2130706433,
 * [::ffff:127.0.0.1]) is judged now, with no DNS, and refused with blocked_address. Names are left
 * to checkUrl when the fetch happens, since what they resolve to can change until then.
 */
export function refuseLiteralHost(url: URL, allowPrivateNetworks: readonly Cidr[] = []): void {
  const host = hostnameOf(url);
  if (isIP(host) === 0) return;
  const refused = refusalOf(policyFor(allowPrivateNetworks), url, host, true);
  if (refused) throw refused;
}

function refusalOf(policy: AddressPolicy, url: URL, address: string, literal: boolean): OutboundRequestError | undefined {
  const verdict = policy.check(address);
  if (verdict.allowed) return undefined;
  const host = hostnameOf(url);
  // The user typed a literal, so naming it tells them nothing new; a resolved address stays in our logs.
  const subject = literal ? `${host} is` : `${host} resolves to`;
  // Metadata addresses stay refused whatever the allow-list says, so only the others get the hint.
  const hint =
    verdict.range === 'metadata' || verdict.range === 'invalid'
      ? ''
      : ' The server’s operator can allow such addresses with CUEPOINT_ALLOW_PRIVATE_NETWORKS.';
  return new OutboundRequestError('blocked_address', `${subject} ${RANGE_WORDS[verdict.range]}, which cannot be fetched.${hint}`, {
    url: url.href,
    address,
  });
}

/** The host as sockets see it: IPv6 literals without their brackets. */
export function hostnameOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

async function resolve(url: URL, host: string, options: CheckUrlOptions): Promise<ResolvedAddress[]> {
  const lookup = options.lookup ?? defaultLookup;
  let addresses: ResolvedAddress[];
  try {
    addresses = await abortable(lookup(host), options.signal);
  } catch (error) {
    if (options.signal?.aborted) throw abortedError(options.signal, url.href);
    throw new OutboundRequestError('dns_failure', `The host ${host} could not be resolved.`, { url: url.href, cause: error });
  }
  if (addresses.length === 0) throw new OutboundRequestError('dns_failure', `The host ${host} has no addresses.`, { url: url.href });
  return addresses;
}

const defaultLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' });

/** getaddrinfo cannot be cancelled, but the caller's deadline need not wait for it. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolvePromise, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolvePromise, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function redacted(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}
