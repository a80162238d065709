/**
 * What the channel gives up when a video is deleted (and with it, a route that played nothing else) or
 * a lead erased: the items and the featured spot that showed them, the opens counted for them, and the
 * link between the channel's page views and an erased person's browsers.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/** What is being removed from the workspace's channel. */
export interface RemovedItems {
  videoIds: readonly string[];
  routeIds: readonly string[];
}

/** Each kind of item removed, with its ids (kinds with none left out, so no `in ()` is ever built). */
function kindsAndIds(removed: RemovedItems): ['video' | 'route', string[]][] {
  const kinds: ['video' | 'route', string[]][] = [
    ['video', [...removed.videoIds]],
    ['route', [...removed.routeIds]],
  ];
  return kinds.filter(([, ids]) => ids.length > 0);
}

/**
 * Takes the videos and routes off the channel: their items (the others close up, so positions stay
 * 0..n-1), the featured spot when it held one of them, and the opens counted for them. Holds the
 * channel's row first (when it has one), as every channel write does. Returns how many items went.
 */
export async function removeFromChannel(db: Kysely<Database>, workspaceId: string, removed: RemovedItems, now: Date): Promise<number> {
  if (kindsAndIds(removed).length === 0) return 0;
  const channel = await db
    .selectFrom('channels')
    .select(['featured_video_id', 'featured_route_id'])
    .where('workspace_id', '=', workspaceId)
    .forUpdate()
    .executeTakeFirst();
  const items = await db
    .deleteFrom('channel_items')
    .where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or(kindsAndIds(removed).map(([kind, list]) => eb.and([eb('kind', '=', kind), eb('item_id', 'in', list)]))))
    .executeTakeFirst();
  const gone = Number(items.numDeletedRows);
  const featured = {
    ...(channel?.featured_video_id && removed.videoIds.includes(channel.featured_video_id) ? { featured_video_id: null } : {}),
    ...(channel?.featured_route_id && removed.routeIds.includes(channel.featured_route_id) ? { featured_route_id: null } : {}),
  };
  if (channel && (gone > 0 || Object.keys(featured).length > 0)) {
    // The channel changed: its updated_at says so, as after any other channel write.
    await db
      .updateTable('channels')
      .set({ ...featured, updated_at: now })
      .where('workspace_id', '=', workspaceId)
      .execute();
  }
  if (gone > 0) {
    await sql`update channel_items c set position = o.place, updated_at = ${now}
      from (
        select kind, item_id, (row_number() over (order by position, created_at) - 1)::int as place
        from channel_items where workspace_id = ${workspaceId}
      ) o
      where c.workspace_id = ${workspaceId} and c.kind = o.kind and c.item_id = o.item_id and c.position <> o.place`.execute(db);
  }
  await db
    .deleteFrom('channel_item_opens')
    .where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or(kindsAndIds(removed).map(([kind, list]) => eb.and([eb('kind', '=', kind), eb('item_id', 'in', list)]))))
    .execute();
  return gone;
}

/**
 * Gives the channel's page views by these browsers new, anonymous viewer ids (the visits keep counting;
 * nothing links them to anyone). Returns how many views changed.
 */
export async function forgetChannelViewers(
  db: Kysely<Database>,
  workspaceId: string,
  replacements: readonly { from: string; to: string }[],
): Promise<number> {
  if (replacements.length === 0) return 0;
  const result = await sql`
    update channel_views v set viewer_id = r.to_id
    from unnest(${replacements.map((r) => r.from)}::text[], ${replacements.map((r) => r.to)}::text[]) as r(from_id, to_id)
    where v.workspace_id = ${workspaceId} and v.viewer_id is not null and v.viewer_id = r.from_id`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
