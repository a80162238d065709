/**
 * Interactive routes (issue 13, docs/routes.md).
 *
 * - `routes`: a named graph of video steps with a status (draft, live, paused, archived).
 * - `route_steps`: one video each; `position` is the order steps were added, and position 0 is the
 *   entry step. A step asks its question (`question`, with its choices) at the end of its video, or
 *   at `ask_at_seconds`. A video used by a step cannot be deleted (restrict), only archived, which
 *   makes the step broken, as get_route and going live report.
 * - `route_choices`: the choices of a step, in order, each with exactly one target (another step, an
 *   https URL, the lead form, or the end). Re-wiring a step retires the choices it drops
 *   (`retired_at`) instead of deleting them, so the choices viewers made keep their label, and keeps
 *   the id of a choice whose label stays, so its numbers carry on.
 * - `route_visits`: one per page view of the route player that played its entry step (the visit id
 *   is the one the page's signed route token carries); how it ended and, once known, the lead.
 * - `route_visit_steps`: the path of a visit, one row per step reached, in order, with the choice made
 *   there. Per-step reach, choice shares, drop-off and the most common paths are read from here.
 */
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table routes (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    name text not null,
    status text not null default 'draft' check (status in ('draft', 'live', 'paused', 'archived')),
    created_at timestamptz(3) not null,
    updated_at timestamptz(3) not null
  )`,
  'create index routes_created_idx on routes (workspace_id, created_at desc, id desc)',
  `create table route_steps (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    route_id uuid not null references routes(id) on delete cascade,
    video_id uuid not null references videos(id) on delete restrict,
    position integer not null check (position >= 0),
    question text,
    ask_at_seconds double precision check (ask_at_seconds >= 0),
    created_at timestamptz(3) not null,
    unique (route_id, position)
  )`,
  'create index route_steps_video_idx on route_steps (workspace_id, video_id)',
  `create table route_choices (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    route_id uuid not null references routes(id) on delete cascade,
    step_id uuid not null references route_steps(id) on delete cascade,
    position smallint not null check (position >= 0),
    label text not null,
    target text not null check (target in ('step', 'url', 'lead_form', 'end')),
    to_step_id uuid references route_steps(id) on delete cascade,
    url text,
    retired_at timestamptz(3),
    check ((target = 'step') = (to_step_id is not null)),
    check ((target = 'url') = (url is not null))
  )`,
  'create index route_choices_step_idx on route_choices (step_id, position)',
  'create index route_choices_route_idx on route_choices (route_id)',
  `create table route_visits (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    route_id uuid not null references routes(id) on delete cascade,
    viewer_id text not null,
    lead_id uuid references leads(id) on delete set null,
    started_at timestamptz(3) not null,
    last_at timestamptz(3) not null,
    steps_reached integer not null default 0,
    ended_by text check (ended_by in ('end', 'lead_form', 'last_step', 'url')),
    completed_at timestamptz(3)
  )`,
  'create index route_visits_route_idx on route_visits (route_id, started_at)',
  'create index route_visits_workspace_idx on route_visits (workspace_id, started_at)',
  'create index route_visits_viewer_idx on route_visits (workspace_id, viewer_id, started_at)',
  `create table route_visit_steps (
    visit_id uuid not null references route_visits(id) on delete cascade,
    position integer not null check (position >= 0),
    workspace_id uuid not null references workspaces(id) on delete cascade,
    route_id uuid not null references routes(id) on delete cascade,
    step_id uuid not null references route_steps(id) on delete cascade,
    reached_at timestamptz(3) not null,
    choice_id uuid references route_choices(id) on delete set null,
    choice_label text,
    chosen_at timestamptz(3),
    primary key (visit_id, position)
  )`,
  'create index route_visit_steps_step_idx on route_visit_steps (route_id, step_id)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['route_visit_steps', 'route_visits', 'route_choices', 'route_steps', 'routes']) {
    await sql.raw(`drop table if exists ${table}`).execute(db);
  }
}
