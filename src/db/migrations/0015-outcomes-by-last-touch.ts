/**
 * get_video_analytics reads the revenue a video brought: the workspace's succeeded ledger entries
 * whose last touch is that video, over a date window. outcomes_occurred_idx would walk every entry of
 * the workspace in the window to find that video's; this index goes straight to them.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index outcomes_last_touch_idx on outcomes (workspace_id, last_touch_video_id, occurred_at) where last_touch_video_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists outcomes_last_touch_idx`.execute(db);
}
