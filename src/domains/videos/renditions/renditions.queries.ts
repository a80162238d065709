/**
 * A video's HLS renditions (migration 0028): planned when processing knows the source's size, the
 * lowest made by processing itself, each other one by a `video.rendition` job of its own. A rendition
 * that fails is marked failed with its reason and nothing else: the video plays its other renditions,
 * or its original file.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, RenditionState } from '../../../db/tables/index.ts';
import { enqueueJob } from '../../../job-queue/queue.ts';
import type { RenditionPlan } from '../../../media/hls-ladder.ts';

export const VIDEO_RENDITION_JOB = 'video.rendition';
export const VIDEO_RENDITION_ATTEMPTS = 3;

export interface PlannedRendition {
  id: string;
  name: string;
  state: RenditionState;
  plan: RenditionPlan;
}

type VideoIds = { workspaceId: string; videoId: string };

/**
 * Records the ladder's rungs (those not recorded already: processing may run again after a crash)
 * and answers every rung in ladder order, with the id that names its files.
 */
export async function planRenditions(
  db: Kysely<Database>,
  ids: VideoIds,
  plans: readonly RenditionPlan[],
  now: Date,
): Promise<PlannedRendition[]> {
  if (plans.length === 0) return [];
  await db
    .insertInto('video_renditions')
    .values(
      plans.map((plan) => ({
        id: randomUUID(),
        workspace_id: ids.workspaceId,
        video_id: ids.videoId,
        name: plan.name,
        width: plan.width,
        height: plan.height,
        video_kbps: plan.videoKbps,
        audio_kbps: plan.audioKbps,
        state: 'queued' as const,
        codecs: plan.codecs,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((conflict) => conflict.columns(['video_id', 'name']).doNothing())
    .execute();
  const rows = await db
    .selectFrom('video_renditions')
    .select(['id', 'name', 'state'])
    .where('workspace_id', '=', ids.workspaceId)
    .where('video_id', '=', ids.videoId)
    .execute();
  const byName = new Map(rows.map((row) => [row.name, row]));
  return plans.flatMap((plan) => {
    const row = byName.get(plan.name);
    return row ? [{ id: row.id, name: row.name, state: row.state, plan }] : [];
  });
}

/** Queues a job for each rendition still to make; call it in the transaction that makes the video ready. */
export async function queueRenditionJobs(db: Kysely<Database>, ids: VideoIds, renditionIds: readonly string[], now: Date): Promise<void> {
  for (const renditionId of renditionIds) {
    await enqueueJob(
      db,
      {
        kind: VIDEO_RENDITION_JOB,
        workspaceId: ids.workspaceId,
        payload: { video_id: ids.videoId, rendition_id: renditionId },
        maxAttempts: VIDEO_RENDITION_ATTEMPTS,
      },
      now,
    );
  }
}

/** The rendition to make now, marked processing; undefined when it is made already, failed for good, or gone. */
export async function startRendition(db: Kysely<Database>, ids: VideoIds, renditionId: string, now: Date) {
  return db
    .updateTable('video_renditions')
    .set({ state: 'processing', updated_at: now })
    .where('workspace_id', '=', ids.workspaceId)
    .where('video_id', '=', ids.videoId)
    .where('id', '=', renditionId)
    .where('state', 'in', ['queued', 'processing'])
    .returning(['id', 'name', 'width', 'height', 'video_kbps', 'audio_kbps'])
    .executeTakeFirst();
}

export async function finishRendition(
  db: Kysely<Database>,
  renditionId: string,
  made: { bandwidth: number; averageBandwidth: number; segments: number; bytes: number },
  now: Date,
): Promise<void> {
  await db
    .updateTable('video_renditions')
    .set({
      state: 'ready',
      bandwidth: made.bandwidth,
      average_bandwidth: made.averageBandwidth,
      segments: made.segments,
      bytes: made.bytes,
      failure_reason: null,
      updated_at: now,
    })
    .where('id', '=', renditionId)
    .where('state', '=', 'processing')
    .execute();
}

export async function failRendition(db: Kysely<Database>, renditionId: string, reason: string, now: Date): Promise<void> {
  await db
    .updateTable('video_renditions')
    .set({ state: 'failed', failure_reason: reason.slice(0, 500), updated_at: now })
    .where('id', '=', renditionId)
    .where('state', '!=', 'ready')
    .execute();
}

/** Every rendition of the video, smallest first, as get_video lists them. */
export async function renditionsOf(db: Kysely<Database>, workspaceId: string, videoId: string) {
  return db
    .selectFrom('video_renditions')
    .select(['id', 'name', 'width', 'height', 'state', 'bandwidth', 'failure_reason'])
    .where('workspace_id', '=', workspaceId)
    .where('video_id', '=', videoId)
    .orderBy('height')
    .orderBy('width')
    .execute();
}

/** The ready renditions of a video, smallest first: what its master playlist offers. */
export async function playableRenditions(db: Kysely<Database>, videoId: string) {
  return db
    .selectFrom('video_renditions')
    .select(['id', 'width', 'height', 'codecs', 'bandwidth', 'average_bandwidth'])
    .where('video_id', '=', videoId)
    .where('state', '=', 'ready')
    .orderBy('bandwidth')
    .execute();
}

/**
 * Narrows a servable-video query to the video that has this ready rendition, so a request for one
 * of its files (a segment every few seconds per viewer) checks both in one query.
 */
export function havingPlayableRendition<O>(
  query: SelectQueryBuilder<Database, 'videos', O>,
  renditionId: string,
): SelectQueryBuilder<Database, 'videos', O> {
  return query.where((eb) =>
    eb.exists(
      eb
        .selectFrom('video_renditions')
        .select('video_renditions.id')
        .whereRef('video_renditions.video_id', '=', 'videos.id')
        .where('video_renditions.id', '=', renditionId)
        .where('video_renditions.state', '=', 'ready'),
    ),
  );
}
