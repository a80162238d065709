/**
 * Every kind of content that carries tags, and how to reach its tags. list_tags and rename_tag work
 * over this list, so a new taggable kind (leads, routes…) joins them by adding one entry here.
 */
import type { EventType } from '../../core/events.ts';

export interface TaggableKind {
  /** The name used in `applies_to` and in usage counts. */
  kind: string;
  /** Table with `id`, `workspace_id`, `tags text[]` and `updated_at` columns. */
  table: 'videos';
  /** Event recorded for each row a rename changes, with the row id under `idField`. */
  event: EventType;
  idField: string;
}

export const TAGGABLE_KINDS: readonly TaggableKind[] = [{ kind: 'videos', table: 'videos', event: 'video.updated', idField: 'video_id' }];

export const TAGGABLE_KIND_NAMES = TAGGABLE_KINDS.map((k) => k.kind);
