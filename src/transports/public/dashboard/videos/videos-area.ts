/** Videos: the library (with its folders, adding videos, following their processing, editing them) and each video's page. */
import type { FastifyInstance } from 'fastify';
import type { DashboardEnv } from '../kit/page-route.ts';
import { registerEditPage } from './edit-page.ts';
import { registerFoldersPage } from './folders-page.ts';
import { registerLibraryPage } from './library-page.ts';
import { registerNewVideoPage } from './new-video-page.ts';
import { registerProcessingPage } from './processing-page.ts';
import { registerVideoPage } from './video-page.ts';

export function registerVideosArea(scope: FastifyInstance, env: DashboardEnv): void {
  registerVideoPage(scope, env.deps, env.cookies);
  registerLibraryPage(scope, env);
  registerFoldersPage(scope, env);
  registerNewVideoPage(scope, env);
  registerProcessingPage(scope, env);
  registerEditPage(scope, env);
}
