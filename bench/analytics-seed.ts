/**
 * Seeds a workspace with a year of viewing history for the analytics-read benchmark
 * (bench/analytics-reads.ts), in bulk, since a million sessions through POST /collect would take
 * hours on a small machine:
 *
 * 1. 50 ready videos (60–600 s), each with its own typical watch share, a moment people rewatch and
 *    a call to action.
 * 2. The sessions' parameters, made by PostgreSQL from generate_series and a hash of the session
 *    number (hashint8extended), in an unlogged staging table: video (a few popular, a long tail),
 *    start time spread uniformly over the last 365 days, viewer (from a pool of a third as many ids
 *    as sessions, so viewers come back), how far they watch (14% leave in the first 3 s, some before
 *    1 s, so not a view; the rest exponentially around the video's typical share), a rewatch of the
 *    video's hot spot for about a third, a CTA click for some who watched > 60%.
 * 3. The raw history from those parameters, in two `insert … select`: viewing_sessions rows in their
 *    final state, and 1–6 viewing_batches rows per session (the first with `play`, each with a
 *    progress range, the last with the rewatch, the CTA click and a pause), as a player would have
 *    sent them. Times are whole milliseconds, so SQL and JavaScript describe the same ranges exactly.
 * 4. The rollups, built in JavaScript with the collection code itself: each session's batches (made
 *    again from the same parameters, see `sessionBatches`) are folded through `applyBatch`
 *    (session-change.ts), the function recordBatch uses, and its deltas summed per video per day
 *    (video_daily_stats), per video (video_heatmaps, video_stats, videos.view_count); distinct viewers
 *    with `addViewer` per view per video-day and `mergeSketches` of a video's days for its lifetime,
 *    as incremental collection would (viewer-sketch.ts). So the rollup rows are exactly those
 *    collection would have written, less the per-batch transactions.
 * 5. Leads and the ledger, since the analytics reads join them (issue 12): one lead per 20 sessions
 *    (created over the 365 days), one succeeded ledger entry per 50 sessions (a refund in ten, a
 *    quarter in EUR, the rest in USD), each attributed by last touch to one of the videos, and the
 *    leads captured counted in the rollups (a twentieth of each day's views). Bulk SQL: only the
 *    reads' cost matters here, not how the rows came to be. Then the workspace's day rollups from the
 *    video days, the leads and the ledger (workspace-day-rebuild.ts), the rows the fold and the
 *    writers of leads and entries would have kept.
 * 6. Checks, in SQL, that the raw rows and the rollups agree: views, completions, conversions and
 *    watch time of viewing_sessions against the rollups, the sum of the progress ranges in
 *    viewing_batches' JSON against the watch time, one heatmap view per view. A difference stops the
 *    benchmark.
 *
 * Every size uses the same 50 videos over the same 365 days, so the number of rollup rows stays in
 * the same range (at most 50 × 366 day rows, 50 heatmaps) while the raw history grows.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { prng } from '../src/cli/demo-library.ts';
import { createWorkspace } from '../src/create-workspace.ts';
import type { ViewingEvent } from '../src/domains/viewing/index.ts';
import {
  addViewer,
  applyBatch,
  countViewers,
  emptySketch,
  mergeSketches,
  type RollupDelta,
  rebuildWorkspaceDays,
  rebuildWorkspaceLedgerDays,
  type SessionState,
  SLICES,
} from '../src/domains/viewing/index.ts';
import type { BenchPool } from './throwaway-database.ts';

const VIDEOS = 50;
const HISTORY_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface SessionParameters {
  durationMs: number;
  /** Played from 0 to here, in ms. */
  leaveMs: number;
  rewatchFromMs: number | null;
  rewatchToMs: number | null;
  ctaMs: number | null;
  batches: number;
}

/**
 * The batches a seeded session sent; the SQL in `insertBatches` writes the same ones. Batch k of n
 * plays [leave·(k−1)/n, leave·k/n) (whole ms); the first starts with `play`, the last ends with the
 * rewatch (seek back, play the hot spot), the CTA click and a pause.
 */
