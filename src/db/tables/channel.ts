/** The public channel: slugs, settings, items and what visitors did (migration 0022, docs/channel.md). */
import type { Timestamp } from './column-types.ts';

export type ChannelItemKind = 'video' | 'route';

export interface WorkspaceSlugsTable {
  slug: string;
  workspace_id: string;
  created_at: Timestamp;
  /** Null for the workspace's current slug; a replaced one redirects to the current one for a while. */
  replaced_at: Timestamp | null;
}

export interface ChannelsTable {
  workspace_id: string;
  /** Null: the page is headed by the workspace's name. */
  headline: string | null;
  dek: string | null;
  featured_video_id: string | null;
  featured_route_id: string | null;
  updated_at: Timestamp;
}

export interface ChannelItemsTable {
  workspace_id: string;
  kind: ChannelItemKind;
  item_id: string;
  visible: boolean;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ChannelViewsTable {
  id: string;
  workspace_id: string;
  viewer_id: string | null;
  viewed_at: Timestamp;
}

export interface ChannelItemOpensTable {
  view_id: string;
  workspace_id: string;
  kind: ChannelItemKind;
  item_id: string;
  opened_at: Timestamp;
}
