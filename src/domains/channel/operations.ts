/** The channel domain's operations, in catalog order (DESIGN §3). */
import { getChannel } from './operations/get-channel.ts';
import { setChannelFeatured } from './operations/set-channel-featured.ts';
import { setChannelItem } from './operations/set-channel-item.ts';
import { updateChannel } from './operations/update-channel.ts';

export const channelOperations = [getChannel, setChannelItem, setChannelFeatured, updateChannel];
