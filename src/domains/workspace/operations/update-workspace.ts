/**
 * update_workspace: changes the workspace's name and settings — the time zone analytics days follow
 * (from the next viewing session on; past days keep the zone they were counted in), lead masking,
 * and the guidance for AI assistants. Writes the workspace row; returns the workspace as get_workspace.
 */
import { Type } from 'typebox';
import { canonicalTimeZone } from '../../../core/calendar/time-zone.ts';
import { defineOperation } from '../../../core/operation.ts';
import { TimeZone } from '../../../core/schemas.ts';
import { getWorkspace } from './get-workspace.ts';

export const updateWorkspace = defineOperation({
  name: 'update_workspace',
  summary: 'Change the workspace name and settings',
  description:
    'Sets any of: the workspace name, its time zone (an IANA name such as Europe/Paris; analytics days follow it from the next ' +
    'viewing session on), whether lead fields are masked (mask_pii), and the guidance AI assistants are given. Fields left ' +
    'out stay as they are. Returns the workspace as get_workspace does.',
  method: 'PATCH',
  path: '/workspace',
  group: 'Workspace',
  scope: 'workspace:manage',
  write: true,
  errors: [],
  input: Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The workspace name.' })),
      timezone: Type.Optional(TimeZone('IANA time zone, such as America/New_York or UTC.')),
      mask_pii: Type.Optional(Type.Boolean({ description: 'Mask lead emails, phones and names in every response and webhook.' })),
      assistant_guidance: Type.Optional(Type.String({ maxLength: 4000, description: 'What AI assistants should keep in mind.' })),
    },
    { additionalProperties: false },
  ),
  output: getWorkspace.output,
  example: { timezone: 'Europe/Paris' },
  async handler(ctx, input) {
    const changes = {
      ...(input.name !== undefined && { name: input.name.trim() || input.name }),
      // The schema let only known zones through; stored by their canonical name ('europe/paris' → 'Europe/Paris').
      ...(input.timezone !== undefined && { timezone: canonicalTimeZone(input.timezone) ?? input.timezone }),
      ...(input.mask_pii !== undefined && { mask_pii: input.mask_pii }),
      ...(input.assistant_guidance !== undefined && { assistant_guidance: input.assistant_guidance }),
    };
    if (Object.keys(changes).length > 0) {
      await ctx.db.updateTable('workspaces').set(changes).where('id', '=', ctx.workspaceId).execute();
    }
    return getWorkspace.handler(ctx, {});
  },
});
