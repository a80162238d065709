/** Videos: the library and each video's page. */
import type { FastifyInstance } from 'fastify';
import type { DashboardEnv } from '../kit/page-route.ts';
import { registerVideoPage } from './video-page.ts';

export function registerVideosArea(scope: FastifyInstance, { deps, cookies }: DashboardEnv): void {
  registerVideoPage(scope, deps, cookies);
}
