/**
 * Video reads and writes. Every function takes the workspace id and filters on it; a fetch by id that
 * misses in this workspace throws not_found, whoever really owns the id.
 */

import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { AppError } from '../../core/errors.ts';
import { findInWorkspace, foundInWorkspace } from '../../core/find-in-workspace.ts';
import { type KeysetOrder, keysetPage, type SortColumn } from '../../core/lists/keyset-page.ts';
import type { KeysetRows, PageRequest } from '../../core/lists/pagination.ts';
import { seconds, secondsOrNull, shareOf } from '../../core/values/reported-numbers.ts';
import type { Database, VideoRow } from '../../db/tables/index.ts';
import type { MediaLinks } from '../../media/media-links.ts';
import { storedLeadForm } from '../leads/index.ts';
import { type TranscriptFacts, transcriptFacts } from '../transcripts/index.ts';
import { conversionsOf, videoLifetimeStats } from '../viewing/index.ts';
import { renditionsOf } from './renditions/renditions.queries.ts';
import { isServable } from './servable-videos.queries.ts';
import type { VideoDetail, VideoSummary } from './videos.schemas.ts';

export const VIDEO_SORTS = ['newest', 'oldest', 'most_viewed', 'title'] as const;
export type VideoSort = (typeof VIDEO_SORTS)[number];
export const ARCHIVED_FILTERS = ['exclude', 'include', 'only'] as const;

export interface VideoFilters {
  status?: string;
  folder_id?: string;
  tags?: string[];
  search?: string;
  archived: (typeof ARCHIVED_FILTERS)[number];
  sort: VideoSort;
}

function baseQuery(db: Kysely<Database>, workspaceId: string) {
  return db
    .selectFrom('videos as v')
    .leftJoin('folders as f', (join) => join.onRef('f.id', '=', 'v.folder_id').on('f.workspace_id', '=', workspaceId))
    .where('v.workspace_id', '=', workspaceId);
}

type VideoQuery = ReturnType<typeof baseQuery>;

