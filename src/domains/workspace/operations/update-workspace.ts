/**
 * update_workspace: changes the workspace's name and settings — the time zone analytics days follow
 * (from the next viewing session on; past days keep the zone they were counted in), lead masking,
 * the guidance for AI assistants, the Stripe webhook signing secret (sealed, never returned), and the
 * channel's slug (the old one redirects for a while). Writes the workspace row and workspace_slugs;
 * returns the workspace as get_workspace.
 */
import { Type } from 'typebox';
import { canonicalTimeZone } from '../../../core/calendar/time-zone.ts';
import { defineOperation } from '../../../core/operation.ts';
import { describedPattern, Nullable, ShownText, TimeZone } from '../../../core/schemas.ts';
import { changeSlug, mayBeSlug, Slug, slugProblem } from '../../channel/index.ts';
import { STRIPE_SECRET_PURPOSE } from '../../outcomes/index.ts';
import { getWorkspace } from './get-workspace.ts';

export const updateWorkspace = defineOperation({
  name: 'update_workspace',
  summary: 'Change the workspace name and settings',
  description:
    'Sets any of: the workspace name, its time zone (an IANA name such as Europe/Paris; analytics days follow it from the next ' +
    'viewing session on), whether lead fields are masked (mask_pii), the guidance AI assistants are given, and the Stripe ' +
    'webhook signing secret (write-only; null removes it), and the public channel’s slug (its address /c/{slug}; the old ' +
    'one keeps redirecting for 90 days). Fields left out stay as they are. Returns get_workspace.',
  method: 'PATCH',
  path: '/workspace',
  group: 'Workspace',
  scope: 'workspace:manage',
  write: true,
  errors: [],
  input: Type.Object(
    {
      // Shown to the public as the channel's heading (while it has no headline), so held to the same rules.
      name: Type.Optional(ShownText('The workspace name; the public channel’s heading while it has no headline.', 200)),
      slug: Type.Optional(Slug),
      timezone: Type.Optional(TimeZone('IANA time zone, such as America/New_York or UTC.')),
      mask_pii: Type.Optional(Type.Boolean({ description: 'Mask lead emails, phones and names in every response and webhook.' })),
      assistant_guidance: Type.Optional(Type.String({ maxLength: 4000, description: 'What AI assistants should keep in mind.' })),
      stripe_webhook_secret: Type.Optional(
        Nullable(
          Type.String({
            maxLength: 255,
            ...describedPattern(
              '^whsec_[A-Za-z0-9+/=_-]{16,249}$',
              'must be a Stripe signing secret: whsec_ followed by at least 16 characters',
            ),
            description: 'The signing secret of the Stripe webhook endpoint pointed at settings.stripe_webhook_url.',
          }),
        ),
      ),
    },
    { additionalProperties: false },
  ),
  // A slug another channel holds is named together with any shape problem.
  async databaseProblems(db, workspaceId, input) {
    const slug = (input as { slug?: unknown }).slug;
    if (typeof slug !== 'string' || !mayBeSlug(slug)) return [];
    const problem = await slugProblem(db, workspaceId, slug, new Date());
    return problem ? [problem] : [];
  },
  output: getWorkspace.output,
  example: { timezone: 'Europe/Paris' },
  async handler(ctx, input) {
    const changes = {
      ...(input.name !== undefined && { name: input.name.trim() || input.name }),
      // The schema let only known zones through; stored by their canonical name ('europe/paris' → 'Europe/Paris').
      ...(input.timezone !== undefined && { timezone: canonicalTimeZone(input.timezone) ?? input.timezone }),
      ...(input.mask_pii !== undefined && { mask_pii: input.mask_pii }),
      ...(input.assistant_guidance !== undefined && { assistant_guidance: input.assistant_guidance }),
      // Sealed, because verifying Stripe's signatures needs the secret itself; it is never shown again.
      ...(input.stripe_webhook_secret !== undefined && {
        stripe_signing_secret:
          input.stripe_webhook_secret === null ? null : ctx.sealedBox(STRIPE_SECRET_PURPOSE).seal(input.stripe_webhook_secret),
      }),
    };
    if (input.slug !== undefined) await changeSlug(ctx.db, ctx.workspaceId, input.slug, ctx.now);
    if (Object.keys(changes).length > 0) {
      await ctx.db.updateTable('workspaces').set(changes).where('id', '=', ctx.workspaceId).execute();
    }
    return getWorkspace.handler(ctx, {});
  },
});
