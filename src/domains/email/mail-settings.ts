/**
 * What the service sends mail with, read from CUEPOINT_SMTP_URL and CUEPOINT_MAIL_FROM by
 * src/config.ts (which names the variable in each problem). The parsers answer a settings object or
 * the sentence that says what is wrong, so a mistyped URL stops the start instead of failing every
 * message later.
 */
import { isIP } from 'node:net';
import { isDeliverableAddress, normalizedAddress } from './deliverable-address.ts';
import { cleanHeaderText, MAX_DISPLAY_NAME_LENGTH } from './header-text.ts';

export interface SmtpSettings {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte (port 465 by default). */
  secure: boolean;
  auth: { user: string; pass: string } | null;
  /**
   * smtp:// with credentials to anything but this machine: STARTTLS or no message, so a password
   * never crosses a network in the clear. A plain local relay (smtp://127.0.0.1:2525) needs no TLS.
   */
  requireTls: boolean;
  /** For the log: scheme, host and port, never the credentials. */
  description: string;
}

export interface MailFrom {
  address: string;
  name: string | null;
}

/** Where a URL names no port: submission (587) for smtp://, implicit TLS (465) for smtps://. */
const DEFAULT_PORTS = { 'smtp:': 587, 'smtps:': 465 } as const;

export function parseSmtpUrl(text: string): SmtpSettings | { problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'is not a URL' };
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return { problem: 'must start with smtp:// or smtps://' };
  if (!url.hostname) return { problem: 'names no server' };
  if ((url.pathname !== '' && url.pathname !== '/') || url.search || url.hash) {
    return { problem: 'must be only scheme, credentials, server and port (no path, query or fragment)' };
  }
  if (Boolean(url.username) !== Boolean(url.password)) {
    return { problem: 'must hold both a user name and a password (user:password@), or neither' };
  }
  let auth: SmtpSettings['auth'] = null;
  if (url.username) {
    try {
      auth = { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
    } catch {
      return { problem: 'has credentials that are not percent-encoded properly (write @ as %40, : as %3A)' };
    }
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol];
  const secure = url.protocol === 'smtps:';
  return {
    host,
    port,
    secure,
    auth,
    requireTls: !secure && auth !== null && !isLoopback(host),
    description: `${url.protocol}//${url.host}`,
  };
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** `videos@example.com`, `Cuepoint <videos@example.com>` or `"Cuepoint, Inc." <videos@example.com>`. */
export function parseMailFrom(text: string): MailFrom | { problem: string } {
  const trimmed = text.trim();
  const named = /^(.*?)\s*<([^<>\s]+)>$/s.exec(trimmed);
  const address = normalizedAddress(named ? (named[2] ?? '') : trimmed);
  if (!isDeliverableAddress(address))
    return { problem: 'must be an address such as videos@example.com, or "Cuepoint <videos@example.com>"' };
  const rawName = (named?.[1] ?? '').replace(/^"(.*)"$/s, '$1');
  if (/[\p{Cc}"\\]/u.test(rawName)) return { problem: 'has a display name with quotes, backslashes or control characters' };
  const name = cleanHeaderText(rawName, MAX_DISPLAY_NAME_LENGTH);
  return { address, name: name || null };
}
