/**
 * The writes the demo seed (src/cli) makes on video rows while it plays a library's history: rows
 * inserted whole, with the times and facts the history gives them, and settings changed without
 * moving updated_at or recording events (the seed records the events it means to).
 */
import type { Kysely } from 'kysely';
import type { Database, NewVideo } from '../../db/tables/index.ts';
import type { LeadForm } from '../leads/index.ts';

/** Inserts a video row as given (its id, times, status and facts), in the workspace. */
export async function insertSeedVideo(db: Kysely<Database>, workspaceId: string, video: Omit<NewVideo, 'workspace_id'>): Promise<void> {
  await db
    .insertInto('videos')
    .values({ ...video, workspace_id: workspaceId })
    .execute();
}

/** Sets the video's lead form (already normalized) without moving its updated_at. */
export async function seedLeadForm(db: Kysely<Database>, workspaceId: string, videoId: string, form: LeadForm): Promise<void> {
  await db
    .updateTable('videos')
    .set({ lead_form: JSON.stringify(form) })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', videoId)
    .execute();
}

/** Archives the videos without moving their updated_at: a seeded video is archived once its viewing is played. */
export async function archiveSeededVideos(db: Kysely<Database>, workspaceId: string, videoIds: readonly string[]): Promise<void> {
  if (videoIds.length === 0) return;
  await db.updateTable('videos').set({ archived: true }).where('workspace_id', '=', workspaceId).where('id', 'in', videoIds).execute();
}
