/**
 * What the public route player reads (src/transports/public/route-player/route-player.ts). Public requests name a route by
 * its unguessable id alone, without a workspace, like watch pages name a video: the route row (any
 * status; the page decides what each shows), its graph, and which of its steps' videos may be
 * served (servable-videos.queries.ts), with what the player needs to show them, their captions and
 * adaptive streams too.
 */
import type { Kysely } from 'kysely';
import { PLANS } from '../../../core/plans.ts';
import { isUuid } from '../../../core/values/real-instants.ts';
import type { Database, RouteStatus } from '../../../db/tables/index.ts';
import { captionLanguages } from '../../transcripts/index.ts';
import { servableVideos, videosWithAdaptiveStream } from '../../videos/index.ts';
import { workspaceSettings } from '../../workspace/index.ts';
import { loadRouteGraph } from '../graph/route-graph.queries.ts';
import type { RouteGraph } from '../graph/route-graph.ts';

export interface PlayerRoute {
  id: string;
  workspaceId: string;
  name: string;
  status: RouteStatus;
}

export interface PlayableVideo {
  id: string;
  duration_seconds: number | null;
  has_poster: boolean;
  width: number | null;
  height: number | null;
  /** Its transcript's language, offered as captions (null: language not known); undefined without a transcript. */
  captions_language: string | null | undefined;
  /** Whether it has a ready rendition, so an adaptive stream to play. */
  has_stream: boolean;
}

/**
 * The route with this id, or undefined when there is none, the id is malformed, or the workspace's
 * plan does not include interactive routes (a workspace moved to free stops playing its routes).
 */
export async function findPlayerRoute(db: Kysely<Database>, routeId: string): Promise<PlayerRoute | undefined> {
  if (!isUuid(routeId)) return undefined;
  const row = await db
    .selectFrom('routes as r')
    .innerJoin(workspaceSettings(db).as('w'), 'w.id', 'r.workspace_id')
    .select(['r.id', 'r.workspace_id', 'r.name', 'r.status', 'w.plan'])
    .where('r.id', '=', routeId.toLowerCase())
    .executeTakeFirst();
  if (!row || !PLANS[row.plan].entitlements.has('interactive_routes')) return undefined;
  return { id: row.id, workspaceId: row.workspace_id, name: row.name, status: row.status };
}

/** The route's graph, and by video id the steps' videos the public side may play. */
export async function playerGraph(
  db: Kysely<Database>,
  route: PlayerRoute,
): Promise<{ graph: RouteGraph; playable: Map<string, PlayableVideo> }> {
  const graph = await loadRouteGraph(db, route.workspaceId, route.id);
  const videoIds = [...new Set(graph.steps.map((step) => step.video.id))];
  const videos = await servableVideos(db)
    .where('videos.workspace_id', '=', route.workspaceId)
    .where('videos.id', 'in', videoIds)
    .select(['id', 'duration_seconds', 'has_poster', 'width', 'height'])
    .execute();
  const ids = videos.map((video) => video.id);
  const languages = await captionLanguages(db, route.workspaceId, ids);
  const streams = await videosWithAdaptiveStream(db, route.workspaceId, ids);
  return {
    graph,
    playable: new Map(
      videos.map((video) => [video.id, { ...video, captions_language: languages.get(video.id), has_stream: streams.has(video.id) }]),
    ),
  };
}
