/**
 * Which IP addresses outbound requests (video imports, webhook deliveries) may reach. Only plain
 * global unicast is allowed; every special-purpose range is refused unless the operator lists it in
 * CUEPOINT_ALLOW_PRIVATE_NETWORKS, and cloud metadata endpoints are refused whatever that list says,
 * because one request to them can hand out the host's cloud credentials.
 */
import { BlockList, isIP } from 'node:net';
import { ipv6Groups } from './ip-address.ts';

/** Why an address is refused, or 'public' when it is plain global unicast. */
export type AddressRange =
  | 'public'
  | 'metadata'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'carrier_grade_nat'
  | 'documentation'
  | 'benchmarking'
  | 'multicast'
  | 'broadcast'
  | 'teredo'
  | 'reserved'
  | 'invalid';

/** One allow-list entry, validated: its network address (host bits zero) and prefix length. */
export interface Cidr {
  readonly family: 'ipv4' | 'ipv6';
  readonly network: string;
  readonly prefix: number;
  /** Canonical text, such as `127.0.0.0/8`, for logs and messages. */
  readonly text: string;
}

export type AddressVerdict = { allowed: true; range: AddressRange } | { allowed: false; range: Exclude<AddressRange, 'public'> };

export interface AddressPolicy {
  check(address: string): AddressVerdict;
}

/**
 * Credential-bearing endpoints: AWS/GCP/Azure/Oracle/OpenStack IMDS, AWS ECS task credentials, EKS
 * Pod Identity, Alibaba Cloud, Oracle's legacy address. No allow-list entry reaches these.
 */
const METADATA_ADDRESSES = [
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  '100.100.100.200',
  '192.0.0.192',
  'fd00:ec2::254',
  'fd00:ec2::23',
];

