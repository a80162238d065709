/**
 * Where a person goes after signing in: only a path of our own dashboard or an invitation page, so a
 * link like /sign-in?next=https://evil.example cannot send them elsewhere (an open redirect).
 */
export function safeNextPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 512) return undefined;
  if (!/^\/(app(\/[A-Za-z0-9_\-/]*)?|invitations\/[A-Za-z0-9_-]{43})(\?[A-Za-z0-9_\-=&%.]*)?$/.test(value)) return undefined;
  return value;
}
