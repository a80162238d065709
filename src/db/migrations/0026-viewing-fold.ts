/**
 * Collection at scale (issue 17, docs/analytics.md "How the numbers are kept"). A request now only
 * stores its raw batch; the worker folds stored batches into the sessions and rollups later, in
 * order, exactly once. For that each batch row carries:
 *
 * - `fold_xid`: the transaction that stored it (`pg_current_xact_id()`), and `position`: a number
 *   from a sequence. Ordered by (fold_xid, position) the rows form a log the fold reads from a cursor.
 *   Positions alone would not do: a transaction can take a position, commit after a later one and be
 *   skipped by a fold that already passed it. A transaction id below the oldest still running
 *   (`pg_snapshot_xmin`) belongs to a transaction that has ended, and no new one can get an id that
 *   low, so folding only below that horizon never skips a row that commits later.
 * - `viewer_id`: the browser's id, which the session takes from its first batch.
 *
 * Rows stored before this migration have no fold_xid: they were counted as they arrived, and the
 * fold never reads them. `viewing_fold` holds the cursor: one row, locked by the fold that runs, so
 * two workers never fold at once.
 *
 * `workspace_daily_stats` is the per-workspace day rollup get_analytics_summary and
 * get_analytics_daily read, so their cost follows days, not video-days: the same sums as
 * video_daily_stats, a viewer sketch of the workspace's day, and a sketch of the videos viewed that
 * day (videos watched over a period is the count of the merged video sketches). It is filled here from
 * video_daily_stats, in SQL of its own (FILL below).
 *
 * Frozen (issue 25): this migration once called the application's rebuild of workspace days
 * (domains/viewing/workspace-day-rebuild.ts and viewer-sketch.ts, as of commit e4ab10f), so it would
 * have changed meaning with that code. FILL is that code written out as SQL: byte for byte the same
 * sketches and counts for any data (frozen-migrations.test.ts compares the two). The sketch format
 * it writes, as viewer-sketch.ts had it then:
 *
 * - exact: byte 1, then the distinct 32-bit viewer hashes (the first four bytes of the SHA-256 of the
 *   id), big-endian, in ascending order; used up to 512 hashes;
 * - HyperLogLog: byte 2, then 2,048 one-byte registers. A hash's top 11 bits pick its register, which
 *   keeps the largest rank seen: the position of the first 1 in the hash's other 21 bits (22 when
 *   they are all 0).
 *
 * A day's viewer sketch merges its video-days' sketches: exact while every one is exact and their
 * hashes number at most 512, else a HyperLogLog holding every hash and the largest of every register.
 * Its count is the number of hashes, or HyperLogLog's estimate with linear counting below 2.5 × 2,048,
 * rounded half up as JavaScript's Math.round. The video sketch is the same kind of sketch of the ids
 * of the videos with views that day. A stored sketch that is neither kind fails the migration, as the
 * application code did.
 */
import { type Kysely, sql } from 'kysely';

const statements = [
  'alter table viewing_batches add column viewer_id text',
  'alter table viewing_batches add column fold_xid xid8',
  'create sequence viewing_batches_position_seq as bigint',
  'alter table viewing_batches add column position bigint',
  // Defaults set after the columns exist, so the rows already stored keep nulls and the table is not rewritten.
  'alter table viewing_batches alter column fold_xid set default pg_current_xact_id()',
  "alter table viewing_batches alter column position set default nextval('viewing_batches_position_seq')",
  'alter sequence viewing_batches_position_seq owned by viewing_batches.position',
  'create index viewing_batches_fold_idx on viewing_batches (fold_xid, position) where fold_xid is not null',
  `create table viewing_fold (
    id smallint primary key default 1 check (id = 1),
    fold_xid xid8 not null,
    position bigint not null,
    folded_at timestamptz(3)
  )`,
  `insert into viewing_fold (fold_xid, position) values ('0', 0)`,
  `create table workspace_daily_stats (
    workspace_id uuid not null references workspaces(id) on delete cascade,
    day date not null,
    views integer not null default 0,
    unique_viewers integer not null default 0,
    viewer_sketch bytea not null,
    video_sketch bytea not null,
    watch_time_seconds double precision not null default 0,
    engagement_sum double precision not null default 0,
    completions integer not null default 0,
    conversions integer not null default 0,
    leads integer not null default 0,
    primary key (workspace_id, day)
  )`,
];

