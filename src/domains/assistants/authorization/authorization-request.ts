/**
 * Reading an authorization request (GET /oauth/authorize: OAuth 2.1 §4.1.1, RFC 7636, RFC 8707) in the
 * order that keeps it safe:
 *
 * 1. The client and the redirect URI first. Until both are known good, nothing is sent back to the
 *    redirect URI (that would make the endpoint an open redirector, OAuth 2.1 §7.12.2): the person is
 *    shown what is wrong instead (`unanswerable`).
 * 2. Then everything else, each refusal sent back to the client's redirect URI with `state` and `iss`
 *    (`refused`): the response type, PKCE (S256 only: no code without it), the resource (only this
 *    service's MCP endpoint, RFC 8707), the scopes.
 *
 * A parameter given twice is refused (OAuth 2.1 §3.1), as is one too long to be honest.
 */
import { isScope, type Scope, sortScopes } from '../../../core/scopes.ts';
import type { ClientLookup, OAuthClient } from '../clients/clients.queries.ts';
import { redirectUriMatches } from '../clients/redirect-uris.ts';
import { pkceChallengeProblems } from './pkce.ts';

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | null;
  /** The scopes asked for, known ones only, sorted; empty when the client asked for none. */
  scopes: Scope[];
  codeChallenge: string;
  /** The resource the tokens will be bound to: always this service's MCP endpoint. */
  resource: string;
}

export type AuthorizationReading =
  | { kind: 'unanswerable'; problems: string[] }
  | { kind: 'refused'; redirectUri: string; state: string | null; error: AuthorizationError; description: string }
  | { kind: 'valid'; request: AuthorizationRequest };

export type AuthorizationError = 'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'invalid_target';

const MAX_PARAMETER_LENGTH = 2000;
/** OAuth's parameters are printable ASCII (RFC 6749 Appendix A: VSCHAR, NQCHAR, URI-reference). */
const VISIBLE_ASCII = /^[\x20-\x7e]*$/;
/** Asked for by clients that speak OpenID Connect or ask for refresh tokens by scope; neither changes what is granted. */
const IGNORED_SCOPES = new Set(['offline_access']);

/**
 * Reads `query` (the parsed query string: a repeated parameter arrives as an array). `lookup` finds
 * the client; `resource` is this service's MCP endpoint (`<PUBLIC_URL>/mcp`).
 */
export async function readAuthorizationRequest(
  query: Record<string, unknown>,
  options: { lookup: (clientId: string) => Promise<ClientLookup>; resource: string },
): Promise<AuthorizationReading> {
  const single = (name: string): { value?: string; problem?: string } => {
    const value = query[name];
    if (value === undefined || value === '') return {};
    if (typeof value !== 'string') return { problem: `${name} must be given once` };
    if (value.length > MAX_PARAMETER_LENGTH) return { problem: `${name} is longer than ${MAX_PARAMETER_LENGTH} characters` };
    if (!VISIBLE_ASCII.test(value)) return { problem: `${name} may hold only printable ASCII characters (percent-encode the rest)` };
    return { value };
  };

  const clientId = single('client_id');
  if (clientId.problem) return { kind: 'unanswerable', problems: [clientId.problem] };
  if (clientId.value === undefined) return { kind: 'unanswerable', problems: ['client_id is required'] };
  const found = await options.lookup(clientId.value);
  if (!found.ok) return { kind: 'unanswerable', problems: found.problems };
  const client = found.client;
  const redirect = single('redirect_uri');
  if (redirect.problem) return { kind: 'unanswerable', problems: [redirect.problem] };
  let redirectUri: string;
  if (redirect.value === undefined) {
    // OAuth 2.1 lets a client with one registered redirect URI leave it out.
    if (client.redirectUris.length !== 1) return { kind: 'unanswerable', problems: ['redirect_uri is required: the client has several'] };
    redirectUri = client.redirectUris[0] as string;
  } else if (!redirectUriMatches(client.redirectUris, redirect.value)) {
    return { kind: 'unanswerable', problems: [`redirect_uri ${redirect.value} is not one the client registered`] };
  } else {
    redirectUri = redirect.value;
  }

  const state = single('state');
  const answerState = state.value ?? null;
  const refuse = (error: AuthorizationError, problems: string[]): AuthorizationReading => ({
    kind: 'refused',
    redirectUri,
    state: answerState,
    error,
    description: `${problems.join('; ')}.`,
  });
  if (state.problem) return refuse('invalid_request', [state.problem]);

  const responseType = single('response_type');
  if (responseType.problem) return refuse('invalid_request', [responseType.problem]);
  if (responseType.value !== 'code') {
    return refuse('unsupported_response_type', [
      `response_type must be code${responseType.value === undefined ? '' : `, not ${responseType.value.slice(0, 40)}`}`,
    ]);
  }

  const challenge = single('code_challenge');
  const method = single('code_challenge_method');
  const pkceProblems = [challenge.problem, method.problem].filter((problem) => problem !== undefined);
  if (pkceProblems.length > 0) return refuse('invalid_request', pkceProblems);
  const challengeProblems = pkceChallengeProblems(challenge.value, method.value);
  if (challengeProblems.length > 0) return refuse('invalid_request', challengeProblems);

  const resource = single('resource');
  if (resource.problem) return refuse('invalid_target', [resource.problem]);
  if (resource.value !== undefined && !sameResource(resource.value, options.resource)) {
    return refuse('invalid_target', [`resource must be ${options.resource}, the only resource this server issues tokens for`]);
  }

  const scope = single('scope');
  if (scope.problem) return refuse('invalid_scope', [scope.problem]);
  const asked = (scope.value ?? '').split(' ').filter((name) => name !== '' && !IGNORED_SCOPES.has(name));
  const unknown = asked.filter((name) => !isScope(name));
  if (unknown.length > 0) return refuse('invalid_scope', [`unknown scopes: ${unknown.map((name) => name.slice(0, 40)).join(', ')}`]);

  return {
    kind: 'valid',
    request: {
      client,
      redirectUri,
      state: answerState,
      scopes: sortScopes(new Set(asked.filter(isScope))),
      codeChallenge: challenge.value as string,
      resource: options.resource,
    },
  };
}

/**
 * `redirectUri` with the authorization response's parameters added to its query (RFC 9207's `iss`
 * among them), the query it was registered with kept.
 */
export function authorizationResponseUrl(redirectUri: string, parameters: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) if (value !== null) url.searchParams.append(name, value);
  return url.href;
}

/** RFC 8707 resources compare as URLs: scheme and host in any case, a trailing slash ignored; nothing else may differ. */
function sameResource(given: string, ours: string): boolean {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return false;
  }
  if (url.search !== '' || url.hash !== '' || given.includes('#') || url.username !== '' || url.password !== '') return false;
  const canonical = `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, '')}`;
  return canonical === ours;
}
