/**
 * What the channel page's visitors did in a period (channel_views and channel_item_opens, written
 * by channel-visits.ts): page views, distinct browsers, items opened, and the opens of each item.
 */
import type { Kysely } from 'kysely';
import type { ChannelItemKind, Database } from '../../db/tables/index.ts';
import { routeNames } from '../routes/index.ts';
import { workspaceVideos } from '../videos/index.ts';

export interface ChannelActivity {
  views: number;
  visitors: number;
  opens: number;
  /** Opens of each item, most opened first, with its title now. */
  opensByItem: { kind: ChannelItemKind; id: string; title: string; opens: number }[];
}

export async function channelActivity(
  db: Kysely<Database>,
  workspaceId: string,
  range: { from: Date; to: Date },
): Promise<ChannelActivity> {
  const [views, opens] = await Promise.all([
    db
      .selectFrom('channel_views')
      .select((eb) => [eb.fn.countAll<number>().as('views'), eb.fn.count<number>('viewer_id').distinct().as('visitors')])
      .where('workspace_id', '=', workspaceId)
      .where('viewed_at', '>=', range.from)
      .where('viewed_at', '<', range.to)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('channel_item_opens as o')
      .leftJoin(workspaceVideos(db, workspaceId).as('v'), (join) => join.onRef('v.id', '=', 'o.item_id').on('o.kind', '=', 'video'))
      .leftJoin(routeNames(db, workspaceId).as('r'), (join) => join.onRef('r.id', '=', 'o.item_id').on('o.kind', '=', 'route'))
      .select((eb) => [
        'o.kind',
        'o.item_id',
        eb.fn.coalesce('v.title', 'r.name', eb.val('')).as('title'),
        eb.fn.countAll<number>().as('opens'),
      ])
      .where('o.workspace_id', '=', workspaceId)
      .where('o.opened_at', '>=', range.from)
      .where('o.opened_at', '<', range.to)
      .groupBy(['o.kind', 'o.item_id', 'v.title', 'r.name'])
      .orderBy('opens', 'desc')
      .orderBy('o.item_id')
      .execute(),
  ]);
  const opensByItem = opens.map((row) => ({ kind: row.kind, id: row.item_id, title: row.title, opens: Number(row.opens) }));
  return {
    views: Number(views.views),
    visitors: Number(views.visitors),
    opens: opensByItem.reduce((sum, item) => sum + item.opens, 0),
    opensByItem,
  };
}
