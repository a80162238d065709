/**
 * Every kind of content that carries tags, and how to reach its tags. list_tags and rename_tag work
 * over this list, so a new taggable kind (routes…) joins them by adding one entry here.
 */
import type { OperationContext } from '../../core/context.ts';
import type { Scope } from '../../core/scopes.ts';
import { emitLeadChange, leadSnapshot } from '../leads/index.ts';
import { emitVideoUpdated, getVideoDetail } from '../videos/index.ts';

export interface TaggableKind {
  /** The name used in `applies_to` and in usage counts. */
  kind: string;
  /** Table with `id`, `workspace_id`, `tags text[]` and `updated_at` columns. */
  table: 'videos' | 'leads';
  /** The scope that lets a credential change this kind's tags. */
  writeScope: Scope;
  /** Records the update event of each row a rename changed, in the rename's transaction. */
  recordRenamed(ctx: OperationContext, ids: readonly string[], renamed: { from: string; to: string }): Promise<void>;
}

export const TAGGABLE_KINDS: readonly TaggableKind[] = [
  {
    kind: 'videos',
    table: 'videos',
    writeScope: 'videos:write',
    async recordRenamed(ctx, ids, renamed) {
      for (const videoId of ids) {
        const video = await getVideoDetail(ctx.db, ctx.workspaceId, videoId, ctx.links);
        await emitVideoUpdated(ctx.emit, video, ['tags'], renamed);
      }
    },
  },
  {
    kind: 'leads',
    table: 'leads',
    writeScope: 'leads:write',
    async recordRenamed(ctx, ids) {
      for (const leadId of ids) {
        await emitLeadChange(ctx.emit, {
          leadId,
          created: false,
          changed: ['tags'],
          lead: () => leadSnapshot(ctx.db, ctx.workspaceId, leadId, ctx.now),
        });
      }
    },
  },
];

export const TAGGABLE_KIND_NAMES = TAGGABLE_KINDS.map((k) => k.kind);
