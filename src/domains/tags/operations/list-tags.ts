/**
 * list_tags: every tag in use in the workspace, alphabetical, with how often each kind of content
 * uses it. Reads only.
 */
import { Type } from 'typebox';
import { ListOutput, PaginationInput, paginate } from '../../../core/lists/pagination.ts';
import { defineOperation } from '../../../core/operation.ts';
import { TAGGABLE_KIND_NAMES } from '../taggable.ts';
import { listTagUsage } from '../tags.queries.ts';

const TagUsage = Type.Object(
  {
    tag: Type.String(),
    total: Type.Integer({ minimum: 1, description: 'Items carrying the tag, across all kinds.' }),
    usage: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
      description: `Items carrying the tag, per kind (${TAGGABLE_KIND_NAMES.join(', ')}).`,
    }),
  },
  { additionalProperties: false },
);

export const listTags = defineOperation({
  name: 'list_tags',
  summary: 'List tags in use',
  description:
    'Lists every tag used across the workspace’s content, alphabetically, with the number of items of each kind ' +
    `(${TAGGABLE_KIND_NAMES.join(', ')}) that carry it. Use it before rename_tag to spot near-duplicates.`,
  method: 'GET',
  path: '/tags',
  group: 'Workspace',
  scope: 'workspace:read',
  write: false,
  errors: [],
  input: Type.Object({ ...PaginationInput }, { additionalProperties: false }),
  output: ListOutput('tags', TagUsage),
  example: { limit: 50 },
  async handler(ctx, input) {
    const page = await paginate(ctx.cursors, input, {}, (request) => listTagUsage(ctx.db, ctx.workspaceId, request));
    return { tags: page.items, pagination: page.pagination };
  },
});
