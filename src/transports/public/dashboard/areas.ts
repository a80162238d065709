/**
 * The dashboard's areas, registered from one list as the public surfaces are: each area is a folder
 * under dashboard/ with its pages, its forms and its tests, and one `register…` function here.
 */
import type { FastifyInstance } from 'fastify';
import { registerAccountArea } from './account/account-area.ts';
import { registerChannelArea } from './channel/channel-area.ts';
import { registerHomeArea } from './home/home-area.ts';
import type { DashboardEnv } from './kit/page-route.ts';
import { registerLeadsArea } from './leads/leads-area.ts';
import { registerRevenueArea } from './revenue/revenue-area.ts';
import { registerRoutesArea } from './routes/routes-area.ts';
import { registerSchedulingArea } from './scheduling/scheduling-area.ts';
import { registerSearchArea } from './search/search-area.ts';
import { registerSettingsArea } from './settings/settings-area.ts';
import { registerVideosArea } from './videos/videos-area.ts';

export const DASHBOARD_AREAS: readonly ((scope: FastifyInstance, env: DashboardEnv) => void)[] = [
  registerHomeArea,
  registerAccountArea,
  registerVideosArea,
  registerLeadsArea,
  registerRevenueArea,
  registerRoutesArea,
  registerSchedulingArea,
  registerChannelArea,
  registerSettingsArea,
  registerSearchArea,
];
