/**
 * The workspace's time zone, in which the dashboard writes every date and day; UTC when the person is
 * in no workspace. One statement (the workspace area's workspaceTimeZone) rather than get_workspace,
 * which also adds up usage and counts keys (four statements) for pages that want only the zone. Like
 * the frame's facts, it names nothing the signed-in person could not read through get_workspace.
 */
import { workspaceTimeZone } from '../../../../domains/workspace/index.ts';
import type { PageContext } from './page-route.ts';

export async function workspaceZone(ctx: PageContext): Promise<string> {
  const workspaceId = ctx.session.person.workspace?.id;
  return workspaceId ? workspaceTimeZone(ctx.deps.db, workspaceId) : 'UTC';
}
