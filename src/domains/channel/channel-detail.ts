/**
 * The channel as get_channel (and every channel write) answers it: settings, the featured item, every
 * item with whether a visitor sees it and why not, what the grid shows now, and the last 30 days of
 * visitor activity.
 */

import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { PlanName } from '../../core/plans.ts';
import type { Database } from '../../db/tables/index.ts';
import type { MediaLinks } from '../../media/media-links.ts';
import { CHANNEL_ACTIVITY_DAYS, type ChannelDetail } from './channel.schemas.ts';
import { channelActivity } from './channel-activity.queries.ts';
import { type ItemFacts, loadChannelContents } from './channel-contents.queries.ts';
import { placedReason, posterVideoId, unplayableReason } from './channel-showing.ts';
import { currentSlug } from './workspace-slugs.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export function itemUrl(links: MediaLinks, facts: Pick<ItemFacts, 'kind' | 'id'>): string {
  return facts.kind === 'video' ? links.watchUrl(facts.id) : links.routeUrl(facts.id);
}

function itemBasics(links: MediaLinks, facts: ItemFacts, plan: PlanName) {
  const poster = posterVideoId(facts);
  return {
    kind: facts.kind,
    id: facts.id,
    title: facts.title,
    url: itemUrl(links, facts),
    poster_url: poster ? links.posterUrl(poster) : null,
    not_shown_reason: unplayableReason(facts, plan),
  };
}

export async function channelDetail(
  db: Kysely<Database>,
  workspaceId: string,
  links: MediaLinks,
  now: Date,
): Promise<Static<typeof ChannelDetail>> {
  const [contents, slug, activity] = await Promise.all([
    loadChannelContents(db, workspaceId),
    currentSlug(db, workspaceId),
    channelActivity(db, workspaceId, { from: new Date(now.getTime() - CHANNEL_ACTIVITY_DAYS * DAY_MS), to: now }),
  ]);
  const opens = new Map(activity.opensByItem.map((item) => [`${item.kind}:${item.id}`, item.opens]));
  const items = contents.items.map((item) => {
    const reason = placedReason(item, contents.plan);
    return {
      ...itemBasics(links, item.facts, contents.plan),
      shown: reason === null,
      not_shown_reason: reason,
      visible: item.visible,
      position: item.position,
      duration_seconds: item.facts.kind === 'video' ? item.facts.durationSeconds : null,
      steps: item.facts.kind === 'route' ? item.facts.steps : null,
      opens: opens.get(`${item.facts.kind}:${item.facts.id}`) ?? 0,
    };
  });
  const featured = contents.featured ? itemBasics(links, contents.featured, contents.plan) : null;
  const settings = contents.settings;
  const changes = [settings?.updated_at, contents.itemsUpdatedAt].filter((at): at is Date => at instanceof Date);
  return {
    slug,
    published: settings !== null,
    url: links.channelUrl(slug),
    markdown_url: links.channelMarkdownUrl(slug),
    headline: settings?.headline ?? null,
    dek: settings?.dek ?? null,
    title: settings?.headline ?? contents.workspaceName,
    featured: featured && { ...featured, shown: featured.not_shown_reason === null },
    items,
    showing: items.filter((item) => item.shown).map(({ kind, id, title, url }) => ({ kind, id, title, url })),
    activity: { days: CHANNEL_ACTIVITY_DAYS, views: activity.views, visitors: activity.visitors, opens: activity.opens },
    updated_at: changes.length > 0 ? new Date(Math.max(...changes.map((at) => at.getTime()))).toISOString() : null,
  };
}
