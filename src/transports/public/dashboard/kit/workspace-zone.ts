/** The workspace's time zone (get_workspace), in which bookings are listed; UTC if it cannot be read. */
import type { PageContext } from '../kit/page-route.ts';

export async function workspaceZone(ctx: PageContext): Promise<string> {
  const answer = await ctx.call<{ settings?: { timezone?: string } }>('get_workspace', {});
  return (answer.ok && answer.body.settings?.timezone) || 'UTC';
}
