/**
 * Route numbers kept as visits happen, instead of counted from every visit at each read: get_route
 * recounted a route's whole history (per-step reach, choice counts, the most common paths) and took
 * 2 s at 100,000 visits, 16 s at a million (bench/route-reads.ts). The recording of visits
 * (domains/routes/player/route-visits.ts) now moves these counters in the same transaction as the visit:
 *
 * - `routes.starts`, `routes.completions`;
 * - `route_step_counts`: per step, visits that reached it, that ended the route there at a last
 *   step (`finished`), and that stopped there without an end (`dropped_off`: it moves with the
 *   visit's last step and leaves when the visit ends);
 * - `route_choice_counts`: per choice, visits that made it;
 * - `route_path_counts`: per distinct path (the steps in order and the labels chosen), its visits
 *   and how many completed; a visit moves from path to path as it goes on.
 *
 * Existing visits are counted once, here, from the rows they left. And the index of a workspace's
 * visits by start carries the route and the completion, for the summary's routes section.
 */
import { type Kysely, sql } from 'kysely';

const statements = [
  'alter table routes add column starts integer not null default 0',
  'alter table routes add column completions integer not null default 0',
  `create table route_step_counts (
    step_id uuid primary key references route_steps(id) on delete cascade,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    route_id uuid not null references routes(id) on delete cascade,
    reached integer not null default 0,
    finished integer not null default 0,
    dropped_off integer not null default 0
  )`,
  'create index route_step_counts_route_idx on route_step_counts (route_id)',
  `create table route_choice_counts (
    choice_id uuid primary key references route_choices(id) on delete cascade,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    route_id uuid not null references routes(id) on delete cascade,
    chosen integer not null default 0
  )`,
  'create index route_choice_counts_route_idx on route_choice_counts (route_id)',
  `create table route_path_counts (
    route_id uuid not null references routes(id) on delete cascade,
    path_key text not null,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    step_ids uuid[] not null,
    choices text[] not null,
    visits integer not null default 0,
    completed integer not null default 0,
    primary key (route_id, path_key)
  )`,
  'create index route_path_counts_top_idx on route_path_counts (route_id, visits desc, completed desc, path_key)',
  // The summary's routes section counts a workspace's visits started in a range: with the route and
  // the completion in the index, that is an index-only scan (249 → 89 ms at a million visits).
  'drop index route_visits_workspace_idx',
  'create index route_visits_workspace_idx on route_visits (workspace_id, started_at) include (route_id, completed_at)',
  // The visits already recorded, counted once.
  `update routes r set starts = t.starts, completions = t.completions
   from (select route_id, count(*)::int as starts, count(completed_at)::int as completions from route_visits group by route_id) t
   where t.route_id = r.id`,
  `insert into route_step_counts (step_id, workspace_id, route_id, reached, finished, dropped_off)
   select vs.step_id, min(vs.workspace_id::text)::uuid, min(vs.route_id::text)::uuid,
     count(distinct vs.visit_id)::int,
     count(distinct vs.visit_id) filter (where vs.position = v.steps_reached - 1 and v.ended_by = 'last_step')::int,
     count(distinct vs.visit_id) filter (where vs.position = v.steps_reached - 1 and v.ended_by is null)::int
   from route_visit_steps vs join route_visits v on v.id = vs.visit_id
   group by vs.step_id`,
  `insert into route_choice_counts (choice_id, workspace_id, route_id, chosen)
   select choice_id, min(workspace_id::text)::uuid, min(route_id::text)::uuid, count(distinct visit_id)::int
   from route_visit_steps where choice_id is not null group by choice_id`,
  `insert into route_path_counts (route_id, path_key, workspace_id, step_ids, choices, visits, completed)
   select route_id, path_key, min(workspace_id::text)::uuid, min(step_ids::text)::uuid[], min(choices::text)::text[],
     count(*)::int, count(completed_at)::int
   from (
     select v.route_id, v.workspace_id, v.completed_at,
       array_agg(vs.step_id order by vs.position) as step_ids,
       array_remove(array_agg(vs.choice_label order by vs.position), null) as choices,
       array_to_string(array_agg(vs.step_id::text order by vs.position), ',') || '|' ||
         array_to_string(array_agg(vs.choice_label order by vs.position), chr(31)) as path_key
     from route_visits v join route_visit_steps vs on vs.visit_id = v.id
     group by v.id
   ) per_visit
   group by route_id, path_key`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists route_visits_workspace_idx`.execute(db);
  await sql`create index route_visits_workspace_idx on route_visits (workspace_id, started_at)`.execute(db);
  for (const table of ['route_path_counts', 'route_choice_counts', 'route_step_counts']) {
    await sql.raw(`drop table if exists ${table}`).execute(db);
  }
  await sql`alter table routes drop column if exists completions`.execute(db);
  await sql`alter table routes drop column if exists starts`.execute(db);
}
