/**
 * The choices a set of browsers (viewer ids) made in routes, for a lead's journey (leads): the
 * steps of their visits where a choice was made, with the step's video, and the label as it was
 * chosen (a choice re-wired away since keeps the words the viewer saw). The browsers come as a
 * subquery (the browsers linked to a lead), so the read stays one statement.
 */
import { type Expression, type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';
import { videoTitles } from '../../videos/index.ts';

export interface BrowserRouteChoice {
  chosen_at: Date;
  route_id: string;
  route: string;
  choice: string | null;
  target: string | null;
  video_id: string;
  title: string;
}

/** The browsers' latest `limit` route choices, before or after any link of theirs, and how many there are. */
export async function browserRouteChoices(
  db: Kysely<Database>,
  workspaceId: string,
  viewerIds: Expression<{ viewer_id: string }>,
  limit: number,
): Promise<{ rows: BrowserRouteChoice[]; total: number }> {
  const visitSteps = sql`route_visit_steps vs join route_visits rv on rv.id = vs.visit_id`;
  const madeByBrowsers = sql`vs.workspace_id = ${workspaceId} and rv.workspace_id = ${workspaceId} and vs.chosen_at is not null
    and rv.viewer_id in ${viewerIds}`;
  const [rows, count] = await Promise.all([
    sql<BrowserRouteChoice>`select vs.chosen_at, vs.route_id, r.name as route, coalesce(vs.choice_label, c.label) as choice, c.target,
         v.id as video_id, v.title
       from ${visitSteps}
       join routes r on r.id = vs.route_id
       join route_steps st on st.id = vs.step_id
       join ${videoTitles(db, workspaceId)} v on v.id = st.video_id
       left join route_choices c on c.id = vs.choice_id
       where ${madeByBrowsers}
       order by vs.chosen_at desc, vs.visit_id desc, vs.position desc limit ${limit}`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from ${visitSteps} where ${madeByBrowsers}`.execute(db),
  ]);
  return { rows: rows.rows, total: count.rows[0]?.n ?? 0 };
}
