/**
 * IP address text, read the same way wherever it matters: the SSRF guard judging where a request
 * would go (address-policy.ts), and the public side telling its clients apart for their limits
 * (src/transports/public/http/client-address.ts).
 */
import { isIP } from 'node:net';

/** The eight 16-bit groups of a valid IPv6 address, in any textual form. */
export function ipv6Groups(address: string): number[] {
  // The WHATWG parser canonicalises (lower case, dotted IPv4 tails to hex), leaving one `::` at most.
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  if (tail === undefined) return parse(head);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * An address in one spelling per host, or undefined when `text` is not an IP address: IPv4 dotted,
 * IPv6 canonical (lower case, zeros compressed), its zone dropped (`fe80::1%eth0`). An IPv4-mapped
 * IPv6 address (`::ffff:203.0.113.7`, what a dual-stack socket reports for an IPv4 client) is the
 * IPv4 address it carries: the same host must not count as two.
 */
export function canonicalAddress(text: string): string | undefined {
  const percent = text.indexOf('%');
  const bare = percent === -1 ? text : text.slice(0, percent);
  const family = isIP(bare);
  if (family === 4) return bare;
  if (family !== 6) return undefined;
  const groups = ipv6Groups(bare);
  const at = (i: number) => groups[i] ?? 0;
  if (groups.slice(0, 5).every((g) => g === 0) && at(5) === 0xffff) {
    return `${at(6) >> 8}.${at(6) & 0xff}.${at(7) >> 8}.${at(7) & 0xff}`;
  }
  return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
}
