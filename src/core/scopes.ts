/**
 * The scope vocabulary (SPEC §5.6) and the three tiers a credential can be described by (DESIGN §4):
 * `read` holds only `:read` scopes, `write` adds `:write` scopes, `admin` adds `workspace:manage`.
 */

export const SCOPES = [
  'videos:read',
  'videos:write',
  'analytics:read',
  'outcomes:read',
  'outcomes:write',
  'leads:read',
  'leads:write',
  'transcripts:read',
  'routes:read',
  'routes:write',
  'channel:write',
  'workspace:read',
  'workspace:manage',
] as const;

export type Scope = (typeof SCOPES)[number];
export type Tier = 'read' | 'write' | 'admin';

const SCOPE_SET: ReadonlySet<string> = new Set(SCOPES);

export function isScope(value: string): value is Scope {
  return SCOPE_SET.has(value);
}

/** Scopes that allow changing data: every `:write` scope and `workspace:manage`. */
export function isWriteScope(scope: Scope): boolean {
  return scope.endsWith(':write') || scope === 'workspace:manage';
}

export const TIER_SCOPES: Record<Tier, readonly Scope[]> = {
  read: SCOPES.filter((s) => s.endsWith(':read')),
  write: SCOPES.filter((s) => s !== 'workspace:manage'),
  admin: SCOPES,
};

export function tierOf(scopes: Iterable<string>): Tier {
  let tier: Tier = 'read';
  for (const scope of scopes) {
    if (scope === 'workspace:manage') return 'admin';
    if (scope.endsWith(':write')) tier = 'write';
  }
  return tier;
}

/** Canonical order, so stored and listed scopes read the same whatever order they were asked in. */
export function sortScopes(scopes: Iterable<Scope>): Scope[] {
  const wanted = new Set(scopes);
  return SCOPES.filter((s) => wanted.has(s));
}
