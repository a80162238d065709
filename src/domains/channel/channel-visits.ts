/**
 * Recording what the channel page's visitors did (POST /c/{slug}/events, from /channel.js): a page
 * view, and each item opened from it. The page makes its view's id, so a report sent twice changes
 * nothing (the view's row and each (view, item) pair are keyed); an id already used by another
 * channel's view is refused, so no report can attach opens to someone else's page. Opens are
 * recorded only for items the channel has (in its grid or featured).
 */
import type { Kysely } from 'kysely';
import { AppError, type FieldProblem } from '../../core/errors.ts';
import type { ChannelItemKind, Database } from '../../db/tables/index.ts';

export type ChannelVisitEvent = { type: 'view' } | { type: 'open'; kind: ChannelItemKind; id: string };

export interface ChannelVisitReport {
  workspaceId: string;
  viewId: string;
  viewerId: string | null;
  events: ChannelVisitEvent[];
  now: Date;
}

/** Which of the opened items the channel does not have, as problems naming each. */
async function unknownItemProblems(db: Kysely<Database>, workspaceId: string, events: ChannelVisitEvent[]): Promise<FieldProblem[]> {
  const opened = events.flatMap((event, index) => (event.type === 'open' ? [{ ...event, index }] : []));
  if (opened.length === 0) return [];
  const [placed, channel] = await Promise.all([
    db
      .selectFrom('channel_items')
      .select(['kind', 'item_id'])
      .where('workspace_id', '=', workspaceId)
      .where(
        'item_id',
        'in',
        opened.map((event) => event.id),
      )
      .execute(),
    db.selectFrom('channels').select(['featured_video_id', 'featured_route_id']).where('workspace_id', '=', workspaceId).executeTakeFirst(),
  ]);
  const known = new Set(placed.map((row) => `${row.kind}:${row.item_id}`));
  if (channel?.featured_video_id) known.add(`video:${channel.featured_video_id}`);
  if (channel?.featured_route_id) known.add(`route:${channel.featured_route_id}`);
  return opened
    .filter((event) => !known.has(`${event.kind}:${event.id}`))
    .map((event) => ({ field: `events[${event.index}].id`, problem: `this channel has no ${event.kind} ${event.id}` }));
}

export async function recordChannelVisit(db: Kysely<Database>, report: ChannelVisitReport): Promise<void> {
  const problems = await unknownItemProblems(db, report.workspaceId, report.events);
  if (problems.length > 0) throw AppError.invalid(problems);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('channel_views')
      .values({ id: report.viewId, workspace_id: report.workspaceId, viewer_id: report.viewerId, viewed_at: report.now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const view = await trx.selectFrom('channel_views').select('workspace_id').where('id', '=', report.viewId).executeTakeFirstOrThrow();
    if (view.workspace_id !== report.workspaceId) {
      throw AppError.invalid([{ field: 'view_id', problem: 'belongs to another page view; make a new one for each page view' }]);
    }
    const opens = report.events.flatMap((event) =>
      event.type === 'open'
        ? [{ view_id: report.viewId, workspace_id: report.workspaceId, kind: event.kind, item_id: event.id, opened_at: report.now }]
        : [],
    );
    if (opens.length === 0) return;
    await trx
      .insertInto('channel_item_opens')
      .values(opens)
      .onConflict((oc) => oc.columns(['view_id', 'kind', 'item_id']).doNothing())
      .execute();
  });
}
