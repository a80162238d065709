/**
 * The channel's writes. Each starts with lockChannel, so the channel writes of one workspace run one
 * at a time: positions stay a gapless 0..n-1 sequence and the visible cap holds under concurrent calls.
 */
import { type Kysely, sql } from 'kysely';
import type { ChannelItemKind, ChannelsTable, Database } from '../../db/tables/index.ts';

/** Makes the workspace's channel row if it has none yet, and locks it until the transaction ends. */
export async function lockChannel(db: Kysely<Database>, workspaceId: string, now: Date): Promise<void> {
  await db
    .insertInto('channels')
    .values({ workspace_id: workspaceId, updated_at: now })
    .onConflict((oc) => oc.column('workspace_id').doNothing())
    .execute();
  await db.selectFrom('channels').select('workspace_id').where('workspace_id', '=', workspaceId).forUpdate().executeTakeFirstOrThrow();
}

export async function updateChannelRow(
  db: Kysely<Database>,
  workspaceId: string,
  changes: Partial<Pick<ChannelsTable, 'headline' | 'dek' | 'featured_video_id' | 'featured_route_id'>>,
  now: Date,
): Promise<void> {
  await db
    .updateTable('channels')
    .set({ ...changes, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .execute();
}

export async function countVisibleItems(db: Kysely<Database>, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('channel_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('visible', '=', true)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function isItemVisible(db: Kysely<Database>, workspaceId: string, kind: ChannelItemKind, itemId: string): Promise<boolean> {
  const row = await db
    .selectFrom('channel_items')
    .select('visible')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .where('item_id', '=', itemId)
    .executeTakeFirst();
  return row?.visible ?? false;
}

/**
 * Puts the item on the channel with this visibility, at `position` (0-based, past the end means
 * last) or, without one, where it already is (a new item goes last); the others close up behind it.
 */
export async function placeChannelItem(
  db: Kysely<Database>,
  workspaceId: string,
  item: { kind: ChannelItemKind; id: string; visible: boolean; position?: number },
  now: Date,
): Promise<void> {
  const order = await db
    .selectFrom('channel_items')
    .select(['kind', 'item_id', 'position'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('position')
    .orderBy('created_at')
    .execute();
  const current = order.findIndex((row) => row.kind === item.kind && row.item_id === item.id);
  const others = order.filter((_, index) => index !== current);
  const at = Math.min(item.position ?? (current === -1 ? others.length : current), others.length);
  const keys = [...others.slice(0, at), { kind: item.kind, item_id: item.id }, ...others.slice(at)];
  await db
    .insertInto('channel_items')
    .values({
      workspace_id: workspaceId,
      kind: item.kind,
      item_id: item.id,
      visible: item.visible,
      position: at,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'kind', 'item_id']).doUpdateSet({ visible: item.visible, position: at, updated_at: now }),
    )
    .execute();
  // Only the rows whose place changed are written.
  const was = new Map(order.map((row) => [`${row.kind}:${row.item_id}`, row.position]));
  const moved = keys
    .map((key, position) => ({ ...key, position }))
    .filter((key) => !(key.kind === item.kind && key.item_id === item.id) && was.get(`${key.kind}:${key.item_id}`) !== key.position);
  if (moved.length === 0) return;
  // Three arrays, not a row of parameters each: a channel may hold more rows than a statement can bind.
  await sql`update channel_items set position = moved.position
    from unnest(${moved.map((row) => row.kind)}::text[], ${moved.map((row) => row.item_id)}::uuid[], ${moved.map((row) => row.position)}::integer[])
      as moved(kind, item_id, position)
    where channel_items.workspace_id = ${workspaceId} and channel_items.kind = moved.kind and channel_items.item_id = moved.item_id`.execute(
    db,
  );
}
