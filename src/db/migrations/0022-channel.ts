/**
 * The public channel (issue 15, docs/channel.md).
 *
 * - `workspace_slugs`: the names a workspace's channel is found by at /c/{slug}. The current one has
 *   `replaced_at` null (one per workspace, by a partial unique index); a replaced one is kept so its
 *   old links redirect to the current one for a while (domains/channel/workspace-slugs.ts), and no
 *   other workspace can take it until then. The primary key makes a slug one workspace's at a time.
 *   Existing workspaces get a slug made from their name; a name shared by several gets the others a
 *   suffix from their id.
 * - `channels`: the headline (null: the workspace's name) and intro line, and what leads the page:
 *   a video or a route, never both. Made on the first change; until then a channel has the defaults.
 * - `channel_items`: the videos and routes put on the channel, each visible or not, in `position`
 *   order. An item names its kind and id; videos and routes are archived, never deleted, and a
 *   workspace's deletion takes its items with it.
 * - `channel_views` and `channel_item_opens`: what the page's visitors did, reported by its script:
 *   one row per page view (its id made by the page, so a resent report changes nothing) with the
 *   browser's viewer id, and one per item opened from it.
 */
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table workspace_slugs (
    slug text primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    created_at timestamptz(3) not null,
    replaced_at timestamptz(3)
  )`,
  'create unique index workspace_slugs_current on workspace_slugs (workspace_id) where replaced_at is null',
  'create index workspace_slugs_by_workspace on workspace_slugs (workspace_id)',
  `insert into workspace_slugs (slug, workspace_id, created_at)
   select case when rank = 1 then base else base || '-' || left(replace(id::text, '-', ''), 12) end, id, now()
   from (
     select id, base, row_number() over (partition by base order by created_at, id) as rank
     from (
       select id, created_at,
         coalesce(nullif(left(trim(both '-' from regexp_replace(lower(name), '[^a-z0-9]+', '-', 'g')), 40), ''), 'channel') as base
       from workspaces
     ) named
   ) ranked`,
  `create table channels (
    workspace_id uuid primary key references workspaces(id) on delete cascade,
    headline text,
    dek text,
    featured_video_id uuid references videos(id),
    featured_route_id uuid references routes(id),
    updated_at timestamptz(3) not null,
    constraint channels_one_featured check (featured_video_id is null or featured_route_id is null)
  )`,
  `create table channel_items (
    workspace_id uuid not null references workspaces(id) on delete cascade,
    kind text not null check (kind in ('video', 'route')),
    item_id uuid not null,
    visible boolean not null,
    position integer not null check (position >= 0),
    created_at timestamptz(3) not null,
    updated_at timestamptz(3) not null,
    primary key (workspace_id, kind, item_id)
  )`,
  `create table channel_views (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    viewer_id text,
    viewed_at timestamptz(3) not null
  )`,
  'create index channel_views_by_time on channel_views (workspace_id, viewed_at)',
  `create table channel_item_opens (
    view_id uuid not null references channel_views(id) on delete cascade,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    kind text not null check (kind in ('video', 'route')),
    item_id uuid not null,
    opened_at timestamptz(3) not null,
    primary key (view_id, kind, item_id)
  )`,
  'create index channel_item_opens_by_time on channel_item_opens (workspace_id, opened_at)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['channel_item_opens', 'channel_views', 'channel_items', 'channels', 'workspace_slugs']) {
    await sql.raw(`drop table ${table}`).execute(db);
  }
}
