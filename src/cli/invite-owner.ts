/**
 * `cuepoint workspace invite-owner --workspace ID [--owner-email EMAIL] [--json]`: a link that makes
 * its holder an owner of an existing workspace (an installation from before accounts existed, or one
 * whose owners are all gone). Mailed too when an email is given; with none, the page asks for one.
 */
import type { Config } from '../config.ts';
import { inviteOwner } from '../domains/people/index.ts';
import { workspaceFacts } from '../domains/workspace/index.ts';
import { invitationUrl } from '../media/media-links.ts';
import { openConfiguredDatabase } from '../runtime.ts';
import { CommandRefusedError } from './command-refused.ts';
import { ownerEmailOption } from './owner-email.ts';
import { UsageError } from './usage-error.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function workspaceInviteOwner(
  config: Config,
  options: { workspace?: string; ownerEmail?: string; json: boolean },
): Promise<void> {
  if (!options.workspace || !UUID.test(options.workspace))
    throw new UsageError('workspace invite-owner needs --workspace ID (a workspace id)');
  const email = ownerEmailOption(options.ownerEmail) ?? null;
  const database = await openConfiguredDatabase(config, { migrate: true });
  try {
    const workspaceId = options.workspace;
    const facts = await workspaceFacts(database.db, workspaceId);
    if (!facts) throw new CommandRefusedError(`No workspace has the id ${workspaceId}.`);
    const now = new Date();
    const { url, expiresAt } = await database.db.transaction().execute((trx) =>
      inviteOwner(trx, {
        workspaceId,
        workspaceName: facts.name,
        email,
        invitationUrl: (secret) => invitationUrl(config.publicUrl, secret),
        now,
      }),
    );
    if (options.json) {
      process.stdout.write(
        `${JSON.stringify({ workspace_id: workspaceId, owner_invite_url: url, expires_at: expiresAt.toISOString() })}\n`,
      );
    } else {
      process.stdout.write(
        `Owner's link for ${facts.name}${email ? ` (${email})` : ''}, works once until ${expiresAt.toISOString()}:\n${url}\n`,
      );
    }
  } finally {
    await database.close();
  }
}
