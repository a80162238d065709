/**
 * set_channel_item: puts a video or route on the channel's grid or takes it off, and optionally moves
 * it. An archived or unready video, or a route that is not live, may be made visible: it is stored,
 * and reported as not shown with the reason until it can play. Writes channel_items; emits no event.
 * Returns get_channel with the item set.
 */
import { Type } from 'typebox';
import { AppError } from '../../../core/errors.ts';
import { defineOperation } from '../../../core/operation.ts';
import { ResourceId } from '../../../core/schemas.ts';
import { findRoute } from '../../routes/index.ts';
import { assertVideoInWorkspace } from '../../videos/index.ts';
import { CHANNEL_LIMITS, ChannelDetail, ChannelItem, ChannelItemKind } from '../channel.schemas.ts';
import { channelDetail } from '../channel-detail.ts';
import { countVisibleItems, isItemVisible, lockChannel, placeChannelItem } from '../channel-writes.queries.ts';

export const setChannelItem = defineOperation({
  name: 'set_channel_item',
  summary: 'Put a video or route on the channel, or take it off',
  description:
    'Sets whether a video or route (kind says which the id is) shows in the public channel’s grid, and optionally its ' +
    'position (0 is first). An archived or unready video, or a route that is not live, can be made visible: the answer’s ' +
    '`item` then says it is not shown and why. Up to 200 visible items. Returns get_channel and the item.',
  method: 'PUT',
  path: '/channel/items/{id}',
  group: 'Channel',
  scope: 'channel:write',
  write: true,
  errors: ['not_found'],
  input: Type.Object(
    {
      id: ResourceId('video', 'The video id, or the route id when kind is route.'),
      kind: ChannelItemKind,
      visible: Type.Boolean({ description: 'true puts it on the page, false takes it off (it stays listed, hidden).' }),
      position: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 100_000,
          description: 'Its place in the grid, from 0; past the end means last. Left out: it stays where it is (a new item goes last).',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ ...ChannelDetail.properties, item: ChannelItem }, { additionalProperties: false }),
  example: { id: '3f2b6c1e-8a4d-4e5f-9b7a-1c2d3e4f5a6b', kind: 'video', visible: true },
  // The path's id is a video or a route as `kind` says; the rule would always call it a video.
  auditObject: (input) => ({ kind: input.kind, id: input.id }),
  async handler(ctx, input) {
    const id = input.id.toLowerCase();
    if (input.kind === 'video') await assertVideoInWorkspace(ctx.db, ctx.workspaceId, id);
    else await findRoute(ctx.db, ctx.workspaceId, id);
    await lockChannel(ctx.db, ctx.workspaceId, ctx.now);
    const becomesVisible = input.visible && !(await isItemVisible(ctx.db, ctx.workspaceId, input.kind, id));
    if (becomesVisible && (await countVisibleItems(ctx.db, ctx.workspaceId)) >= CHANNEL_LIMITS.visibleItems) {
      throw AppError.invalid([
        {
          field: 'visible',
          problem: `the channel already shows ${CHANNEL_LIMITS.visibleItems} items, the most it can; take one off first`,
        },
      ]);
    }
    await placeChannelItem(ctx.db, ctx.workspaceId, { kind: input.kind, id, visible: input.visible, position: input.position }, ctx.now);
    const channel = await channelDetail(ctx.db, ctx.workspaceId, ctx.links, ctx.now);
    const item = channel.items.find((placed) => placed.kind === input.kind && placed.id === id);
    if (!item) throw new Error(`set_channel_item: ${input.kind} ${id} missing after it was placed`);
    return { ...channel, item };
  },
});
