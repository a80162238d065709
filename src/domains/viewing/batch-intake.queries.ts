/**
 * The request side of collection: a group of batches from many requests checked against their
 * videos and stored raw by one statement, which is its own transaction. When it returns the group is
 * durable, and that is when each request is answered; the sessions and rollups are the fold's work
 * (viewing-fold.ts), off the request path. A resent batch is found by the raw table's primary key
 * (session, sequence) and answered `duplicate: true`. No row shared between requests is locked:
 * each stored batch is a new row.
 *
 * A group costs one round trip. What the checks need of a video that never changes once it is ready
 * (its workspace, its length) is remembered per process after the first read; whether it may be
 * watched (ready, not archived) is asked again by the storing statement itself, so a video archived
 * a moment ago collects nothing more, as on every other public surface.
 */
import { type Kysely, sql } from 'kysely';
import { AppError } from '../../core/errors.ts';
import type { ItemOutcome } from '../../core/values/group-commit.ts';
import type { Database } from '../../db/tables/index.ts';
import { findServableVideos, servableVideos } from '../videos/index.ts';
import { checkBatchEvents, type ViewingEvent } from './collect-batch.ts';

export interface IncomingBatch {
  sessionId: string;
  videoId: string;
  viewerId: string;
  sequence: number;
  events: ViewingEvent[];
  receivedAt: Date;
}

export type BatchReceipt = { duplicate: boolean };

interface VideoFacts {
  workspaceId: string;
  durationSeconds: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Videos remembered at most; past that the memory starts again (a few hundred bytes each). */
const REMEMBERED_VIDEOS = 10_000;

const notAvailable = () => new AppError('not_found', 'This video is not available for viewing.');

/** Stores groups of batches; answers each batch in order: stored, a duplicate, or the error of its own. */
export type BatchStore = (batches: readonly IncomingBatch[]) => Promise<ItemOutcome<BatchReceipt>[]>;

export function createBatchStore(db: Kysely<Database>): BatchStore {
  const remembered = new Map<string, VideoFacts>();

  const factsOf = async (videoIds: readonly string[]): Promise<Map<string, VideoFacts>> => {
    const unknown = videoIds.filter((id) => !remembered.has(id));
    if (unknown.length > 0) {
      const found = await findServableVideos(db, unknown, (query) =>
        query.select(['videos.id', 'videos.workspace_id', 'videos.duration_seconds']),
      );
      if (remembered.size + found.length > REMEMBERED_VIDEOS) remembered.clear();
      for (const video of found) {
        if (video.duration_seconds) remembered.set(video.id, { workspaceId: video.workspace_id, durationSeconds: video.duration_seconds });
      }
    }
    return remembered;
  };

  return async (batches) => {
    const facts = await factsOf([...new Set(batches.map((batch) => batch.videoId))]);
    const outcomes: ItemOutcome<BatchReceipt>[] = [];
    const checked: Checked[] = [];
    batches.forEach((batch, index) => {
      const video = facts.get(batch.videoId);
      if (!video || !UUID.test(batch.sessionId)) {
        outcomes[index] = { ok: false, error: notAvailable() };
        return;
      }
      const problems = checkBatchEvents(batch.events, video.durationSeconds);
      if (problems.length > 0) outcomes[index] = { ok: false, error: AppError.invalid(problems) };
      else checked.push({ index, batch, workspaceId: video.workspaceId });
    });
    if (checked.length === 0) return outcomes;

    const { servable, stored } = await insertServable(db, checked);
    // The same (session, sequence) twice in one group: the INSERT keeps one, so the first is stored
    // and the rest are duplicates, as if they had come later.
    const claimed = new Set<string>();
    for (const { index, batch } of checked) {
      if (!servable.has(batch.videoId)) {
        remembered.delete(batch.videoId);
        outcomes[index] = { ok: false, error: notAvailable() };
        continue;
      }
      const key = `${batch.sessionId}:${batch.sequence}`;
      const isNew = stored.has(key) && !claimed.has(key);
      if (isNew) claimed.add(key);
      outcomes[index] = { ok: true, value: { duplicate: !isNew } };
    }
    return outcomes;
  };
}

interface Checked {
  index: number;
  batch: IncomingBatch;
  workspaceId: string;
}

/**
 * One statement: the batches of videos that may be watched now are inserted (arrays, so the
 * statement is the same whatever the group's size); answers which videos were servable and which
 * (session, sequence) keys were stored.
 */
async function insertServable(db: Kysely<Database>, checked: readonly Checked[]): Promise<{ servable: Set<string>; stored: Set<string> }> {
  const column = <T>(pick: (entry: Checked) => T) => checked.map(pick);
  const videoIds = [...new Set(column((e) => e.batch.videoId))];
  const servableAmong = servableVideos(db).select('videos.id').where('videos.id', '=', sql<string>`any(${videoIds}::uuid[])`);
  const { rows } = await sql<{ kind: 'servable' | 'stored'; id: string; sequence: number | null }>`
    with servable as ${servableAmong}, stored as (
      insert into viewing_batches (session_id, sequence, workspace_id, video_id, viewer_id, events, received_at)
      select b.session_id, b.sequence, b.workspace_id, b.video_id, b.viewer_id, b.events, b.received_at
      from unnest(
        ${column((e) => e.batch.sessionId)}::uuid[],
        ${column((e) => e.batch.sequence)}::integer[],
        ${column((e) => e.workspaceId)}::uuid[],
        ${column((e) => e.batch.videoId)}::uuid[],
        ${column((e) => e.batch.viewerId)}::text[],
        ${column((e) => JSON.stringify(e.batch.events))}::jsonb[],
        ${column((e) => e.batch.receivedAt.toISOString())}::timestamptz[]
      ) as b(session_id, sequence, workspace_id, video_id, viewer_id, events, received_at)
      where b.video_id in (select id from servable)
      on conflict (session_id, sequence) do nothing
      returning session_id, sequence
    )
    select 'servable' as kind, id::text as id, null::integer as sequence from servable
    union all
    select 'stored', session_id::text, sequence from stored`.execute(db);
  const servable = new Set<string>();
  const stored = new Set<string>();
  for (const row of rows) {
    if (row.kind === 'servable') servable.add(row.id);
    else stored.add(`${row.id}:${row.sequence}`);
  }
  return { servable, stored };
}
