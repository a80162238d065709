/**
 * A person signed in to the dashboard as a pipeline principal (DESIGN §10): the same scopes as a key
 * of their role's tier, the same rate-limit family (their own bucket), no expiry of its own (the
 * session has one), and their name for notes and the audit log.
 */
import type { Principal } from '../../../core/pipeline/principal.ts';
import { roleScopes } from '../../../core/roles.ts';
import type { SignedIn } from './sessions.queries.ts';

export function personPrincipal(signedIn: SignedIn): Principal | undefined {
  const workspace = signedIn.workspace;
  if (!workspace) return undefined;
  return {
    credentialId: signedIn.userId,
    workspaceId: workspace.id,
    kind: 'user',
    role: workspace.role,
    userId: signedIn.userId,
    name: signedIn.name,
    scopes: new Set(roleScopes(workspace.role)),
    expiresAt: null,
    plan: workspace.plan,
    maskPii: workspace.maskPii,
  };
}