function applyFilters(query: VideoQuery, filters: VideoFilters): VideoQuery {
  let q = query;
  if (filters.status) q = q.where('v.status', '=', filters.status as VideoSummary['status']);
  if (filters.folder_id) q = q.where('v.folder_id', '=', filters.folder_id);
  if (filters.tags && filters.tags.length > 0) q = q.where('v.tags', '@>', sql<string[]>`${filters.tags}::text[]`);
  if (filters.archived !== 'include') q = q.where('v.archived', '=', filters.archived === 'only');
  if (filters.search) {
    const pattern = `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('v.title', 'ilike', pattern),
        eb('v.description', 'ilike', pattern),
        eb(sql`array_to_string(v.tags, ' ')`, 'ilike', pattern),
      ]),
    );
  }
  return q;
}

/** The order of each sort; `id` last breaks ties, so pages never repeat or skip a video. */
const ORDER: Record<VideoSort, KeysetOrder> = {
  newest: { direction: 'desc', columns: [column('v.created_at', 'timestamptz'), column('v.id', 'uuid')] },
  oldest: { direction: 'asc', columns: [column('v.created_at', 'timestamptz'), column('v.id', 'uuid')] },
  most_viewed: { direction: 'desc', columns: [column('v.view_count', 'bigint'), column('v.id', 'uuid')] },
  title: { direction: 'asc', columns: [column('lower(v.title)', 'text'), column('v.id', 'uuid')] },
};

function column(expression: string, type: SortColumn['type']): SortColumn {
  return { expression, type };
}

const summaryColumns = [
  'v.id',
  'v.title',
  'v.description',
  'v.status',
  'v.archived',
  'v.tags',
  'v.folder_id',
  'f.name as folder_name',
  'v.duration_seconds',
  'v.has_poster',
  'v.view_count',
  'v.created_at',
  'v.updated_at',
] as const;

type SummaryRow = {
  id: string;
  title: string;
  description: string;
  status: VideoSummary['status'];
  archived: boolean;
  tags: string[];
  folder_id: string | null;
  folder_name: string | null;
  duration_seconds: number | null;
  has_poster: boolean;
  view_count: number;
  created_at: Date;
  updated_at: Date;
};

function toSummary(row: SummaryRow, transcript: TranscriptFacts | undefined, links: MediaLinks): VideoSummary {
  return {
    video_id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    archived: row.archived,
    tags: row.tags,
    folder_id: row.folder_id,
    folder_name: row.folder_name,
    duration_seconds: secondsOrNull(row.duration_seconds),
    // Only what the public surface serves gets a URL: ready and not archived.
    poster_url: isServable(row) && row.has_poster ? links.posterUrl(row.id) : null,
    views: row.view_count,
    transcript: transcript
      ? {
          source: transcript.source,
          language: transcript.language,
          segments: transcript.segments,
          // Like the media URLs: only what the public surface serves.
          captions_url: isServable(row) ? links.captionsUrl(row.id) : null,
          updated_at: transcript.updated_at.toISOString(),
        }
      : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export async function listVideos(
  db: Kysely<Database>,
  workspaceId: string,
  filters: VideoFilters,
  page: PageRequest,
  links: MediaLinks,
): Promise<KeysetRows<VideoSummary>> {
  const filtered = applyFilters(baseQuery(db, workspaceId), filters);
  const { rows, keys, total } = await keysetPage(filtered, (query) => query.select(summaryColumns), ORDER[filters.sort], page);
  const transcripts = await transcriptFacts(
    db,
    workspaceId,
    rows.map((row) => row.id),
  );
  return { rows: rows.map((row) => toSummary(row, transcripts.get(row.id), links)), keys, total };
}

export async function getVideoDetail(db: Kysely<Database>, workspaceId: string, videoId: string, links: MediaLinks): Promise<VideoDetail> {
  const row = await baseQuery(db, workspaceId)
    .leftJoin(videoLifetimeStats(db, workspaceId).as('s'), 's.video_id', 'v.id')
    .select(summaryColumns)
    .select([
      'v.source_url',
      'v.file_name',
      'v.file_size',
      'v.width',
      'v.height',
      'v.failure_reason',
      'v.lead_form',
      'v.booking_event_type_id',
      's.views',
      's.unique_viewers',
      's.watch_time_seconds',
      's.engagement_sum',
      's.completions',
      's.conversions',
      's.leads',
    ])
    .where('v.id', '=', videoId)
    .executeTakeFirst()
    .then((found) => foundInWorkspace(found, 'videos', videoId));
  const views = row.views ?? 0;
  const completions = row.completions ?? 0;
  const served = isServable(row);
  const transcript = (await transcriptFacts(db, workspaceId, [row.id])).get(row.id);
  const renditions = await renditionsOf(db, workspaceId, row.id);
  return {
    ...toSummary(row, transcript, links),
    source_url: row.source_url,
    file_name: row.file_name,
    file_size: row.file_size,
    width: row.width,
    height: row.height,
    failure_reason: row.failure_reason,
    // Only what the public surface serves gets a URL: ready and not archived.
    playback_url: served ? links.playbackUrl(row.id) : null,
    hls_url: served && renditions.some((rendition) => rendition.state === 'ready') ? links.hlsUrl(row.id) : null,
    renditions: renditions.map(({ id: _id, ...rendition }) => rendition),
    watch_url: served ? links.watchUrl(row.id) : null,
    embed_url: served ? links.embedUrl(row.id) : null,
    stats: {
      views,
      unique_viewers: row.unique_viewers ?? 0,
      // Rounded as the analytics operations round the same figures (core/values/reported-numbers.ts).
      watch_time_seconds: seconds(row.watch_time_seconds ?? 0),
      average_engagement: shareOf(row.engagement_sum ?? 0, views),
      completions,
      completion_rate: shareOf(completions, views),
      conversions: conversionsOf({ conversions: row.conversions ?? 0, leads: row.leads ?? 0 }),
      leads: row.leads ?? 0,
    },
    lead_form: storedLeadForm(row.lead_form),
    booking_event_type_id: row.booking_event_type_id,
    booking_url: row.booking_event_type_id ? links.bookingPageUrl(row.booking_event_type_id, { videoId: row.id }) : null,
  };
}

/**
 * Throws not_found unless the folder exists in this workspace. Holds a key-share lock on it until the
 * transaction ends, so a delete_folder running at the same time waits for the video to be filed (and
 * then unfiles it) or has finished first (and this is not_found), never a foreign-key error.
 */
export async function assertFolderInWorkspace(db: Kysely<Database>, workspaceId: string, folderId: string): Promise<void> {
  await findInWorkspace(db, 'folders', { workspaceId, id: folderId }, (query) => query.select('id').forKeyShare());
}

/**
 * The video's length in seconds, null until processing has measured it; undefined when this workspace
 * has no such video (or, given a status, none in that status).
 */
export async function videoDuration(
  db: Kysely<Database>,
  workspaceId: string,
  videoId: string,
  status?: VideoRow['status'],
): Promise<number | null | undefined> {
  let query = db.selectFrom('videos').select('duration_seconds').where('workspace_id', '=', workspaceId).where('id', '=', videoId);
  if (status) query = query.where('status', '=', status);
  const row = await query.executeTakeFirst();
  return row ? row.duration_seconds : undefined;
}

/** Marks the video changed now, for a change kept outside its row (its transcript). */
export async function touchVideo(db: Kysely<Database>, workspaceId: string, videoId: string, now: Date): Promise<void> {
  await db.updateTable('videos').set({ updated_at: now }).where('workspace_id', '=', workspaceId).where('id', '=', videoId).execute();
}

/** Locks the video row for the rest of the transaction, so concurrent updates apply one after another. */
export async function lockVideo(db: Kysely<Database>, workspaceId: string, videoId: string): Promise<void> {
  await findInWorkspace(db, 'videos', { workspaceId, id: videoId }, (query) => query.select('id').forUpdate());
}

/** Throws plan_limit when the workspace already has as many videos as its plan allows. */
export async function assertVideoQuota(db: Kysely<Database>, workspaceId: string, videosMax: number | null): Promise<void> {
  if (videosMax === null) return;
  const row = await db
    .selectFrom('videos')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= videosMax) {
    throw new AppError(
      'plan_limit',
      `This workspace has ${row.n} videos, the most its plan allows (${videosMax}). Archive is not enough: upgrade the plan.`,
      {
        entitlement: 'videos.max',
        limit: videosMax,
      },
    );
  }
}

export interface NewVideoFields {
  status: 'waiting_upload' | 'processing';
  fileName: string;
  fileSize: number | null;
  sourceUrl: string | null;
  title?: string;
  folderId?: string;
  tags?: string[];
}

/**
 * Inserts a new video for an upload or an import: title from the file name unless given, tags
 * trimmed and de-duplicated. Returns its id.
 */
export async function insertNewVideo(db: Kysely<Database>, workspaceId: string, fields: NewVideoFields, now: Date): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('videos')
    .values({
      id,
      workspace_id: workspaceId,
      folder_id: fields.folderId ?? null,
      title: fields.title?.trim() ?? (fields.fileName.replace(/\.[^.]{1,8}$/, '') || fields.fileName),
      tags: [...new Set((fields.tags ?? []).map((t) => t.trim()))],
      status: fields.status,
      source_url: fields.sourceUrl,
      file_name: fields.fileName,
      file_size: fields.fileSize,
      duration_seconds: null,
      width: null,
      height: null,
      failure_reason: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