export function sessionBatches(p: SessionParameters): ViewingEvent[][] {
  const s = (ms: number) => ms / 1000;
  const batches: ViewingEvent[][] = [];
  for (let k = 1; k <= p.batches; k++) {
    const from = Math.floor((p.leaveMs * (k - 1)) / p.batches);
    const to = Math.floor((p.leaveMs * k) / p.batches);
    const events: ViewingEvent[] = k === 1 ? [{ type: 'play', position: 0 }] : [];
    events.push({ type: 'progress', ranges: [[s(from), s(to)]] });
    if (k === p.batches) {
      if (p.rewatchFromMs !== null && p.rewatchToMs !== null) {
        events.push({ type: 'seek', from: s(p.leaveMs), to: s(p.rewatchFromMs) });
        events.push({ type: 'progress', ranges: [[s(p.rewatchFromMs), s(p.rewatchToMs)]] });
      }
      if (p.ctaMs !== null) events.push({ type: 'cta_click', position: s(p.ctaMs) });
      events.push({ type: 'pause', position: s(p.rewatchToMs ?? p.leaveMs) });
    }
    batches.push(events);
  }
  return batches;
}

export interface SeededWorkspace {
  workspaceId: string;
  apiKey: string;
  sessions: number;
  videoIds: string[];
  timeZone: string;
  rows: {
    viewingSessions: number;
    viewingBatches: number;
    dailyRows: number;
    /** workspace_daily_stats rows: what the summary reads. */
    workspaceDays: number;
    dailySketchBytes: number;
    heatmaps: number;
    videoStats: number;
    leads: number;
    outcomes: number;
  };
  totals: { views: number; completions: number; conversions: number; watchTimeSeconds: number; uniqueViewersLifetime: number };
  seconds: { rawHistory: number; rollups: number; checks: number };
  checks: { check: string; expected: number; actual: number; ok: boolean }[];
}

interface DayTotals {
  views: number;
  watch: number;
  engagement: number;
  completions: number;
  conversions: number;
  viewers: string[];
}

interface VideoTotals {
  days: Map<string, DayTotals>;
  heatmap: { views: number; reach: number[]; plays: number[]; ctaClicks: number[] };
}

