/**
 * `cuepoint key create --workspace ID [--kind api_key|assistant] [--scope "…"] [--name N] [--json]`:
 * mints a credential for an operator, without the equal-or-lower rule an API caller is held to. Like
 * the API, it mints read access unless --scope asks for more.
 */
import type { Config } from '../config.ts';
import { AppError } from '../core/errors.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { mintCredential, parseRequestedScopes } from '../domains/api-keys/index.ts';
import { recordAuditEvent } from '../domains/audit/index.ts';
import { workspaceFacts } from '../domains/workspace/index.ts';
import { openConfiguredDatabase } from '../runtime.ts';
import { CommandRefusedError } from './command-refused.ts';
import { UsageError } from './usage-error.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ASSISTANT_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export async function keyCreate(
  config: Config,
  options: { workspace?: string; kind?: string; scope?: string; name?: string; json: boolean },
): Promise<void> {
  if (!options.workspace || !UUID.test(options.workspace)) throw new UsageError('key create needs --workspace WORKSPACE_ID (a UUID)');
  const kind = options.kind ?? 'api_key';
  if (kind !== 'api_key' && kind !== 'assistant') throw new UsageError('--kind must be api_key or assistant');
  let scopes: ReturnType<typeof parseRequestedScopes>;
  try {
    scopes = parseRequestedScopes(options.scope);
  } catch (error) {
    throw new UsageError(error instanceof AppError ? error.message : String(error));
  }
  const database = await openConfiguredDatabase(config, { migrate: true }).catch((error: unknown) => {
    if (!(error instanceof DataDirInUseError)) throw error;
    // Most likely the user's own server, which can mint the key itself.
    throw new CommandRefusedError(
      `${error.heldBy} Ask that server for the key instead, with an admin key of the workspace:\n` +
        `  curl -X POST ${config.publicUrl}/v1/api-keys -H "Authorization: Bearer cue_live_…" ` +
        `-H "Content-Type: application/json" -d '${JSON.stringify(apiRequestFor(kind, options))}'\n` +
        'Or stop the server and run this command again.',
    );
  });
  try {
    const workspaceId = options.workspace;
    if (!(await workspaceFacts(database.db, workspaceId))) throw new UsageError(`No workspace ${workspaceId}`);
    const now = new Date();
    // The key and its audit event commit together.
    const { key, token } = await database.db.transaction().execute(async (trx) => {
      const minted = await mintCredential(trx, {
        workspaceId,
        name: options.name ?? (kind === 'assistant' ? 'Assistant token' : 'CLI key'),
        kind,
        scopes,
        expiresAt: kind === 'assistant' ? new Date(now.getTime() + ASSISTANT_LIFETIME_MS) : null,
        createdBy: null,
        now,
      });
      await recordAuditEvent(trx, {
        workspaceId,
        at: now,
        actor: { kind: 'cli', id: null, name: 'cuepoint key create' },
        action: 'create_api_key',
        object: { kind: 'api_key', id: minted.key.key_id },
        origin: { transport: 'cli' },
        details: { kind: minted.key.kind, tier: minted.key.tier, scopes: minted.key.scopes.join(' ') },
      });
      return minted;
    });
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ ...key, key: token })}\n`);
    } else {
      process.stdout.write(`${key.kind} ${key.key_id} (${key.tier}: ${key.scopes.join(' ')})\nKey (shown once): ${token}\n`);
    }
  } finally {
    await database.close();
  }
}

/** The POST /v1/api-keys body that mints what this command was asked for. */
function apiRequestFor(kind: string, options: { scope?: string; name?: string }): Record<string, string> {
  return {
    name: options.name ?? (kind === 'assistant' ? 'Assistant token' : 'CLI key'),
    ...(kind === 'assistant' ? { kind } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
  };
}
