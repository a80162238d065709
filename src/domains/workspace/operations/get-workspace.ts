/**
 * get_workspace: the workspace's plan and what it includes, current usage against the plan's limits,
 * settings, the calling credential's own access, and the guidance written for assistants. Reads only.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { ENTITLEMENTS, PLAN_NAMES, PLANS } from '../../../core/plans.ts';
import { ROLES } from '../../../core/roles.ts';
import { Id, Nullable, StringEnum, Timestamp } from '../../../core/schemas.ts';
import { SCOPES, sortScopes, tierOf } from '../../../core/scopes.ts';
import { currentSlug } from '../../channel/index.ts';
import { getWorkspaceUsage } from '../workspace-usage.queries.ts';

export const getWorkspace = defineOperation({
  name: 'get_workspace',
  summary: 'Get the workspace: plan, usage and assistant guidance',
  description:
    'Returns the workspace’s plan with its entitlements and limits, usage (videos, storage, keys), settings (lead ' +
    'masking, time zone, the public channel’s address), the calling credential’s kind, tier and scopes, and the guidance the workspace wrote for ' +
    'AI assistants. An assistant should read this first.',
  method: 'GET',
  path: '/workspace',
  group: 'Workspace',
  scope: 'workspace:read',
  write: false,
  errors: [],
  input: Type.Object({}, { additionalProperties: false }),
  output: Type.Object(
    {
      workspace_id: Id('The workspace id.'),
      name: Type.String(),
      plan: StringEnum(PLAN_NAMES),
      entitlements: Type.Object(
        Object.fromEntries(ENTITLEMENTS.map((e) => [e, Type.Boolean()])) as Record<
          (typeof ENTITLEMENTS)[number],
          ReturnType<typeof Type.Boolean>
        >,
        { additionalProperties: false, description: 'Capabilities the plan includes.' },
      ),
      limits: Type.Object(
        {
          videos_max: Nullable(Type.Integer({ description: 'Most videos the plan allows; null for no limit.' })),
          requests_per_minute: Type.Integer({
            description: 'Rate limit per credential in force (the plan’s, unless the operator set another).',
          }),
        },
        { additionalProperties: false },
      ),
      usage: Type.Object(
        {
          videos: Type.Integer({ minimum: 0 }),
          videos_ready: Type.Integer({ minimum: 0 }),
          videos_archived: Type.Integer({ minimum: 0 }),
          storage_bytes: Type.Integer({ minimum: 0 }),
          api_keys: Type.Integer({ minimum: 0, description: 'Active keys and tokens.' }),
        },
        { additionalProperties: false },
      ),
      settings: Type.Object(
        {
          mask_pii: Type.Boolean({ description: 'Lead fields are masked in every response and webhook while true.' }),
          timezone: Type.String({ description: 'IANA time zone that analytics days follow.' }),
          stripe_webhook_configured: Type.Boolean({ description: 'Whether a Stripe signing secret is set (it is never shown).' }),
          stripe_webhook_url: Type.String({ description: 'The URL to give Stripe as the webhook endpoint of this workspace.' }),
          channel_slug: Type.String({ description: 'The public channel’s address, /c/{slug}; changed with update_workspace.' }),
          channel_url: Type.String({ description: 'The public channel page (see get_channel).' }),
        },
        { additionalProperties: false },
      ),
      credential: Type.Object(
        {
          key_id: Id('The calling credential; for a person signed in to the dashboard, their user id.'),
          kind: StringEnum(['api_key', 'assistant', 'user'] as const),
          role: StringEnum(ROLES, {
            description:
              'The role the caller acts with: a person’s, or that of the member who minted the key (owner for keys minted on the command line).',
          }),
          tier: StringEnum(['read', 'write', 'admin'] as const),
          scopes: Type.Array(StringEnum(SCOPES)),
        },
        { additionalProperties: false },
      ),
      assistant_guidance: Type.String({ description: 'What the workspace asks AI assistants to keep in mind.' }),
      created_at: Timestamp('When the workspace was created.'),
    },
    { additionalProperties: false },
  ),
  example: {},
  async handler(ctx) {
    const [{ workspace, usage }, slug] = await Promise.all([
      getWorkspaceUsage(ctx.db, ctx.workspaceId, ctx.now),
      currentSlug(ctx.db, ctx.workspaceId),
    ]);
    const plan = PLANS[workspace.plan];
    const scopes = sortScopes(ctx.principal.scopes);
    return {
      workspace_id: workspace.id,
      name: workspace.name,
      plan: workspace.plan,
      entitlements: Object.fromEntries(ENTITLEMENTS.map((e) => [e, plan.entitlements.has(e)])) as Record<
        (typeof ENTITLEMENTS)[number],
        boolean
      >,
      limits: { videos_max: plan.videosMax, requests_per_minute: ctx.requestsPerMinute },
      usage,
      settings: {
        mask_pii: workspace.mask_pii,
        timezone: workspace.timezone,
        stripe_webhook_configured: workspace.stripe_signing_secret !== null,
        stripe_webhook_url: ctx.links.stripeWebhookUrl(workspace.id),
        channel_slug: slug,
        channel_url: ctx.links.channelUrl(slug),
      },
      credential: { key_id: ctx.principal.credentialId, kind: ctx.principal.kind, role: ctx.principal.role, tier: tierOf(scopes), scopes },
      assistant_guidance: workspace.assistant_guidance,
      created_at: workspace.created_at.toISOString(),
    };
  },
});
