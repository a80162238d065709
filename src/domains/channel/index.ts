/**
 * The front door of the channel area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
// First the files that reach no other area: ES modules evaluate a front door's files in this order, and
// other areas build their schemas from these when they load, so they must be ready before any file
// below, which may lead back here through another area.
export { forgetChannelViewers, removeFromChannel } from './channel-removal.queries.ts';
export { recordChannelVisit } from './channel-visits.ts';
export { lockChannel, placeChannelItem, updateChannelRow } from './channel-writes.queries.ts';
export { CHANNEL_ITEM_KINDS, ChannelItemKind } from './channel.schemas.ts';

// Then the files that reach other areas.
export { channelActivity } from './channel-activity.queries.ts';
export type { ItemFacts, VideoFacts } from './channel-contents.queries.ts';
export { itemUrl } from './channel-detail.ts';
export { posterVideoId } from './channel-showing.ts';
export { loadPublicChannel, type PublicChannel } from './public-channel.ts';
export { changeSlug, claimFirstSlug, currentSlug, findChannelSlug, mayBeSlug, Slug, slugProblem } from './workspace-slugs.ts';
