/**
 * `cuepoint workspace create --name NAME [--plan free|pro|business] [--json]`: a new workspace and an
 * admin API key holding every scope, shown once.
 */
import type { Config } from '../config.ts';
import { PLAN_NAMES, type PlanName } from '../core/plans.ts';
import { createWorkspace } from '../create-workspace.ts';
import { openConfiguredDatabase } from '../runtime.ts';
import { UsageError } from './usage-error.ts';

export async function workspaceCreate(config: Config, options: { name?: string; plan?: string; json: boolean }): Promise<void> {
  const name = options.name?.trim();
  if (!name) throw new UsageError('workspace create needs --name NAME');
  const plan = (options.plan ?? 'pro') as PlanName;
  if (!PLAN_NAMES.includes(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  const database = await openConfiguredDatabase(config, { migrate: true });
  try {
    const { workspace, apiKey } = await createWorkspace(database.db, {
      name,
      plan,
      now: new Date(),
      by: { actor: { kind: 'cli', id: null, name: 'cuepoint workspace create' }, origin: { transport: 'cli' } },
    });
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ workspace_id: workspace.id, api_key: apiKey })}\n`);
    } else {
      process.stdout.write(`Workspace ${workspace.name} (${workspace.plan}): ${workspace.id}\nAdmin API key (shown once): ${apiKey}\n`);
    }
  } finally {
    await database.close();
  }
}