export async function seedAnalyticsWorkspace(
  database: BenchPool,
  sessions: number,
  now: Date,
  log: (line: string) => void,
): Promise<SeededWorkspace> {
  const db = database.db;
  const { workspace, apiKey } = await createWorkspace(db, { name: `Analytics benchmark, ${sessions} sessions`, plan: 'business', now });
  const timeZone = workspace.timezone;
  const random = prng(365_050);
  const videos = Array.from({ length: VIDEOS }, (_, i) => ({
    id: randomUUID(),
    index: i,
    durationMs: (60 + Math.floor(random() * 541)) * 1000,
    typical: 0.3 + random() * 0.55,
    hot: 0.15 + random() * 0.6,
    cta: 0.75 + random() * 0.2,
  }));
  const createdAt = new Date(now.getTime() - (HISTORY_DAYS + 35) * DAY_MS);
  await db
    .insertInto('videos')
    .values(
      videos.map((v) => ({
        id: v.id,
        workspace_id: workspace.id,
        folder_id: null,
        title: `Analytics benchmark video ${v.index + 1}`,
        status: 'ready' as const,
        source_url: null,
        file_name: `video-${v.index + 1}.mp4`,
        file_size: 50_000_000,
        duration_seconds: v.durationMs / 1000,
        width: 1280,
        height: 720,
        failure_reason: null,
        created_at: createdAt,
        updated_at: createdAt,
      })),
    )
    .execute();

  // ── 2 and 3: the raw history, in SQL ─────────────────────────────────────────────────────────────
  const began = performance.now();
  const staging = `bench_seed_${workspace.id.replaceAll('-', '').slice(0, 12)}`;
  const seed = sessions % 100_000; // different sizes, different sessions
  const u = (k: number) => sql.raw(`((hashint8extended(i, ${seed * 100 + k}) & 4294967295)::float8 / 4294967296.0)`);
  const viewerPool = Math.max(1000, Math.floor(sessions / 3));
  await sql`
    create unlogged table ${sql.table(staging)} as
    with v as (
      select (t.ord - 1)::int as vi, t.id as video_id, t.dur_ms, t.typical, t.hot, t.cta
      from unnest(${videos.map((v) => v.id)}::uuid[], ${videos.map((v) => v.durationMs)}::int[],
                  ${videos.map((v) => v.typical)}::float8[], ${videos.map((v) => v.hot)}::float8[],
                  ${videos.map((v) => v.cta)}::float8[]) with ordinality as t(id, dur_ms, typical, hot, cta, ord)
    ),
    r as (
      select i, ${u(1)} as u_video, ${u(2)} as u_time, ${u(3)} as u_viewer, ${u(4)} as u_early,
             ${u(5)} as u_leave, ${u(6)} as u_rewatch, ${u(7)} as u_cta
      from generate_series(1, ${sessions}::bigint) as i
    ),
    p as (
      select r.*, v.*,
             ${now}::timestamptz - (r.u_time * ${HISTORY_DAYS * DAY_MS})::bigint * interval '1 millisecond' as started_at,
             case when r.u_early < 0.14 then 200 + floor(r.u_leave * 2800)::int
                  else greatest(2000, least(v.dur_ms, floor(-ln(1 - r.u_leave) * v.typical * v.dur_ms)::int)) end as leave0
      from r join v on v.vi = least(${VIDEOS - 1}, floor(${VIDEOS} * power(r.u_video, 1.5))::int)
    ),
    q as (
      -- Keep 50 ms away from the 1 s view threshold and the 90% completion threshold, so float sums
      -- on either side cannot disagree on which side a session falls.
      select p.*, case when leave0 between 950 and 1050 or abs(leave0::bigint * 10 - dur_ms::bigint * 9) < 500
                       then leave0 + 100 else leave0 end as leave_ms
      from p
    )
    select gen_random_uuid() as session_id, video_id, vi, dur_ms, started_at,
           (started_at at time zone ${timeZone})::date as day,
           'bench_viewer_' || lpad(floor(u_viewer * ${viewerPool})::bigint::text, 8, '0') as viewer_id,
           leave_ms,
           case when u_rewatch < 0.35 and floor((hot + 0.04) * dur_ms) <= leave_ms then floor((hot - 0.03) * dur_ms)::int end as rw_from,
           case when u_rewatch < 0.35 and floor((hot + 0.04) * dur_ms) <= leave_ms then floor((hot + 0.04) * dur_ms)::int end as rw_to,
           case when leave_ms > 0.6 * dur_ms and u_cta < 0.08 then floor(cta * dur_ms)::int end as cta_ms,
           least(6, 1 + leave_ms / 60000) as n
    from q`.execute(db);
  try {
    await sql`create index on ${sql.table(staging)} (vi)`.execute(db);
    await sql`
      insert into viewing_sessions (id, workspace_id, video_id, viewer_id, day, duration_seconds, started_at, last_seen_at,
                                    last_sequence, watched, played_seconds, is_view, completed, cta_clicks)
      select session_id, ${workspace.id}, video_id, viewer_id, day, dur_ms / 1000.0, started_at,
             started_at + (leave_ms + coalesce(rw_to - rw_from, 0)) * interval '1 millisecond', n,
             jsonb_build_array(jsonb_build_array(0, round(leave_ms / 1000.0, 3))),
             (leave_ms + coalesce(rw_to - rw_from, 0)) / 1000.0,
             leave_ms + coalesce(rw_to - rw_from, 0) >= 1000,
             leave_ms + coalesce(rw_to - rw_from, 0) >= 1000 and leave_ms::bigint * 10 >= dur_ms::bigint * 9,
             (cta_ms is not null)::int
      from ${sql.table(staging)}`.execute(db);
    const ms = (column: string) => sql.raw(`round(${column} / 1000.0, 3)`);
    await sql`
      insert into viewing_batches (session_id, sequence, workspace_id, video_id, events, received_at)
      select s.session_id, g.k, ${workspace.id}, s.video_id,
             case when g.k = 1 then jsonb_build_array(jsonb_build_object('type', 'play', 'position', 0)) else '[]'::jsonb end
             || jsonb_build_array(jsonb_build_object('type', 'progress', 'ranges', jsonb_build_array(jsonb_build_array(${ms('g.b0')}, ${ms('g.b1')}))))
             || case when g.k = s.n then
                  case when s.rw_from is not null then jsonb_build_array(
                    jsonb_build_object('type', 'seek', 'from', ${ms('s.leave_ms')}, 'to', ${ms('s.rw_from')}),
                    jsonb_build_object('type', 'progress', 'ranges', jsonb_build_array(jsonb_build_array(${ms('s.rw_from')}, ${ms('s.rw_to')}))))
                  else '[]'::jsonb end
                  || case when s.cta_ms is not null then jsonb_build_array(jsonb_build_object('type', 'cta_click', 'position', ${ms('s.cta_ms')}))
                     else '[]'::jsonb end
                  || jsonb_build_array(jsonb_build_object('type', 'pause', 'position', ${ms('coalesce(s.rw_to, s.leave_ms)')}))
                else '[]'::jsonb end,
             s.started_at + g.b0 * interval '1 millisecond'
      from ${sql.table(staging)} s,
           lateral (select k, (s.leave_ms::bigint * (k - 1)) / s.n as b0, (s.leave_ms::bigint * k) / s.n as b1
                    from generate_series(1, s.n) as k) g`.execute(db);
    const rawSeconds = (performance.now() - began) / 1000;
    log(`  ${sessions} sessions: raw history written in ${rawSeconds.toFixed(1)} s`);

    // ── 4: the rollups, through applyBatch ─────────────────────────────────────────────────────────
    const rollupsBegan = performance.now();
    const totals = { views: 0, completions: 0, conversions: 0, watchTimeSeconds: 0, uniqueViewersLifetime: 0 };
    let dailyRows = 0;
    let dailySketchBytes = 0;
    for (const video of videos) {
      const rows = await sql<{
        day: string;
        viewer_id: string;
        leave_ms: number;
        rw_from: number | null;
        rw_to: number | null;
        cta_ms: number | null;
        n: number;
      }>`select day::text as day, viewer_id, leave_ms, rw_from, rw_to, cta_ms, n from ${sql.table(staging)} where vi = ${video.index}`.execute(
        db,
      );
      const rolled = rollUp(video.durationMs, rows.rows);
      const daySketches: Uint8Array[] = [];
      const dayValues = [...rolled.days].map(([day, t]) => {
        const sketch = t.viewers.reduce<Uint8Array>((s, viewer) => addViewer(s, viewer), emptySketch());
        daySketches.push(sketch);
        dailySketchBytes += sketch.length;
        totals.views += t.views;
        totals.completions += t.completions;
        totals.conversions += t.conversions;
        totals.watchTimeSeconds += t.watch;
        return {
          video_id: video.id,
          day,
          workspace_id: workspace.id,
          views: t.views,
          unique_viewers: countViewers(sketch),
          viewer_sketch: sketch,
          watch_time_seconds: t.watch,
          engagement_sum: t.engagement,
          completions: t.completions,
          conversions: t.conversions,
        };
      });
      dailyRows += dayValues.length;
      for (let i = 0; i < dayValues.length; i += 500)
        await db
          .insertInto('video_daily_stats')
          .values(dayValues.slice(i, i + 500))
          .execute();
      if (rolled.heatmap.views === 0 && dayValues.length === 0) continue;
      const sum = (pick: (t: DayTotals) => number) => [...rolled.days.values()].reduce((a, t) => a + pick(t), 0);
      const lifetime = mergeSketches(daySketches);
      totals.uniqueViewersLifetime += countViewers(lifetime);
      await db
        .insertInto('video_stats')
        .values({
          video_id: video.id,
          workspace_id: workspace.id,
          views: sum((t) => t.views),
          unique_viewers: countViewers(lifetime),
          watch_time_seconds: sum((t) => t.watch),
          engagement_sum: sum((t) => t.engagement),
          completions: sum((t) => t.completions),
          conversions: sum((t) => t.conversions),
          viewer_sketch: lifetime,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto('video_heatmaps')
        .values({
          video_id: video.id,
          workspace_id: workspace.id,
          views: rolled.heatmap.views,
          reach: rolled.heatmap.reach,
          plays: rolled.heatmap.plays,
          cta_clicks: rolled.heatmap.ctaClicks,
        })
        .execute();
      await db
        .updateTable('videos')
        .set({ view_count: sum((t) => t.views) })
        .where('id', '=', video.id)
        .execute();
    }
    const rollupSeconds = (performance.now() - rollupsBegan) / 1000;
    log(`  ${sessions} sessions: rollups built in ${rollupSeconds.toFixed(1)} s (${dailyRows} day rows)`);

    // ── 5: leads and the ledger ───────────────────────────────────────────────────────────────────
    const ledger = await seedLedger(
      database,
      workspace.id,
      videos.map((v) => v.id),
      sessions,
      now,
    );
    log(`  ${sessions} sessions: ${ledger.leads} leads, ${ledger.outcomes} ledger entries`);
    // The workspace's day rollups, from the video days as the fold would have kept them (captured
    // leads included), and from the leads and the ledger as their writers would have.
    const workspaceDays = await rebuildWorkspaceDays(db, workspace.id);
    await rebuildWorkspaceLedgerDays(db, workspace.id);

    // ── 6: raw history and rollups agree ──────────────────────────────────────────────────────────
    const checksBegan = performance.now();
    const checks = await checkConsistency(database, workspace.id, totals);
    const checkSeconds = (performance.now() - checksBegan) / 1000;
    const counts = (
      await sql<{ sessions: string; batches: string }>`
        select (select count(*) from viewing_sessions where workspace_id = ${workspace.id}) as sessions,
               (select count(*) from viewing_batches where workspace_id = ${workspace.id}) as batches`.execute(db)
    ).rows[0];
    log(
      `  ${sessions} sessions: checks in ${checkSeconds.toFixed(1)} s: ${checks.every((c) => c.ok) ? 'raw history and rollups agree' : 'MISMATCH'}`,
    );
    return {
      workspaceId: workspace.id,
      apiKey,
      sessions,
      videoIds: videos.map((v) => v.id),
      timeZone,
      rows: {
        viewingSessions: Number(counts?.sessions ?? 0),
        viewingBatches: Number(counts?.batches ?? 0),
        dailyRows,
        workspaceDays,
        dailySketchBytes,
        heatmaps: VIDEOS,
        videoStats: VIDEOS,
        leads: ledger.leads,
        outcomes: ledger.outcomes,
      },
      totals,
      seconds: { rawHistory: rawSeconds, rollups: rollupSeconds, checks: checkSeconds },
      checks,
    };
  } finally {
    await sql`drop table if exists ${sql.table(staging)}`.execute(db);
  }
}

/** Leads and succeeded ledger entries spread over the history, in proportion to the sessions (step 5). */
async function seedLedger(database: BenchPool, workspaceId: string, videoIds: string[], sessions: number, now: Date) {
  const db = database.db;
  const [leads, outcomes] = [Math.max(1, Math.floor(sessions / 20)), Math.max(1, Math.floor(sessions / 50))];
  // Whole seconds back from now, spread over the history by a multiplicative hash of the row number.
  const ago = (i: string) => sql.raw(`((${i} * 7919) % ${HISTORY_DAYS * 86_400}) * interval '1 second'`);
  await sql`
    insert into leads (id, workspace_id, email, source, last_activity_at, created_at, updated_at)
    select gen_random_uuid(), ${workspaceId}, 'lead-' || i || '@bench.example', 'video', t, t, t
    from (select i, ${now}::timestamptz - ${ago('i')} as t from generate_series(1, ${leads}::bigint) as i) g`.execute(db);
  await sql`
    insert into outcomes (id, workspace_id, kind, status, amount, currency, last_touch_video_id, first_touch_video_id,
                          source, occurred_at, created_at)
    select gen_random_uuid(), ${workspaceId}, case when i % 10 = 0 then 'refund' else 'purchase' end, 'succeeded',
           1000 + (i * 37) % 20000, case when i % 4 = 0 then 'EUR' else 'USD' end, v, v, 'api', t, t
    from (select i, (${videoIds}::uuid[])[1 + (i * 13) % ${videoIds.length}] as v, ${now}::timestamptz - ${ago('i')} as t
          from generate_series(1, ${outcomes}::bigint) as i) g`.execute(db);
  await sql`update video_daily_stats set leads = views / 20 where workspace_id = ${workspaceId}`.execute(db);
  await sql`
    update video_stats s set leads = d.leads
    from (select video_id, sum(leads) as leads from video_daily_stats where workspace_id = ${workspaceId} group by video_id) d
    where s.video_id = d.video_id`.execute(db);
  return { leads, outcomes };
}

/** A video's sessions folded through applyBatch, batch by batch, as recordBatch would have. */
function rollUp(
  durationMs: number,
  sessions: {
    day: string;
    viewer_id: string;
    leave_ms: number;
    rw_from: number | null;
    rw_to: number | null;
    cta_ms: number | null;
    n: number;
  }[],
): VideoTotals {
  const days = new Map<string, DayTotals>();
  const heatmap = { views: 0, reach: zeros(), plays: zeros(), ctaClicks: zeros() };
  const add = (target: number[], delta: number[]) => {
    for (let i = 0; i < SLICES; i++) target[i] = (target[i] as number) + (delta[i] as number);
  };
  for (const row of sessions) {
    let state: SessionState = {
      durationSeconds: durationMs / 1000,
      watched: [],
      playedSeconds: 0,
      isView: false,
      completed: false,
      ctaClicks: 0,
    };
    let day = days.get(row.day);
    if (!day) {
      day = { views: 0, watch: 0, engagement: 0, completions: 0, conversions: 0, viewers: [] };
      days.set(row.day, day);
    }
    const batches = sessionBatches({
      durationMs,
      leaveMs: row.leave_ms,
      rewatchFromMs: row.rw_from,
      rewatchToMs: row.rw_to,
      ctaMs: row.cta_ms,
      batches: row.n,
    });
    for (const events of batches) {
      const { after, delta } = applyBatch(state, events);
      state = after;
      addDelta(day, delta, row.viewer_id);
      heatmap.views += delta.views;
      add(heatmap.reach, delta.reach);
      add(heatmap.plays, delta.plays);
      add(heatmap.ctaClicks, delta.ctaClicks);
    }
  }
  // A day row exists once some batch changed it; a day of sessions that all left at once has one too
  // (collection writes watch time even without a view), so every day seen keeps its row.
  return { days, heatmap };
}

function addDelta(day: DayTotals, delta: RollupDelta, viewerId: string): void {
  day.views += delta.views;
  day.watch += delta.watchTimeSeconds;
  day.engagement += delta.engagement;
  day.completions += delta.completions;
  day.conversions += delta.conversions;
  // recordBatch adds the viewer to the day's sketch when the session becomes a view.
  if (delta.views > 0) day.viewers.push(viewerId);
}

async function checkConsistency(
  database: BenchPool,
  workspaceId: string,
  totals: { views: number; completions: number; conversions: number; watchTimeSeconds: number },
) {
  const db = database.db;
  const raw = (
    await sql<{ views: string; completions: string; conversions: string; played: number }>`
      select count(*) filter (where is_view) as views, count(*) filter (where completed) as completions,
             count(*) filter (where is_view and cta_clicks > 0) as conversions, sum(played_seconds)::float8 as played
      from viewing_sessions where workspace_id = ${workspaceId}`.execute(db)
  ).rows[0];
  const ranges = (
    await sql<{ seconds: number }>`
      select coalesce(sum((r ->> 1)::numeric - (r ->> 0)::numeric), 0)::float8 as seconds
      from viewing_batches b, jsonb_array_elements(b.events) e, jsonb_array_elements(e -> 'ranges') r
      where b.workspace_id = ${workspaceId} and e ->> 'type' = 'progress'`.execute(db)
  ).rows[0];
  const rollups = (
    await sql<{ views: string; completions: string; conversions: string; watch: number; heatmap_views: string; lifetime_views: string }>`
      select coalesce(sum(views), 0) as views, coalesce(sum(completions), 0) as completions,
             coalesce(sum(conversions), 0) as conversions, coalesce(sum(watch_time_seconds), 0)::float8 as watch,
             (select coalesce(sum(views), 0) from video_heatmaps where workspace_id = ${workspaceId}) as heatmap_views,
             (select coalesce(sum(views), 0) from video_stats where workspace_id = ${workspaceId}) as lifetime_views
      from video_daily_stats where workspace_id = ${workspaceId}`.execute(db)
  ).rows[0];
  const exact = (check: string, expected: number, actual: number) => ({ check, expected, actual, ok: expected === actual });
  const close = (check: string, expected: number, actual: number) => ({
    check,
    expected: Math.round(expected * 1000) / 1000,
    actual: Math.round(actual * 1000) / 1000,
    ok: Math.abs(expected - actual) <= 1e-9 * Math.max(1, expected) + 1e-6,
  });
  return [
    exact('views: viewing_sessions = video_daily_stats', Number(raw?.views), Number(rollups?.views)),
    exact('views: applyBatch fold = video_daily_stats', totals.views, Number(rollups?.views)),
    exact('views: video_daily_stats = video_heatmaps', Number(rollups?.views), Number(rollups?.heatmap_views)),
    exact('views: video_daily_stats = video_stats', Number(rollups?.views), Number(rollups?.lifetime_views)),
    exact('completions: viewing_sessions = video_daily_stats', Number(raw?.completions), Number(rollups?.completions)),
    exact('conversions: viewing_sessions = video_daily_stats', Number(raw?.conversions), Number(rollups?.conversions)),
    close('watch time (s): viewing_sessions = video_daily_stats', Number(raw?.played), Number(rollups?.watch)),
    close('watch time (s): progress ranges in viewing_batches = video_daily_stats', Number(ranges?.seconds), Number(rollups?.watch)),
  ];
}

function zeros(): number[] {
  return new Array<number>(SLICES).fill(0);
}
