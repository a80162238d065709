/**
 * update_video: renames, describes, retags, refiles, archives or unarchives a video, or sets its lead
 * form or its "Book a call" event type. Writes the video row and, when anything changed, a
 * `video.updated` event listing the changed fields.
 */
import { Type } from 'typebox';
import { AppError } from '../../../core/errors.ts';
import { defineOperation } from '../../../core/operation.ts';
import { Nullable, ResourceId } from '../../../core/schemas.ts';
import { LeadFormSetting, leadFormProblems, normalizeLeadForm } from '../../leads/index.ts';
import { bookingEventTypeProblems } from '../booking-event-type-checks.ts';
import { emitVideoUpdated } from '../video-change-events.ts';
import type { VideoChangeableField } from '../videos.events.ts';
import { assertFolderInWorkspace, getVideoDetail, lockVideo } from '../videos.queries.ts';
import { TagList, VideoDetail, VideoId, VideoTitle } from '../videos.schemas.ts';

export const updateVideo = defineOperation({
  name: 'update_video',
  summary: 'Rename, describe, retag or archive a video',
  description:
    'Changes a video’s title, description, tags (the list replaces the current one), folder (null to unfile) or ' +
    'archived flag. Archiving hides the video from lists and public pages and is the reversible alternative to ' +
    'deletion; archived=false restores it. lead_form sets the email form the watch and embed pages show (null turns ' +
    'it off). booking_event_type_id makes those pages offer "Book a call", opening that active event type’s booking ' +
    'page (null removes it). Only the fields sent change. Returns the updated video.',
  method: 'PATCH',
  path: '/videos/{video_id}',
  group: 'Videos',
  scope: 'videos:write',
  write: true,
  errors: ['not_found'],
  input: Type.Object(
    {
      video_id: VideoId,
      title: Type.Optional(VideoTitle('The new title.')),
      description: Type.Optional(Type.String({ maxLength: 5000 })),
      tags: Type.Optional(TagList),
      folder_id: Type.Optional(Nullable(ResourceId('folder', 'Folder to file the video in; null to take it out of its folder.'))),
      archived: Type.Optional(Type.Boolean({ description: 'true archives, false restores.' })),
      lead_form: Type.Optional(Nullable(LeadFormSetting)),
      booking_event_type_id: Type.Optional(
        Nullable(ResourceId('event_type', 'An active event type whose booking page the watch and embed pages offer; null: none.')),
      ),
    },
    { additionalProperties: false },
  ),
  // A wrong event type with a wrong title too: both in one answer.
  databaseProblems: bookingEventTypeProblems,
  output: VideoDetail,
  example: { video_id: '0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01', title: 'Product tour (2026)', tags: ['onboarding', 'tour'] },
  async handler(ctx, input) {
    const { video_id, ...fields } = input;
    await lockVideo(ctx.db, ctx.workspaceId, video_id);
    const current = await getVideoDetail(ctx.db, ctx.workspaceId, video_id, ctx.links);
    if (fields.folder_id) await assertFolderInWorkspace(ctx.db, ctx.workspaceId, fields.folder_id);
    const problems = [
      ...(fields.lead_form ? leadFormProblems(fields.lead_form, current.duration_seconds) : []),
      ...(await bookingEventTypeProblems(ctx.db, ctx.workspaceId, fields)),
    ];
    if (problems.length > 0) throw AppError.refusing(problems);
    const changes: {
      title?: string;
      description?: string;
      tags?: string[];
      folder_id?: string | null;
      archived?: boolean;
      lead_form?: string | null;
      booking_event_type_id?: string | null;
    } = {};
    if (fields.title !== undefined && fields.title.trim() !== current.title) changes.title = fields.title.trim();
    if (fields.description !== undefined && fields.description !== current.description) changes.description = fields.description;
    if (fields.tags !== undefined) {
      const tags = [...new Set(fields.tags.map((t) => t.trim()))];
      if (tags.join('\u0000') !== current.tags.join('\u0000')) changes.tags = tags;
    }
    if (fields.folder_id !== undefined && fields.folder_id !== current.folder_id) changes.folder_id = fields.folder_id;
    if (fields.archived !== undefined && fields.archived !== current.archived) changes.archived = fields.archived;
    if (fields.lead_form !== undefined) {
      const form = fields.lead_form === null ? null : normalizeLeadForm(fields.lead_form);
      if (JSON.stringify(form) !== JSON.stringify(current.lead_form)) changes.lead_form = form === null ? null : JSON.stringify(form);
    }
    if (fields.booking_event_type_id !== undefined) {
      const eventTypeId = fields.booking_event_type_id?.toLowerCase() ?? null;
      if (eventTypeId !== current.booking_event_type_id) changes.booking_event_type_id = eventTypeId;
    }
    if (Object.keys(changes).length === 0) return current;

    const updated = await ctx.db
      .updateTable('videos')
      .set({ ...changes, updated_at: ctx.now })
      .where('workspace_id', '=', ctx.workspaceId)
      .where('id', '=', video_id)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw AppError.notFound('video', video_id);
    const video = await getVideoDetail(ctx.db, ctx.workspaceId, video_id, ctx.links);
    await emitVideoUpdated(ctx.emit, video, Object.keys(changes) as VideoChangeableField[]);
    return video;
  },
});