// IANA special-purpose registries, most specific first: the first match names the range.
const IPV4_RANGES: [AddressRange, string[]][] = [
  ['unspecified', ['0.0.0.0/8']],
  ['loopback', ['127.0.0.0/8']],
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']],
  ['link_local', ['169.254.0.0/16']],
  ['carrier_grade_nat', ['100.64.0.0/10']],
  ['documentation', ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24']],
  ['benchmarking', ['198.18.0.0/15']],
  ['multicast', ['224.0.0.0/4']],
  ['broadcast', ['255.255.255.255/32']],
  // IETF protocol assignments, the deprecated 6to4 relay anycast, and the old class E.
  ['reserved', ['192.0.0.0/24', '192.88.99.0/24', '240.0.0.0/4']],
];

// Checked after the forms that embed an IPv4 address (mapped, NAT64, 6to4) have been unwrapped.
const IPV6_RANGES: [AddressRange, string[]][] = [
  ['unspecified', ['::/128']],
  ['loopback', ['::1/128']],
  // IPv4-compatible addresses (deprecated), local-use NAT64, discard-only.
  ['reserved', ['::/96', '64:ff9b:1::/48', '100::/64']],
  ['private', ['fc00::/7']],
  ['link_local', ['fe80::/10']],
  ['multicast', ['ff00::/8']],
  // Teredo tunnels end at a relay and an obfuscated client address; nothing we fetch lives there.
  ['teredo', ['2001::/32']],
  ['documentation', ['2001:db8::/32', '3fff::/20']],
  ['benchmarking', ['2001:2::/48']],
  ['reserved', ['2001::/23']],
];

const metadata = new BlockList();
for (const address of METADATA_ADDRESSES) metadata.addAddress(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
const ipv4Ranges = IPV4_RANGES.map(([range, cidrs]) => [range, blockListOf(cidrs.map(parseCidr))] as const);
const ipv6Ranges = IPV6_RANGES.map(([range, cidrs]) => [range, blockListOf(cidrs.map(parseCidr))] as const);
const globalUnicast = blockListOf([parseCidr('2000::/3')]);
const noAllowList = createAddressPolicy([]);

/** The policy for an allow-list. Build it once per configuration; `check` is cheap. */
export function createAddressPolicy(allowPrivateNetworks: readonly Cidr[]): AddressPolicy {
  const allowed = blockListOf(allowPrivateNetworks);
  return {
    check(address) {
      const bare = withoutZone(address);
      const family = isIP(bare);
      if (family === 0) return { allowed: false, range: 'invalid' };
      const { range, effective } = classify(bare, family);
      // The embedded IPv4 of a mapped or NAT64 address is what the packets finally reach.
      if (isIn(metadata, bare) || isIn(metadata, effective)) return { allowed: false, range: 'metadata' };
      if (range === 'public') return { allowed: true, range };
      if (isIn(allowed, bare) || isIn(allowed, effective)) return { allowed: true, range };
      return { allowed: false, range };
    },
  };
}

/** The range an address belongs to, judging IPv6 forms that embed an IPv4 address as that IPv4. */
export function classifyAddress(address: string): AddressRange {
  return noAllowList.check(address).range;
}

function classify(address: string, family: number): { range: AddressRange; effective: string } {
  if (family === 4) return { range: firstMatch(ipv4Ranges, address, 'ipv4') ?? 'public', effective: address };
  const embedded = embeddedIpv4(address);
  if (embedded) return { range: firstMatch(ipv4Ranges, embedded, 'ipv4') ?? 'public', effective: embedded };
  const named = firstMatch(ipv6Ranges, address, 'ipv6');
  if (named) return { range: named, effective: address };
  return { range: globalUnicast.check(address, 'ipv6') ? 'public' : 'reserved', effective: address };
}

/**
 * The IPv4 address carried by an IPv4-mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) or 6to4
 * (2002::/16) address: each of these ends up talking to that IPv4 host, so it is judged as one.
 */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const at = (i: number) => groups[i] ?? 0;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  if (groups.slice(0, 5).every((g) => g === 0) && at(5) === 0xffff) return v4(at(6), at(7));
  if (at(0) === 0x64 && at(1) === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) return v4(at(6), at(7));
  if (at(0) === 0x2002) return v4(at(1), at(2));
  return undefined;
}

/**
 * Parses one allow-list entry: an address (a single host) or `address/prefix`. Refuses host bits
 * after the prefix (`10.0.0.5/8`): such an entry usually means a narrower range than it grants.
 */
export function parseCidr(text: string): Cidr {
  const [address = '', prefixText, extra] = text.trim().split('/');
  const family = address.includes('%') ? 0 : isIP(address);
  if (family === 0 || extra !== undefined) throw new Error(`"${text}" is not an IP address or CIDR range such as 10.0.0.0/8`);
  const bits = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix >= 0 && prefix <= bits)) throw new Error(`"${text}" has a prefix length outside 0 to ${bits}`);
  const bytes = addressBytes(address, family);
  const masked = bytes.map((byte, i) => byte & ((0xff << Math.max(0, Math.min(8, (i + 1) * 8 - prefix))) & 0xff));
  const network = formatAddress(masked, family);
  if (masked.some((byte, i) => byte !== bytes[i]))
    throw new Error(`"${text}" has bits set after the prefix; did you mean ${network}/${prefix}?`);
  return Object.freeze({ family: family === 4 ? 'ipv4' : 'ipv6', network, prefix, text: `${network}/${prefix}` });
}

function blockListOf(cidrs: readonly Cidr[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) list.addSubnet(cidr.network, cidr.prefix, cidr.family);
  return list;
}

function firstMatch(ranges: readonly (readonly [AddressRange, BlockList])[], address: string, family: 'ipv4' | 'ipv6') {
  return ranges.find(([, list]) => list.check(address, family))?.[0];
}

function isIn(list: BlockList, address: string): boolean {
  return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

function withoutZone(address: string): string {
  // Link-local results can carry a zone (`fe80::1%eth0`); the range does not depend on it.
  const percent = address.indexOf('%');
  return percent === -1 ? address : address.slice(0, percent);
}

function addressBytes(address: string, family: number): number[] {
  if (family === 4) return address.split('.').map(Number);
  return ipv6Groups(address).flatMap((group) => [group >> 8, group & 0xff]);
}

function formatAddress(bytes: number[], family: number): string {
  if (family === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}
