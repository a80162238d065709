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
 * attributed to a video first watched today. The views are viewing's (viewAtEdge), narrowed to the
 * lead's browsers (leadBrowsers, a subquery of the leads area): one statement for each end.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { leadBrowsers, leadOrigin } from '../leads/index.ts';
import { viewAtEdge } from '../viewing/index.ts';

export interface Attribution {
  first_touch_video_id: string | null;
  last_touch_video_id: string | null;
}

export async function attributeToVideos(db: Kysely<Database>, workspaceId: string, leadId: string, occurredAt: Date): Promise<Attribution> {
  const viewsOfLead = (direction: 'asc' | 'desc') =>
    viewAtEdge(db, workspaceId, leadBrowsers(db, workspaceId, leadId), occurredAt, direction);
  const [first, last, lead] = await Promise.all([viewsOfLead('asc'), viewsOfLead('desc'), leadOrigin(db, workspaceId, leadId)]);
  const capturedBy = lead?.source_video_id && lead.created_at <= occurredAt ? lead : undefined;
  const firstTouch = capturedBy && (!first || capturedBy.created_at < first.started_at) ? capturedBy.source_video_id : first?.video_id;
  return { first_touch_video_id: firstTouch ?? null, last_touch_video_id: last?.video_id ?? null };
}
