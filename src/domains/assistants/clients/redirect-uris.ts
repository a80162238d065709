/**
 * Where an authorization may send a person back to (OAuth 2.1 §2.3.1, RFC 8252 for native apps).
 *
 * A client says which redirect URIs it uses; an authorization request must name one of them exactly,
 * character for character, with one exception: a loopback `http` URI (127.0.0.1, [::1], localhost)
 * matches on any port, since a desktop or command-line assistant listens on whatever port is free when
 * the person connects (RFC 8252 §7.3). Accepted kinds: `https` anywhere; `http` on a loopback host only;
 * a private-use scheme of a native app (`com.example.app:/callback`, `cursor://…`, RFC 8252 §7.1), but
 * none of the schemes a browser would run or read locally.
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Schemes that run code, read local data or are not a place to return to. */
const REFUSED_SCHEMES = new Set([
  'javascript',
  'data',
  'vbscript',
  'file',
  'blob',
  'about',
  'filesystem',
  'view-source',
  'ws',
  'wss',
  'ftp',
  'mailto',
  'tel',
  'sms',
]);
const MAX_REDIRECT_URI_LENGTH = 2000;
/** Control characters and spaces never belong in a URI a browser is sent to. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f]/;

/** What is wrong with `uri` as a redirect URI, in words; empty when it may be registered. */
export function redirectUriProblems(uri: string): string[] {
  if (uri.length === 0) return ['is empty'];
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return [`is longer than ${MAX_REDIRECT_URI_LENGTH} characters`];
  if (UNSAFE_CHARACTERS.test(uri)) return ['contains spaces or control characters'];
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return ['is not an absolute URI'];
  }
  const scheme = url.protocol.slice(0, -1);
  const problems: string[] = [];
  if (url.hash !== '' || uri.includes('#')) problems.push('has a fragment (#…), which OAuth forbids');
  if (url.username !== '' || url.password !== '') problems.push('carries a user name or password');
  if (scheme === 'http') {
    if (!LOOPBACK_HOSTS.has(url.hostname)) problems.push('uses http on a host other than 127.0.0.1, [::1] or localhost: use https');
  } else if (scheme !== 'https' && REFUSED_SCHEMES.has(scheme)) {
    problems.push(`uses the ${scheme}: scheme, which is never a place to return to`);
  }
  return problems;
}

/** Whether `presented` names one of the client's `registered` redirect URIs (exactly; a loopback http one on any port). */
export function redirectUriMatches(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  const wanted = loopbackWithoutPort(presented);
  return wanted !== undefined && registered.some((uri) => loopbackWithoutPort(uri) === wanted);
}

/** A loopback http URI with its port taken out, to compare the rest exactly; undefined for any other URI. */
function loopbackWithoutPort(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  // The rest exactly as written: the path and query the client registered, after the authority.
  const afterAuthority = uri.slice(uri.indexOf('//') + 2).replace(/^[^/?]*/, '');
  return `http://${url.hostname}${afterAuthority}`;
}
