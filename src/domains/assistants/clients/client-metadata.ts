/**
 * A client's metadata, as it registers itself (RFC 7591 §2) or as its client ID metadata document
 * states it (draft-ietf-oauth-client-id-metadata-document): read field by field, every problem named.
 *
 * Every client here is public (an assistant on someone's desktop, or a web app that keeps no secret
 * for us): the token endpoint authenticates nobody, PKCE binds the code to whoever asked for it. A
 * registration that asks for a secret still succeeds, as RFC 7591 §3.2.1 lets a server decide, and the
 * answer says `token_endpoint_auth_method: none`. Grant and response types beyond what Cuepoint
 * issues are refused rather than silently dropped: a client that needs them would fail later, less clearly.
 */
import { redirectUriProblems } from './redirect-uris.ts';

export interface ClientMetadata {
  clientName: string;
  clientUri: string | null;
  redirectUris: string[];
}

export type MetadataReading =
  | { ok: true; metadata: ClientMetadata }
  | { ok: false; code: 'invalid_redirect_uri' | 'invalid_client_metadata'; problems: string[] };

export const MAX_REDIRECT_URIS = 10;
const MAX_NAME_LENGTH = 200;
const MAX_URI_LENGTH = 2000;
const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);
const RESPONSE_TYPES = new Set(['code']);
/** What a public client may say it authenticates with; a secret is never issued, whatever it asks. */
const AUTH_METHODS = new Set(['none', 'client_secret_basic', 'client_secret_post']);
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Reads `body` as client metadata. `document`: it came from a metadata document, which may not claim a
 * shared secret (a public URL cannot keep one) and must name the client.
 */
export function readClientMetadata(body: unknown, { document = false } = {}): MetadataReading {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, code: 'invalid_client_metadata', problems: ['the metadata must be a JSON object'] };
  }
  const fields = body as Record<string, unknown>;
  const problems: string[] = [];
  const redirectProblems: string[] = [];

  const name = fields.client_name;
  let clientName = '';
  if (name === undefined) {
    if (document) problems.push('client_name is required');
  } else if (typeof name !== 'string' || name.trim() === '') {
    problems.push('client_name must be a non-empty string');
  } else if (name.length > MAX_NAME_LENGTH) {
    problems.push(`client_name must be at most ${MAX_NAME_LENGTH} characters`);
  } else if (CONTROL_CHARACTERS.test(name)) {
    problems.push('client_name must not contain control characters');
  } else {
    clientName = name.trim();
  }

  const uris = fields.redirect_uris;
  const redirectUris: string[] = [];
  if (!Array.isArray(uris) || uris.length === 0) {
    redirectProblems.push('redirect_uris must be a non-empty array of URIs');
  } else if (uris.length > MAX_REDIRECT_URIS) {
    redirectProblems.push(`redirect_uris must list at most ${MAX_REDIRECT_URIS} URIs`);
  } else {
    for (const [index, uri] of uris.entries()) {
      if (typeof uri !== 'string') {
        redirectProblems.push(`redirect_uris[${index}] must be a string`);
        continue;
      }
      const found = redirectUriProblems(uri);
      if (found.length > 0) redirectProblems.push(...found.map((problem) => `redirect_uris[${index}] ${problem}`));
      else if (!redirectUris.includes(uri)) redirectUris.push(uri);
    }
  }

  const clientUri = readHttpsUri(fields.client_uri, 'client_uri', problems);
  checkSubset(fields.grant_types, 'grant_types', GRANT_TYPES, problems);
  checkSubset(fields.response_types, 'response_types', RESPONSE_TYPES, problems);
  const method = fields.token_endpoint_auth_method;
  if (method !== undefined) {
    if (typeof method !== 'string' || !AUTH_METHODS.has(method)) {
      problems.push(`token_endpoint_auth_method must be one of ${[...AUTH_METHODS].join(', ')} (every client here is public: none)`);
    } else if (document && method !== 'none') {
      problems.push('token_endpoint_auth_method must be none in a client ID metadata document: a public document cannot keep a secret');
    }
  }
  if (document && (fields.client_secret !== undefined || fields.client_secret_expires_at !== undefined)) {
    problems.push('a client ID metadata document must not contain a client_secret');
  }

  if (redirectProblems.length > 0) {
    return { ok: false, code: 'invalid_redirect_uri', problems: [...redirectProblems, ...problems] };
  }
  if (problems.length > 0) return { ok: false, code: 'invalid_client_metadata', problems };
  return { ok: true, metadata: { clientName: clientName || defaultName(redirectUris), clientUri, redirectUris } };
}

/** A client that gave no name is shown by where it sends people back to: that is what a person can check. */
function defaultName(redirectUris: readonly string[]): string {
  const first = redirectUris[0] ?? '';
  try {
    const url = new URL(first);
    return url.host || url.protocol.slice(0, -1);
  } catch {
    return 'Unnamed application';
  }
}

function readHttpsUri(value: unknown, field: string, problems: string[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > MAX_URI_LENGTH || CONTROL_CHARACTERS.test(value)) {
    problems.push(`${field} must be an https URL of at most ${MAX_URI_LENGTH} characters`);
    return null;
  }
  try {
    if (new URL(value).protocol === 'https:') return value;
  } catch {
    // named below
  }
  problems.push(`${field} must be an https URL`);
  return null;
}

function checkSubset(value: unknown, field: string, allowed: ReadonlySet<string>, problems: string[]): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.length > 10 || value.some((item) => typeof item !== 'string' || !allowed.has(item))) {
    problems.push(`${field} must be an array of ${[...allowed].join(', ')}`);
  }
}
