/**
 * Verifies AWS Signature Version 4 on requests to the test S3 server, in its Authorization header (the
 * SDK's own calls) or its query string (presigned URLs), by the published algorithm: canonical
 * request, string to sign, signing key. s3rver 3 does not: it checks that the access key exists and
 * that a presigned URL has not expired, but takes any V4 signature. Without this, a presigned URL
 * whose expiry was edited, or whose key was swapped for another video's, would pass, and the tests
 * could not tell a correctly signed URL from a forged one.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const ALGORITHM = 'AWS4-HMAC-SHA256';

/** Why the request's signature is refused, or undefined when it is right or the request is unsigned. */
export function signatureProblem(request: IncomingMessage, secretOf: (accessKeyId: string) => string | undefined): string | undefined {
  const url = new URL(request.url ?? '/', 'http://s3.test');
  const query = parseQuery(url.search.slice(1));
  const header = request.headers.authorization;
  const presigned = query.find(([name]) => name === 'X-Amz-Signature');
  if (!header?.startsWith(ALGORITHM) && !presigned) return undefined;

  const fields = header?.startsWith(ALGORITHM) ? headerFields(header) : queryFields(query);
  if (!fields) return 'The signature fields are incomplete.';
  const [accessKeyId, date, region, service, terminator] = fields.credential.split('/');
  const secret = secretOf(accessKeyId ?? '');
  if (!secret || !date || !region || !service || terminator !== 'aws4_request') return 'The credential scope is not valid.';
  const amzDate = presigned ? value(query, 'X-Amz-Date') : String(request.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(date)) return 'The credential date is not the request date.';

  const signedHeaders = fields.signedHeaders.split(';');
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${headerValue(request, name)}\n`).join('');
  const payloadHash = presigned
    ? (query.find(([name]) => name === 'X-Amz-Content-Sha256')?.[1] ?? 'UNSIGNED-PAYLOAD')
    : String(request.headers['x-amz-content-sha256'] ?? '');
  const canonicalRequest = [
    request.method,
    // S3 signs the path as sent: the SDK encodes each key segment once, and S3 does not encode it again.
    url.pathname,
    canonicalQuery(query.filter(([name]) => name !== 'X-Amz-Signature')),
    canonicalHeaders,
    fields.signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = [ALGORITHM, amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = [date, region, service, 'aws4_request'].reduce<Buffer>(
    (key, part) => createHmac('sha256', key).update(part).digest(),
    Buffer.from(`AWS4${secret}`),
  );
  const expected = createHmac('sha256', signingKey).update(stringToSign).digest();
  const given = Buffer.from(fields.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? undefined
    : 'The request signature we calculated does not match the signature you provided.';
}

interface SignatureFields {
  credential: string;
  signedHeaders: string;
  signature: string;
}

function headerFields(header: string): SignatureFields | undefined {
  const parts = new Map(
    header
      .slice(ALGORITHM.length)
      .split(',')
      .map((part) => part.trim().split('=') as [string, string]),
  );
  const [credential, signedHeaders, signature] = [parts.get('Credential'), parts.get('SignedHeaders'), parts.get('Signature')];
  return credential && signedHeaders && signature ? { credential, signedHeaders, signature } : undefined;
}

function queryFields(query: [string, string][]): SignatureFields | undefined {
  const [credential, signedHeaders, signature] = ['X-Amz-Credential', 'X-Amz-SignedHeaders', 'X-Amz-Signature'].map((name) =>
    value(query, name),
  );
  return credential && signedHeaders && signature ? { credential, signedHeaders, signature } : undefined;
}

function value(query: [string, string][], name: string): string {
  return query.find(([key]) => key === name)?.[1] ?? '';
}

function parseQuery(search: string): [string, string][] {
  return search
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return at < 0 ? [decodeURIComponent(pair), ''] : [decodeURIComponent(pair.slice(0, at)), decodeURIComponent(pair.slice(at + 1))];
    });
}

/** RFC 3986 encoding, as SigV4 wants it: everything but A–Z a–z 0–9 - _ . ~ percent-encoded. */
function strictEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function canonicalQuery(query: [string, string][]): string {
  return query
    .map(([name, text]) => `${strictEncode(name)}=${strictEncode(text)}`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .join('&');
}

function headerValue(request: IncomingMessage, name: string): string {
  const raw = request.headers[name];
  return (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).trim().replace(/\s+/g, ' ');
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