/** The unsigned big-endian 32-bit number in `bytes` at `at` (SQL expressions). */
const uint32 = (bytes: string, at: string) =>
  `((get_byte(${bytes}, ${at})::bigint << 24) + (get_byte(${bytes}, ${at} + 1) << 16) + (get_byte(${bytes}, ${at} + 2) << 8) + get_byte(${bytes}, ${at} + 3))`;
/** The HyperLogLog register a hash raises, and the rank it raises it to. */
const REGISTER = 'hash >> 21';
const RANK = `coalesce(nullif(position(B'1' in substring(hash::bit(32) from 12)), 0), 22)`;
/** An exact sketch of the rows' `hash`es, which are distinct (an aggregate). */
const EXACT_SKETCH = `'\\x01'::bytea || string_agg(decode(lpad(to_hex(hash), 8, '0'), 'hex'), ''::bytea order by hash)`;
/** Math.round of a non-negative `x`: the nearest integer, halves up (round() on a float8 rounds them to even). */
const ROUND_HALF_UP = 'case when x - floor(x) >= 0.5 then ceil(x) else floor(x) end';

const FILL = `
  with days as (
    select workspace_id, day, sum(views) as views, sum(watch_time_seconds) as watch_time_seconds,
      sum(engagement_sum) as engagement_sum, sum(completions) as completions, sum(conversions) as conversions,
      sum(leads) as leads, bool_or(substring(viewer_sketch from 1 for 1) = '\\x02'::bytea) as any_loglog
    from video_daily_stats group by workspace_id, day
  ),
  viewer_hashes as (
    select distinct s.workspace_id, s.day, ${uint32('s.viewer_sketch', '1 + 4 * k')} as hash
    from video_daily_stats s cross join lateral generate_series(0, (length(s.viewer_sketch) - 1) / 4 - 1) as k
    where substring(s.viewer_sketch from 1 for 1) = '\\x01'::bytea
  ),
  video_hashes as (
    select distinct workspace_id, day, ${uint32('digest', '0')} as hash
    from (
      select workspace_id, day, sha256(convert_to(video_id::text, 'UTF8')) as digest from video_daily_stats where views > 0
    ) viewed
  ),
  viewer_exact as (
    select workspace_id, day, count(*) as n, ${EXACT_SKETCH} as sketch from viewer_hashes group by workspace_id, day
  ),
  video_exact as (
    select workspace_id, day, count(*) as n, ${EXACT_SKETCH} as sketch from video_hashes group by workspace_id, day
  ),
  kinds as (
    select d.workspace_id, d.day, d.any_loglog or coalesce(ve.n, 0) > 512 as viewers_loglog, coalesce(vi.n, 0) > 512 as videos_loglog
    from days d
    left join viewer_exact ve on ve.workspace_id = d.workspace_id and ve.day = d.day
    left join video_exact vi on vi.workspace_id = d.workspace_id and vi.day = d.day
  ),
  viewer_registers as (
    select workspace_id, day, register, max(rank) as rank
    from (
      select s.workspace_id, s.day, r.register, get_byte(s.viewer_sketch, 1 + r.register) as rank
      from video_daily_stats s cross join generate_series(0, 2047) as r(register)
      where substring(s.viewer_sketch from 1 for 1) = '\\x02'::bytea
      union all
      select h.workspace_id, h.day, (${REGISTER})::int, ${RANK}
      from viewer_hashes h join kinds k on k.workspace_id = h.workspace_id and k.day = h.day and k.viewers_loglog
    ) raised
    group by workspace_id, day, register
  ),
  video_registers as (
    select h.workspace_id, h.day, (${REGISTER})::int as register, max(${RANK}) as rank
    from video_hashes h join kinds k on k.workspace_id = h.workspace_id and k.day = h.day and k.videos_loglog
    group by h.workspace_id, h.day, register
  ),
  viewer_loglog as (
    select k.workspace_id, k.day,
      '\\x02'::bytea || string_agg(set_byte('\\x00'::bytea, 0, coalesce(r.rank, 0)), ''::bytea order by g.register) as sketch,
      sum(power(2::float8, -coalesce(r.rank, 0)) order by g.register) as harmonic,
      count(*) filter (where coalesce(r.rank, 0) = 0) as zeros
    from kinds k cross join generate_series(0, 2047) as g(register)
    left join viewer_registers r on r.workspace_id = k.workspace_id and r.day = k.day and r.register = g.register
    where k.viewers_loglog
    group by k.workspace_id, k.day
  ),
  viewer_estimates as (
    select workspace_id, day, sketch, (${ROUND_HALF_UP})::int as viewers
    from (
      select workspace_id, day, sketch,
        case when estimate <= 2.5 * 2048 and zeros > 0 then 2048 * ln(2048::float8 / zeros) else estimate end as x
      from (
        select workspace_id, day, sketch, zeros,
          0.7213::float8 / (1 + 1.079::float8 / 2048) * 2048 * 2048 / harmonic as estimate
        from viewer_loglog
      ) estimated
    ) counted
  ),
  video_loglog as (
    select k.workspace_id, k.day,
      '\\x02'::bytea || string_agg(set_byte('\\x00'::bytea, 0, coalesce(r.rank, 0)), ''::bytea order by g.register) as sketch
    from kinds k cross join generate_series(0, 2047) as g(register)
    left join video_registers r on r.workspace_id = k.workspace_id and r.day = k.day and r.register = g.register
    where k.videos_loglog
    group by k.workspace_id, k.day
  )
  insert into workspace_daily_stats (workspace_id, day, views, unique_viewers, viewer_sketch, video_sketch,
    watch_time_seconds, engagement_sum, completions, conversions, leads)
  select d.workspace_id, d.day, d.views,
    case when k.viewers_loglog then vl.viewers else coalesce(ve.n, 0) end,
    case when k.viewers_loglog then vl.sketch else coalesce(ve.sketch, '\\x01'::bytea) end,
    case when k.videos_loglog then dl.sketch else coalesce(vi.sketch, '\\x01'::bytea) end,
    d.watch_time_seconds, d.engagement_sum, d.completions, d.conversions, d.leads
  from days d
  join kinds k on k.workspace_id = d.workspace_id and k.day = d.day
  left join viewer_exact ve on ve.workspace_id = d.workspace_id and ve.day = d.day
  left join viewer_estimates vl on vl.workspace_id = d.workspace_id and vl.day = d.day
  left join video_exact vi on vi.workspace_id = d.workspace_id and vi.day = d.day
  left join video_loglog dl on dl.workspace_id = d.workspace_id and dl.day = d.day`;

/** A stored viewer sketch that is neither kind: the application code threw on it, and so does this migration. */
const MALFORMED = `
  select count(*)::int as n from video_daily_stats
  where length(viewer_sketch) > 0 and substring(viewer_sketch from 1 for 1) <> '\\x01'::bytea
    and not (substring(viewer_sketch from 1 for 1) = '\\x02'::bytea and length(viewer_sketch) = 2049)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
  const { rows } = await sql.raw<{ n: number }>(MALFORMED).execute(db);
  if (Number(rows[0]?.n) > 0) throw new Error('Not a viewer sketch');
  await sql.raw(FILL).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists workspace_daily_stats`.execute(db);
  await sql`drop table if exists viewing_fold`.execute(db);
  await sql`drop index if exists viewing_batches_fold_idx`.execute(db);
  for (const column of ['position', 'fold_xid', 'viewer_id']) {
    await sql.raw(`alter table viewing_batches drop column if exists ${column}`).execute(db);
  }
}
