/**
 * list_changes: what changed across the workspace in the last few days, as a digest an assistant can
 * read out — views against the period before, biggest movers, videos that became ready or failed,
 * unusual drops, and summary sentences. From the per-day rollups and the events outbox; reads only.
 */
import { Type } from 'typebox';
import { addDays } from '../../../core/calendar/calendar-days.ts';
import { localDay } from '../../../core/calendar/time-zone.ts';
import { defineOperation } from '../../../core/operation.ts';
import { changePercent } from '../../../core/reported-numbers.ts';
import { videoStatusEvents, workspaceDayRowsWithTitles, workspaceTimeZone } from '../analytics.queries.ts';
import { Comparison, Mover, Period, StatusChange, UnusualDrop, WorkspaceTimeZone } from '../analytics.schemas.ts';
import { findMovers, findUnusualDrops, perVideo, summarize } from '../change-digest.ts';

export const listChanges = defineOperation({
  name: 'list_changes',
  summary: 'Get what changed across the workspace lately',
  description:
    'A digest of the last `days` days (1–90, default 7, today included, in the workspace time zone) against the same number of days ' +
    'before: total views and their change, the videos whose views rose or fell most (at least 10 views and 20%, so 1 → 2 is no news), ' +
    'videos that became ready or failed processing, unusual drops (quiet days, falling completion or conversion rates), and `summary`, ' +
    'a few sentences to read out. Start here when asked "how are my videos doing?".',
  method: 'GET',
  path: '/changes',
  group: 'Analytics',
  scope: 'analytics:read',
  write: false,
  errors: [],
  input: Type.Object(
    {
      days: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 90, default: 7, description: 'How many days to look back, today included.' }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      days: Type.Integer(),
      time_zone: WorkspaceTimeZone,
      period: Period,
      previous_period: Period,
      views: Comparison('Views across the workspace.'),
      movers_up: Type.Array(Mover, { description: 'Up to 5, biggest rise in views first.' }),
      movers_down: Type.Array(Mover, { description: 'Up to 5, biggest fall first.' }),
      became_ready: Type.Array(StatusChange, { description: 'Newest first, up to 20.' }),
      failed: Type.Array(StatusChange, { description: 'Newest first, up to 20.' }),
      unusual_drops: Type.Array(UnusualDrop, { description: 'Up to 10, steepest first.' }),
      summary: Type.Array(Type.String(), { description: 'Plain sentences, most important first.' }),
    },
    { additionalProperties: false },
  ),
  example: { days: 7 },
  async handler(ctx, input) {
    const days = input.days ?? 7;
    const timeZone = await workspaceTimeZone(ctx.db, ctx.workspaceId);
    const today = localDay(ctx.now, timeZone);
    const period = { from_date: addDays(today, -(days - 1)), to_date: today, days };
    const previous = { from_date: addDays(today, -(2 * days - 1)), to_date: addDays(today, -days), days };
    const [rows, events] = await Promise.all([
      workspaceDayRowsWithTitles(ctx.db, ctx.workspaceId, previous.from_date, today),
      videoStatusEvents(ctx.db, ctx.workspaceId, { day: period.from_date, timeZone }, 100),
    ]);
    const videos = perVideo(rows, period.from_date);
    const movers = findMovers(videos);
    const drops = findUnusualDrops(rows, videos, { from: period.from_date, to: today, days, today });
    const viewsNow = rows.filter((row) => row.day >= period.from_date).reduce((sum, row) => sum + row.views, 0);
    const viewsBefore = rows.filter((row) => row.day < period.from_date).reduce((sum, row) => sum + row.views, 0);
    const views = { value: viewsNow, previous: viewsBefore, change_percent: changePercent(viewsNow, viewsBefore) };
    const changes = events.map((event) => ({
      video_id: event.video_id,
      title: event.title,
      at: event.at.toISOString(),
      reason: event.reason,
    }));
    const ready = changes.filter((_, i) => events[i]?.type === 'video.ready').slice(0, 20);
    const failed = changes.filter((_, i) => events[i]?.type === 'video.failed').slice(0, 20);
    return {
      days,
      time_zone: timeZone,
      period,
      previous_period: previous,
      views,
      movers_up: movers.up,
      movers_down: movers.down,
      became_ready: ready,
      failed,
      unusual_drops: drops,
      summary: summarize({ days, views, up: movers.up, down: movers.down, ready, failed, drops }),
    };
  },
});
