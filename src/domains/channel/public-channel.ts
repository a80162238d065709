/**
 * What the public channel page (src/transports/public/channel/channel-page.ts) shows of a workspace: the heading and
 * intro line, the featured item while it can play, and the grid's visible, playable items in order,
 * decided by the same rule get_channel reports (channel-showing.ts). A channel nobody has set up
 * (no headline, item or featured item ever set) is not published: a new workspace's name is not on
 * a public page before it chose to have one.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { type ItemFacts, loadChannelContents } from './channel-contents.queries.ts';
import { placedReason, unplayableReason } from './channel-showing.ts';

export interface PublicChannel {
  workspaceName: string;
  /** The headline, or the workspace's name when none is set. */
  title: string;
  dek: string | null;
  featured: ItemFacts | null;
  items: ItemFacts[];
}

/** The channel as its page shows it; undefined while it is not published. */
export async function loadPublicChannel(db: Kysely<Database>, workspaceId: string): Promise<PublicChannel | undefined> {
  const contents = await loadChannelContents(db, workspaceId, { visibleOnly: true });
  if (!contents.settings) return undefined;
  const featured = contents.featured && unplayableReason(contents.featured, contents.plan) === null ? contents.featured : null;
  return {
    workspaceName: contents.workspaceName,
    title: contents.settings?.headline ?? contents.workspaceName,
    dek: contents.settings?.dek ?? null,
    featured,
    items: contents.items.filter((item) => placedReason(item, contents.plan) === null).map((item) => item.facts),
  };
}
