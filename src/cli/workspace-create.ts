/**
 * `cuepoint workspace create --name NAME [--plan free|pro|business] [--owner-email EMAIL] [--json]`: a
 * new workspace and an admin API key holding every scope, shown once; with an owner email, also the
 * link that creates the owner's account (mailed to them too, DESIGN §10).
 */
import type { Config } from '../config.ts';
import { PLAN_NAMES, type PlanName } from '../core/plans.ts';
import { createWorkspace } from '../create-workspace.ts';
import { invitationUrl } from '../media/media-links.ts';
import { openConfiguredDatabase } from '../runtime.ts';
import { ownerEmailOption } from './owner-email.ts';
import { UsageError } from './usage-error.ts';

export async function workspaceCreate(
  config: Config,
  options: { name?: string; plan?: string; ownerEmail?: string; json: boolean },
): Promise<void> {
  const name = options.name?.trim();
  if (!name) throw new UsageError('workspace create needs --name NAME');
  const plan = (options.plan ?? 'pro') as PlanName;
  if (!PLAN_NAMES.includes(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  const ownerEmail = ownerEmailOption(options.ownerEmail);
  const database = await openConfiguredDatabase(config, { migrate: true });
  try {
    const { workspace, apiKey, ownerInviteUrl } = await createWorkspace(database.db, {
      name,
      plan,
      now: new Date(),
      by: { actor: { kind: 'cli', id: null, name: 'cuepoint workspace create' }, origin: { transport: 'cli' } },
      ...(ownerEmail ? { owner: { email: ownerEmail, invitationUrl: (secret: string) => invitationUrl(config.publicUrl, secret) } } : {}),
    });
    if (options.json) {
      const owner = ownerInviteUrl ? { owner_invite_url: ownerInviteUrl } : {};
      process.stdout.write(`${JSON.stringify({ workspace_id: workspace.id, api_key: apiKey, ...owner })}\n`);
    } else {
      process.stdout.write(`Workspace ${workspace.name} (${workspace.plan}): ${workspace.id}\nAdmin API key (shown once): ${apiKey}\n`);
      if (ownerInviteUrl) process.stdout.write(`Owner's link for ${ownerEmail} (works once, for 7 days): ${ownerInviteUrl}\n`);
    }
  } finally {
    await database.close();
  }
}
