/**
 * Attribution of a ledger entry to videos, computed once when the entry is written and stored with
 * it (docs/leads-and-outcomes.md, "Attribution"), so the ledger never changes under a report when
 * more viewing arrives later.
 *
 * - first touch: the video of the lead's earliest view (a session that played at least a second, in
 *   any browser linked to the lead), or the video whose form captured the lead when that came first;
 * - last touch: the video of the lead's latest view that started at or before the entry's time.
 *
 * Both look only at what happened up to the entry's time: a purchase dated last week is not
 * attributed to a video first watched today. This reads viewing sessions and the lead's browser links
 * directly: attribution is the one question that joins the two, and it is asked only here.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

export interface Attribution {
  first_touch_video_id: string | null;
  last_touch_video_id: string | null;
}

export async function attributeToVideos(db: Kysely<Database>, workspaceId: string, leadId: string, occurredAt: Date): Promise<Attribution> {
  const viewsOfLead = (direction: 'asc' | 'desc') =>
    db
      .selectFrom('viewing_sessions as s')
      .select(['s.video_id', 's.started_at'])
      .where('s.workspace_id', '=', workspaceId)
      .where('s.is_view', '=', true)
      .where('s.started_at', '<=', occurredAt)
      .where('s.viewer_id', 'in', (eb) =>
        eb
          .selectFrom('lead_viewers as lv')
          .select('lv.viewer_id')
          .where('lv.workspace_id', '=', workspaceId)
          .where('lv.lead_id', '=', leadId),
      )
      // The viewer index (workspace_id, viewer_id, started_at) serves both ends.
      .orderBy('s.started_at', direction)
      .orderBy(sql`s.id`, direction)
      .limit(1)
      .executeTakeFirst();
  const [first, last, lead] = await Promise.all([
    viewsOfLead('asc'),
    viewsOfLead('desc'),
    db
      .selectFrom('leads')
      .select(['source_video_id', 'created_at'])
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', leadId)
      .executeTakeFirst(),
  ]);
  const capturedBy = lead?.source_video_id && lead.created_at <= occurredAt ? lead : undefined;
  const firstTouch = capturedBy && (!first || capturedBy.created_at < first.started_at) ? capturedBy.source_video_id : first?.video_id;
  return { first_touch_video_id: firstTouch ?? null, last_touch_video_id: last?.video_id ?? null };
}
