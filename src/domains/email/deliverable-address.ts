/**
 * Which email addresses the service sends to: the common form every mail provider accepts, stricter
 * than RFC 5321 on purpose. A quoted local part, an IP literal, a domain without a dot or a comment
 * is valid in the standard yet refused by most providers and a favourite of header tricks; refusing
 * them where an address enters (a sign-in form, an invitation) gives the person a clear message instead
 * of a message that never arrives.
 */

/** RFC 5321's limits: 64 characters before the @, 254 in all (a path of 256 less its angle brackets). */
const MAX_LOCAL_LENGTH = 64;
const MAX_ADDRESS_LENGTH = 254;
// RFC 5322 atext: letters, digits and these marks; dots only between atoms (no leading, trailing or double dot).
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// A host name label: letters (of any script, sent as punycode), digits and inner hyphens, 1 to 63 characters.
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?$/u;
// The last label names a top-level domain: letters, or an internationalised one's punycode.
const TOP_LEVEL = /^(?:\p{L}[\p{L}\p{M}]+|xn--[a-z0-9-]+)$/iu;

/** Whether `address` (already trimmed) is one the service will send to: `name@example.com`. */
export function isDeliverableAddress(address: string): boolean {
  if (address.length > MAX_ADDRESS_LENGTH) return false;
  const at = address.lastIndexOf('@');
  if (at <= 0) return false;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > MAX_LOCAL_LENGTH || !LOCAL_PART.test(local)) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  return labels.every((label) => DOMAIN_LABEL.test(label)) && TOP_LEVEL.test(labels.at(-1) ?? '');
}

/** An address as it is compared and stored: trimmed, its domain in lower case (the local part is the mailbox's own business). */
export function normalizedAddress(address: string): string {
  const trimmed = address.trim();
  const at = trimmed.lastIndexOf('@');
  return at < 0 ? trimmed : `${trimmed.slice(0, at)}@${trimmed.slice(at + 1).toLowerCase()}`;
}
