/**
 * Which scopes the consent page offers, which it ticks, and which a submitted form may grant
 * (DESIGN §10: never beyond the person's role; issue 29: Allow pressed without a change grants only
 * the read scopes the client asked for, or the read tier when it asked for none).
 *
 * Offered: everything the person's role holds, so they can give more than the client asked for (an
 * assistant that asked for reading may be let write) or less. Ticked: the read scopes asked for, so
 * a client asking for everything gets reading until a person decides otherwise. A form naming a scope
 * outside the role, or one no scope at all, is a forged or stale form: refused, nothing granted.
 */
import { type Role, roleScopes } from '../../../core/roles.ts';
import { isScope, type Scope, sortScopes, TIER_SCOPES } from '../../../core/scopes.ts';

export interface ConsentChoices {
  /** Every scope the page shows, in canonical order. */
  offered: Scope[];
  /** The ones ticked when the page opens. */
  ticked: Scope[];
}

export function consentChoices(role: Role, requested: readonly Scope[]): ConsentChoices {
  const offered = [...roleScopes(role)];
  const readTier = new Set<Scope>(TIER_SCOPES.read);
  const askedToRead = requested.filter((scope) => readTier.has(scope));
  const ticked = requested.length === 0 ? [...TIER_SCOPES.read] : askedToRead;
  return { offered: sortScopes(offered), ticked: sortScopes(ticked.filter((scope) => offered.includes(scope))) };
}

export type GrantedScopes = { ok: true; scopes: Scope[] } | { ok: false; problem: string };

/** The scopes a submitted consent form grants, or why it grants nothing. */
export function grantedScopes(role: Role, submitted: unknown): GrantedScopes {
  const names = submitted === undefined ? [] : Array.isArray(submitted) ? submitted : [submitted];
  if (names.length === 0) return { ok: false, problem: 'Choose at least one permission to allow, or press Deny.' };
  if (names.length > 50 || names.some((name) => typeof name !== 'string' || !isScope(name))) {
    return { ok: false, problem: 'The form named a permission that does not exist: open the page again from your assistant.' };
  }
  const allowed = new Set(roleScopes(role));
  const beyond = (names as Scope[]).filter((name) => !allowed.has(name));
  if (beyond.length > 0) {
    return { ok: false, problem: `Your role does not hold ${beyond.join(', ')}, so you cannot give it to an assistant.` };
  }
  return { ok: true, scopes: sortScopes(names as Scope[]) };
}
