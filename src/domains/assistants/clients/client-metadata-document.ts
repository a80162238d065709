/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document; the MCP authorization
 * spec's preferred way for a client to be known): the client's `client_id` is an https URL, and the
 * JSON document at that URL is its registration. The service fetches it through the SSRF guard
 * (src/net/safe-fetch.ts: checked addresses, no redirects, 5 KiB, 5 s; TLS trusts what Node trusts,
 * NODE_EXTRA_CA_CERTS included), refuses a document whose `client_id` is not exactly its own URL, and
 * keeps what it read for as long as the document's Cache-Control allows, within a minute and a day.
 */
import { OutboundRequestError } from '../../../net/outbound-error.ts';
import { type SafeFetchOptions, safeFetchBuffered } from '../../../net/safe-fetch.ts';
import { type ClientMetadata, readClientMetadata } from './client-metadata.ts';

/** Fetches a document: the guarded fetch in the service, something else only in tests. */
export type DocumentFetch = (url: URL) => Promise<{ status: number; headers: Headers; body: Uint8Array }>;

export type DocumentReading = { ok: true; metadata: ClientMetadata; freshUntil: Date } | { ok: false; problems: string[] };

/** The draft's advice: a document is small; a client whose host is slow is not worth a person's wait. */
export const DOCUMENT_MAX_BYTES = 5 * 1024;
export const DOCUMENT_TIMEOUT_MS = 5_000;
const MIN_FRESH_MS = 60_000;
const MAX_FRESH_MS = 24 * 60 * 60 * 1000;
const DEFAULT_FRESH_MS = 60 * 60 * 1000;
const MAX_CLIENT_ID_LENGTH = 2000;

/** The service's fetch for documents: the SSRF guard with the document limits, no redirects followed. */
export function guardedDocumentFetch(options: Pick<SafeFetchOptions, 'allowPrivateNetworks' | 'lookup'> = {}): DocumentFetch {
  return (url) =>
    safeFetchBuffered(url, {
      ...options,
      headers: { accept: 'application/json' },
      maxBytes: DOCUMENT_MAX_BYTES,
      timeoutMs: DOCUMENT_TIMEOUT_MS,
      followRedirects: false,
    });
}

/** Whether `clientId` is a metadata document's URL (anything else is a registered client's id). */
export function isDocumentClientId(clientId: string): boolean {
  return clientId.startsWith('https://');
}

/** What is wrong with `clientId` as a document URL (the draft's §3 rules); empty when it may be fetched. */
export function documentUrlProblems(clientId: string): string[] {
  if (clientId.length > MAX_CLIENT_ID_LENGTH) return [`client_id is longer than ${MAX_CLIENT_ID_LENGTH} characters`];
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return ['client_id is not a URL'];
  }
  const problems: string[] = [];
  if (url.protocol !== 'https:') problems.push('client_id must be an https URL');
  if (url.pathname === '/' || url.pathname === '') problems.push('client_id must have a path');
  if (clientId.includes('#')) problems.push('client_id must not have a fragment');
  if (url.username !== '' || url.password !== '') problems.push('client_id must not carry a user name or password');
  if (/\/\.\.?(\/|$)/.test(clientId.replace(/[?#].*$/, ''))) problems.push('client_id must not contain . or .. path segments');
  return problems;
}

/** Fetches and reads the document at `clientId`, as of `now`. */
export async function readMetadataDocument(clientId: string, fetchDocument: DocumentFetch, now: Date): Promise<DocumentReading> {
  const urlProblems = documentUrlProblems(clientId);
  if (urlProblems.length > 0) return { ok: false, problems: urlProblems };
  let response: Awaited<ReturnType<DocumentFetch>>;
  try {
    response = await fetchDocument(new URL(clientId));
  } catch (error) {
    if (error instanceof OutboundRequestError)
      return { ok: false, problems: [`the client's metadata document could not be fetched: ${error.message}`] };
    throw error;
  }
  if (response.status !== 200) {
    return { ok: false, problems: [`the client's metadata document answered ${response.status}, not 200`] };
  }
  let document: unknown;
  try {
    document = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(response.body));
  } catch {
    return { ok: false, problems: ["the client's metadata document is not JSON"] };
  }
  const claimed = (document as { client_id?: unknown } | null)?.client_id;
  if (claimed !== clientId) {
    return { ok: false, problems: [`the client's metadata document must say client_id ${JSON.stringify(clientId)}, exactly its own URL`] };
  }
  const reading = readClientMetadata(document, { document: true });
  if (!reading.ok) return { ok: false, problems: reading.problems.map((problem) => `the client's metadata document: ${problem}`) };
  return { ok: true, metadata: reading.metadata, freshUntil: new Date(now.getTime() + freshFor(response.headers.get('cache-control'))) };
}

/** How long a reading holds: the document's max-age, kept within a minute and a day; an hour when it says nothing. */
function freshFor(cacheControl: string | null): number {
  if (cacheControl === null) return DEFAULT_FRESH_MS;
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(cacheControl)) return MIN_FRESH_MS;
  const maxAge = /(^|,)\s*max-age\s*=\s*"?(\d{1,10})"?\s*(,|$)/i.exec(cacheControl);
  if (!maxAge) return DEFAULT_FRESH_MS;
  return Math.min(MAX_FRESH_MS, Math.max(MIN_FRESH_MS, Number(maxAge[2]) * 1000));
}
