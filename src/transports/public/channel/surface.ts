/** The channel surface: a workspace's public channel page, its Markdown and llms.txt, and its events. */
import type { PublicSurface } from '../surface.ts';
import { registerChannelPage } from './channel-page.ts';

export const channelSurface: PublicSurface = { name: 'channel', register: registerChannelPage };
