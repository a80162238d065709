/**
 * Where a person goes after signing in: only a path of our own dashboard, an invitation page, or the
 * consent page of an assistant's authorization request, so a link like /sign-in?next=https://evil.example
 * cannot send them elsewhere (an open redirect).
 */
const DASHBOARD_OR_INVITATION = /^\/(app(\/[A-Za-z0-9_\-/]*)?|invitations\/[A-Za-z0-9_-]{43})(\?[A-Za-z0-9_\-=&%.]*)?$/;
/** As URLSearchParams writes a query (oauth/authorization-parameters.ts: authorizePath). */
const CONSENT = /^\/oauth\/authorize\?[A-Za-z0-9_\-=&%.+*]*$/;

/** An authorization request's query can be long (a client's URL, a redirect URI, a state of its choosing). */
export const MAX_NEXT_PATH_LENGTH = 6000;
/**
 * The forms that carry `next` (password, second factor): their fields plus a longest `next`, which a
 * form body encodes again (every `%` of it three characters).
 */
export const FORM_WITH_NEXT_LIMIT = 24 * 1024;

export function safeNextPath(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.length <= 512 && DASHBOARD_OR_INVITATION.test(value)) return value;
  if (value.length <= MAX_NEXT_PATH_LENGTH && CONSENT.test(value)) return value;
  return undefined;
}
