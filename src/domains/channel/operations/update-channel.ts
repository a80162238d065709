/**
 * update_channel: sets the channel page's headline and intro line (trimmed; shown as text, never as
 * HTML). Writes the workspace's channels row; emits no event. Returns get_channel.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { Nullable } from '../../../core/schemas.ts';
import { ChannelDek, ChannelDetail, ChannelHeadline } from '../channel.schemas.ts';
import { channelDetail } from '../channel-detail.ts';
import { lockChannel, updateChannelRow } from '../channel-writes.queries.ts';

export const updateChannel = defineOperation({
  name: 'update_channel',
  summary: 'Update the channel’s headline and intro line',
  description:
    'Sets the public channel page’s headline (up to 120 characters; null shows the workspace’s name) and its intro ' +
    'line, dek (up to 300; null for none). Both are trimmed and shown as plain text. Fields left out stay as they are. ' +
    'Returns get_channel.',
  method: 'PATCH',
  path: '/channel',
  group: 'Channel',
  scope: 'channel:write',
  write: true,
  errors: [],
  input: Type.Object(
    { headline: Type.Optional(Nullable(ChannelHeadline)), dek: Type.Optional(Nullable(ChannelDek)) },
    { additionalProperties: false },
  ),
  output: ChannelDetail,
  example: { headline: 'Watch how teams ship faster', dek: 'Short demos, customer stories and walkthroughs.' },
  async handler(ctx, input) {
    const changes = {
      ...(input.headline !== undefined && { headline: input.headline?.trim() ?? null }),
      ...(input.dek !== undefined && { dek: input.dek?.trim() ?? null }),
    };
    if (Object.keys(changes).length > 0) {
      await lockChannel(ctx.db, ctx.workspaceId, ctx.now);
      await updateChannelRow(ctx.db, ctx.workspaceId, changes, ctx.now);
    }
    return channelDetail(ctx.db, ctx.workspaceId, ctx.links, ctx.now);
  },
});
