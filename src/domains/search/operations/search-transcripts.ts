/**
 * search_transcripts: where in the library something is said: ranked moments of the transcripts,
 * each with its video, its time, a snippet with the words marked and a watch link starting there.
 * Reads only (transcript-moments.queries.ts).
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { assertVideoInWorkspace, VideoId } from '../../videos/index.ts';
import { momentHit } from '../moment-hits.ts';
import { MomentHit, SearchText } from '../search.schemas.ts';
import { findMoments } from '../transcript-moments.queries.ts';

export const searchTranscripts = defineOperation({
  name: 'search_transcripts',
  summary: 'Find where a topic is spoken across the library',
  description:
    'Full-text search of every transcript: ranked moments, each with its video, start and end seconds, a snippet with the ' +
    'matched words between ** marks, and a watch link starting at that second. Words are matched by their stem in the ' +
    'transcript’s language; "quoted phrases", -excluded words and or work. Archived videos are left out unless asked.',
  method: 'GET',
  path: '/transcripts/search',
  group: 'Transcripts',
  scope: 'transcripts:read',
  write: false,
  errors: ['not_found'],
  input: Type.Object(
    {
      q: SearchText,
      video_id: Type.Optional(VideoId),
      limit: Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Most moments to return.' }),
      include_archived: Type.Boolean({ default: false, description: 'Search archived videos too.' }),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      q: Type.String({ description: 'The query as searched.' }),
      hits: Type.Array(MomentHit, { description: 'Best first; empty when nothing matches.' }),
    },
    { additionalProperties: false },
  ),
  example: { q: 'pricing "annual plan" -enterprise', limit: 10, include_archived: false },
  async handler(ctx, input) {
    const videoId = input.video_id?.toLowerCase();
    if (videoId) await assertVideoInWorkspace(ctx.db, ctx.workspaceId, videoId);
    const q = input.q.trim();
    const moments = await findMoments(ctx.db, {
      workspaceId: ctx.workspaceId,
      q,
      videoId,
      includeArchived: input.include_archived,
      limit: input.limit,
    });
    return { q, hits: moments.map((moment) => momentHit(ctx.links, moment)) };
  },
});
