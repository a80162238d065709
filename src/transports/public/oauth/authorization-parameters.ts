/**
 * The authorization request's parameters as they travel between the assistant's link, the sign-in
 * page and the consent form: read from a query or a form body (a repeated one kept as a list, which
 * the reading refuses), carried as hidden fields, and put back into a URL of our own.
 */
import { formValues } from '../http/form-body.ts';
import { escapeHtml } from '../http/page-parts.ts';

/** Every parameter of an authorization request that the consent form carries back (OAuth 2.1 §4.1.1, RFC 7636, RFC 8707). */
export const AUTHORIZATION_PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const;

export type AuthorizationParameters = Record<string, string | string[]>;

/** The request's parameters from a parsed query string (Fastify gives a repeated one as a list). */
export function parametersOfQuery(query: unknown): AuthorizationParameters {
  const source = (query ?? {}) as Record<string, unknown>;
  const parameters: AuthorizationParameters = {};
  for (const name of AUTHORIZATION_PARAMETERS) {
    const value = source[name];
    if (typeof value === 'string') parameters[name] = value;
    else if (Array.isArray(value)) parameters[name] = value.map(String);
  }
  return parameters;
}

/** The request's parameters from the consent form's body. */
export function parametersOfForm(body: unknown): AuthorizationParameters {
  const parameters: AuthorizationParameters = {};
  for (const name of AUTHORIZATION_PARAMETERS) {
    const values = formValues(body, name);
    if (values.length === 1) parameters[name] = values[0] as string;
    else if (values.length > 1) parameters[name] = values;
  }
  return parameters;
}

/** Hidden fields that send the parameters back with a form (only single values: the page is shown for a valid request). */
export function parameterFields(parameters: AuthorizationParameters): string {
  return Object.entries(parameters)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('');
}

/** /oauth/authorize with these parameters (and `extra`), the path a sign-in returns to. */
export function authorizePath(parameters: AuthorizationParameters, extra: Record<string, string> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, one);
  }
  for (const [name, value] of Object.entries(extra)) search.set(name, value);
  return `/oauth/authorize?${search}`;
}
