/**
 * What the folder operations need. Folder names become unique in a workspace whatever their case
 * ("Webinars" and "webinars" would be two folders nobody can tell apart in a list): folders that
 * already clash are renamed first, keeping the oldest as it was and adding the start of the id to
 * the others, so the index can be built; the old case-sensitive constraint is then redundant. Folders
 * get `updated_at` (renames), and videos an index by folder, for counting a folder's videos and for
 * unfiling them all when it is deleted.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update folders f set name = f.name || ' (' || left(f.id::text, 8) || ')'
    from (
      select id, row_number() over (partition by workspace_id, lower(name) order by created_at, id) as n from folders
    ) ranked
    where ranked.id = f.id and ranked.n > 1`.execute(db);
  await sql`create unique index folders_workspace_name_ci_idx on folders (workspace_id, lower(name))`.execute(db);
  await sql`alter table folders drop constraint if exists folders_workspace_id_name_key`.execute(db);
  await sql`alter table folders add column updated_at timestamptz(3)`.execute(db);
  await sql`update folders set updated_at = created_at`.execute(db);
  await sql`alter table folders alter column updated_at set not null, alter column updated_at set default now()`.execute(db);
  await sql`create index videos_folder_idx on videos (workspace_id, folder_id) where folder_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists videos_folder_idx`.execute(db);
  await sql`alter table folders drop column if exists updated_at`.execute(db);
  await sql`drop index if exists folders_workspace_name_ci_idx`.execute(db);
  await sql`alter table folders add constraint folders_workspace_id_name_key unique (workspace_id, name)`.execute(db);
}
