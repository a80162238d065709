/**
 * The four roles a member holds in a workspace (DESIGN §10) and what each may do, expressed as the
 * scope tiers keys already use: owner and admin hold every scope, member the write tier, viewer the
 * read tier. Nobody, person or key, grants a role above their own.
 */
import { type Scope, TIER_SCOPES, type Tier } from './scopes.ts';

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const ROLE_TIER: Record<Role, Tier> = { owner: 'admin', admin: 'admin', member: 'write', viewer: 'read' };
const RANK: Record<Role, number> = { owner: 3, admin: 2, member: 1, viewer: 0 };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function roleTier(role: Role): Tier {
  return ROLE_TIER[role];
}

export function roleScopes(role: Role): readonly Scope[] {
  return TIER_SCOPES[ROLE_TIER[role]];
}

/** Whether `actor` may give `role` to someone: never above their own. */
export function mayGrant(actor: Role, role: Role): boolean {
  return RANK[role] <= RANK[actor];
}

/** Owners and admins: they delete, erase, manage members, keys and webhooks, and reveal masked data. */
export function isManager(role: Role): boolean {
  return ROLE_TIER[role] === 'admin';
}
