/**
 * Whether a visitor sees an item: the one rule get_channel reports and the public page follows, so
 * the two never disagree. A video shows while it is ready and not archived (the rule of every public
 * surface, servable-videos.queries.ts); a route while it is live, its plan has routes and its first
 * video can play, which is what its player needs.
 */
import { PLANS, type PlanName } from '../../core/plans.ts';
import { isServable } from '../videos/index.ts';
import type { NotShownReason } from './channel.schemas.ts';
import type { ItemFacts, PlacedItem } from './channel-contents.queries.ts';

/** Why the item cannot be shown wherever it is placed, or null when it can. */
export function unplayableReason(facts: ItemFacts, plan: PlanName): NotShownReason | null {
  if (facts.kind === 'video') {
    if (facts.archived) return 'archived';
    return facts.status === 'ready' ? null : 'not_ready';
  }
  if (!PLANS[plan].entitlements.has('interactive_routes')) return 'plan_without_routes';
  if (facts.status !== 'live') return 'not_live';
  return facts.entryVideo && isServable(facts.entryVideo) ? null : 'entry_video_unavailable';
}

/** Why a grid item is not on the page: taken off by the workspace first, then what stops it playing. */
export function placedReason(item: PlacedItem, plan: PlanName): NotShownReason | null {
  return item.visible ? unplayableReason(item.facts, plan) : 'hidden';
}

/** The video whose poster stands for the item (a route's is its first video's), when it has a public one. */
export function posterVideoId(facts: ItemFacts): string | null {
  if (facts.kind === 'video') return facts.hasPoster && isServable(facts) ? facts.id : null;
  return facts.entryVideo?.hasPoster && isServable(facts.entryVideo) ? facts.entryVideo.id : null;
}
