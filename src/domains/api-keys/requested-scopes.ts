/**
 * Reads the `scope` a caller asks for when minting a key (DESIGN §4): a tier word, a space- or
 * comma-separated string of scope names, or an array of them. Default: read.
 */
import { AppError } from '../../core/errors.ts';
import { isScope, type Scope, TIER_SCOPES, type Tier } from '../../core/scopes.ts';

export function parseRequestedScopes(scope: string | string[] | undefined): Scope[] {
  if (scope === undefined) return [...TIER_SCOPES.read];
  // Own keys only: `in` would also find `constructor` or `toString` on the object's prototype.
  if (typeof scope === 'string' && Object.hasOwn(TIER_SCOPES, scope.trim())) return [...TIER_SCOPES[scope.trim() as Tier]];
  const names = typeof scope === 'string' ? scope.split(/[\s,]+/).filter(Boolean) : scope;
  const unknown = names.filter((name) => !isScope(name));
  if (names.length === 0 || unknown.length > 0) {
    throw AppError.invalid([
      {
        field: 'scope',
        problem:
          names.length === 0
            ? 'must name at least one scope or a tier (read, write, admin)'
            : `has unknown scopes: ${unknown.join(', ')} (known: ${Object.values(TIER_SCOPES.admin).join(', ')}; or a tier: read, write, admin)`,
      },
    ]);
  }
  return [...new Set(names as Scope[])];
}
