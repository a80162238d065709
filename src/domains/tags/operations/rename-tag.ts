/**
 * rename_tag: renames a tag everywhere it is used, or merges it into an existing tag. Rewrites the
 * tags of every matching item of the chosen kinds (videos, leads) and records an update event
 * (`video.updated`, `lead.updated`) for each one.
 */
import { Type } from 'typebox';
import { AppError } from '../../../core/errors.ts';
import { defineOperation } from '../../../core/operation.ts';
import { StringEnum, Tag } from '../../../core/schemas.ts';
import { TAGGABLE_KIND_NAMES, TAGGABLE_KINDS } from '../taggable.ts';
import { renameTagIn, tagInUse } from '../tags.queries.ts';

export const renameTag = defineOperation({
  name: 'rename_tag',
  summary: 'Rename or merge a tag everywhere',
  description:
    'Renames the tag `tag` to `new_tag` on every item that carries it. If `new_tag` is already in use the two ' +
    'tags merge: items carrying both keep one. `applies_to` limits the change to some kinds of content ' +
    `(${TAGGABLE_KIND_NAMES.join(', ')}); by default every kind this credential may write (leads need leads:write). ` +
    'Returns how many items changed, per kind.',
  method: 'POST',
  path: '/tags/rename',
  group: 'Workspace',
  scope: 'videos:write',
  write: true,
  errors: ['forbidden'],
  input: Type.Object(
    {
      tag: Tag,
      new_tag: Tag,
      applies_to: Type.Optional(
        Type.Array(StringEnum(TAGGABLE_KIND_NAMES), {
          minItems: 1,
          maxItems: TAGGABLE_KIND_NAMES.length,
          uniqueItems: true,
          description: 'Kinds of content to change; when omitted, every kind this credential may write.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      tag: Type.String(),
      new_tag: Type.String(),
      merged: Type.Boolean({ description: 'True when new_tag was already in use, so the two tags merged.' }),
      applies_to: Type.Array(Type.String()),
      updated: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { description: 'Items changed, per kind.' }),
    },
    { additionalProperties: false },
  ),
  example: { tag: 'demo', new_tag: 'product-demo', applies_to: ['videos'] },
  async handler(ctx, input) {
    const tag = input.tag.trim();
    const newTag = input.new_tag.trim();
    if (tag === newTag) throw AppError.invalid([{ field: 'new_tag', problem: 'must differ from tag' }]);
    const kinds = input.applies_to
      ? TAGGABLE_KINDS.filter((k) => input.applies_to?.includes(k.kind))
      : TAGGABLE_KINDS.filter((k) => ctx.principal.scopes.has(k.writeScope));
    const barred = kinds.find((k) => !ctx.principal.scopes.has(k.writeScope));
    if (barred) {
      throw new AppError(
        'forbidden',
        `Renaming tags of ${barred.kind} needs the scope ${barred.writeScope}, which this credential lacks.`,
        {
          required_scope: barred.writeScope,
        },
      );
    }
    const merged = await tagInUse(ctx.db, ctx.workspaceId, newTag);
    const updated: Record<string, number> = {};
    for (const kind of kinds) {
      const ids = await renameTagIn(ctx.db, ctx.workspaceId, kind, tag, newTag, ctx.now);
      updated[kind.kind] = ids.length;
      await kind.recordRenamed(ctx, ids, { from: tag, to: newTag });
    }
    return { tag, new_tag: newTag, merged, applies_to: kinds.map((k) => k.kind), updated };
  },
});
