/**
 * What a channel holds, read once for both get_channel and the public page: its settings, the
 * workspace's name and plan, and each item (and the featured one) with the facts that decide whether
 * a visitor can see it (channel-showing.ts) and what a card of it shows.
 */
import type { Kysely } from 'kysely';
import type { PlanName } from '../../core/plans.ts';
import type { ChannelItemKind, Database, RouteStatus, VideosTable } from '../../db/tables/index.ts';
import { routeCardFacts } from '../routes/index.ts';
import { videosWithIds } from '../videos/index.ts';
import { workspaceFacts } from '../workspace/index.ts';

export interface VideoFacts {
  kind: 'video';
  id: string;
  title: string;
  description: string;
  status: VideosTable['status'];
  archived: boolean;
  hasPoster: boolean;
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
  createdAt: Date;
}

export interface RouteFacts {
  kind: 'route';
  id: string;
  title: string;
  status: RouteStatus;
  steps: number;
  /** The entry step's video, as far as showing the route goes. */
  entryVideo: Pick<VideoFacts, 'id' | 'status' | 'archived' | 'hasPoster'> | null;
  createdAt: Date;
}

export type ItemFacts = VideoFacts | RouteFacts;

export interface PlacedItem {
  facts: ItemFacts;
  visible: boolean;
  position: number;
}

export interface ChannelContents {
  workspaceName: string;
  plan: PlanName;
  settings: { headline: string | null; dek: string | null; updated_at: Date } | null;
  featured: ItemFacts | null;
  items: PlacedItem[];
  /** When an item last changed; with settings.updated_at, when the channel last changed. */
  itemsUpdatedAt: Date | null;
}

/**
 * `visibleOnly` leaves out the items taken off the page: the public page never shows them, and a
 * channel may have many thousands of them.
 */
export async function loadChannelContents(
  db: Kysely<Database>,
  workspaceId: string,
  { visibleOnly = false }: { visibleOnly?: boolean } = {},
): Promise<ChannelContents> {
  const [workspace, settings, placed] = await Promise.all([
    workspaceFacts(db, workspaceId),
    db.selectFrom('channels').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst(),
    db
      .selectFrom('channel_items')
      .select(['kind', 'item_id', 'visible', 'position', 'updated_at'])
      .where('workspace_id', '=', workspaceId)
      .$if(visibleOnly, (query) => query.where('visible', '=', true))
      .orderBy('position')
      .orderBy('created_at')
      .execute(),
  ]);
  if (!workspace) throw new Error(`loadChannelContents: no workspace ${workspaceId}`);
  const featuredKey = settings?.featured_video_id
    ? { kind: 'video' as const, id: settings.featured_video_id }
    : settings?.featured_route_id
      ? { kind: 'route' as const, id: settings.featured_route_id }
      : null;
  const wanted = [...placed.map((item) => ({ kind: item.kind, id: item.item_id })), ...(featuredKey ? [featuredKey] : [])];
  const facts = await loadItemFacts(db, workspaceId, wanted);
  const factsOf = (kind: ChannelItemKind, id: string) => facts.get(`${kind}:${id}`);
  const items: PlacedItem[] = [];
  for (const item of placed) {
    const found = factsOf(item.kind, item.item_id);
    if (found) items.push({ facts: found, visible: item.visible, position: item.position });
  }
  const itemsUpdatedAt = placed.reduce<Date | null>(
    (latest, item) => (!latest || item.updated_at > latest ? item.updated_at : latest),
    null,
  );
  return {
    workspaceName: workspace.name,
    plan: workspace.plan,
    settings: settings ?? null,
    featured: featuredKey ? (factsOf(featuredKey.kind, featuredKey.id) ?? null) : null,
    items,
    itemsUpdatedAt,
  };
}

/** The facts of these videos and routes of the workspace, by `kind:id`. */
async function loadItemFacts(
  db: Kysely<Database>,
  workspaceId: string,
  wanted: { kind: ChannelItemKind; id: string }[],
): Promise<Map<string, ItemFacts>> {
  const videoIds = wanted.filter((item) => item.kind === 'video').map((item) => item.id);
  const routeIds = wanted.filter((item) => item.kind === 'route').map((item) => item.id);
  const [videos, routes] = await Promise.all([videosWithIds(db, workspaceId, videoIds), routeCardFacts(db, workspaceId, routeIds)]);
  const facts = new Map<string, ItemFacts>();
  for (const video of videos) {
    facts.set(`video:${video.id}`, {
      kind: 'video',
      id: video.id,
      title: video.title,
      description: video.description,
      status: video.status,
      archived: video.archived,
      hasPoster: video.has_poster,
      durationSeconds: video.duration_seconds,
      width: video.width,
      height: video.height,
      createdAt: video.created_at,
    });
  }
  for (const route of routes) {
    facts.set(`route:${route.id}`, {
      kind: 'route',
      id: route.id,
      title: route.name,
      status: route.status,
      steps: Number(route.steps ?? 0),
      entryVideo:
        route.entry_video_id && route.entry_status !== null && route.entry_archived !== null && route.entry_has_poster !== null
          ? { id: route.entry_video_id, status: route.entry_status, archived: route.entry_archived, hasPoster: route.entry_has_poster }
          : null,
      createdAt: route.created_at,
    });
  }
  return facts;
}
