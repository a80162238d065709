/** The frame's facts for a session: the person's workspaces by name, which one they are in, and the areas their role may open. */
import type { Scope } from '../../../../core/scopes.ts';
import { membershipsOf } from '../../../../domains/people/index.ts';
import { workspaceNames } from '../../../../domains/workspace/index.ts';
import type { PublicSurfaceDeps } from '../../surface.ts';
import type { DashboardSession } from '../kit/dashboard-session.ts';
import type { Frame } from './dashboard-page.ts';
import { currentItem, NAVIGATION } from './navigation.ts';

export async function frameOf(deps: PublicSurfaceDeps, session: DashboardSession, path = '/app'): Promise<Frame> {
  const memberships = await membershipsOf(deps.db, session.person.userId);
  const current = session.person.workspace?.id ?? null;
  const names = await workspaceNames(
    deps.db,
    memberships.map((membership) => membership.workspace_id),
  );
  const workspaces = memberships.map((membership) => ({
    id: membership.workspace_id,
    name: names.get(membership.workspace_id) ?? 'Workspace',
    current: membership.workspace_id === current,
  }));
  const scopes = session.principal?.scopes;
  return {
    personName: session.person.name,
    workspaceName: workspaces.find((w) => w.current)?.name ?? null,
    role: session.person.workspace?.role ?? null,
    workspaces,
    csrf: session.csrf,
    navigation: {
      items: scopes ? NAVIGATION.filter((item) => scopes.has(item.scope as Scope)) : [],
      current: currentItem(path)?.href ?? null,
    },
  };
}
