/**
 * get_channel: the public channel as its visitors find it: address, headline and intro line, the
 * featured item, every item put on it (shown or not, and why not), what the grid shows now, and
 * the last 30 days of visitor activity. Reads only.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { ChannelDetail } from '../channel.schemas.ts';
import { channelDetail } from '../channel-detail.ts';

export const getChannel = defineOperation({
  name: 'get_channel',
  summary: 'What is live on the public channel',
  description:
    'Returns the workspace’s public channel page: its URL (and a Markdown version for assistants), the headline and intro ' +
    'line, the featured item, every video and route put on it with whether a visitor sees it now (and the reason when ' +
    'not: hidden, archived, not_ready, not_live, …), the grid as shown, and page views, visitors and opens of the last 30 days.',
  method: 'GET',
  path: '/channel',
  group: 'Channel',
  scope: 'workspace:read',
  write: false,
  errors: [],
  input: Type.Object({}, { additionalProperties: false }),
  output: ChannelDetail,
  example: {},
  handler: (ctx) => channelDetail(ctx.db, ctx.workspaceId, ctx.links, ctx.now),
});
