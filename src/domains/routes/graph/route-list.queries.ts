/**
 * The routes of a workspace, newest first, one keyset page at a time (core/lists/keyset-page.ts), served by
 * routes_created_idx. Without a status, archived routes are left out (archived means hidden); a video
 * filter keeps the routes with a step playing that video.
 */
import type { Kysely } from 'kysely';
import { type KeysetOrder, keysetPage } from '../../../core/lists/keyset-page.ts';
import type { KeysetRows, PageRequest } from '../../../core/lists/pagination.ts';
import type { Database, RouteRow, RouteStatus } from '../../../db/tables/index.ts';

export interface RouteFilters {
  videoId?: string | undefined;
  status?: RouteStatus | undefined;
}

const NEWEST: KeysetOrder = {
  direction: 'desc',
  columns: [
    { expression: 'r.created_at', type: 'timestamptz' },
    { expression: 'r.id', type: 'uuid' },
  ],
};

export function listRouteRows(
  db: Kysely<Database>,
  workspaceId: string,
  filters: RouteFilters,
  page: PageRequest,
): Promise<KeysetRows<RouteRow>> {
  let query = db.selectFrom('routes as r').where('r.workspace_id', '=', workspaceId);
  query = filters.status ? query.where('r.status', '=', filters.status) : query.where('r.status', '!=', 'archived');
  const { videoId } = filters;
  if (videoId) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('route_steps as s')
          .select('s.id')
          .whereRef('s.route_id', '=', 'r.id')
          .where('s.workspace_id', '=', workspaceId)
          .where('s.video_id', '=', videoId),
      ),
    );
  }
  return keysetPage(query, (filtered) => filtered.selectAll('r'), NEWEST, page);
}
