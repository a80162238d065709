/**
 * `cuepoint key create --workspace ID [--kind api_key|assistant] [--scope "…"] [--name N] [--json]`:
 * mints a credential for an operator, without the equal-or-lower rule an API caller is held to. Like
 * the API, it mints read access unless --scope asks for more.
 */
import type { Config } from '../config.ts';
import { AppError } from '../core/errors.ts';
import { mintCredential, parseRequestedScopes } from '../domains/api-keys/index.ts';
import { workspaceFacts } from '../domains/workspace/index.ts';
import { openConfiguredDatabase } from '../runtime.ts';
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
  const database = await openConfiguredDatabase(config, { migrate: true });
  try {
    const workspaceId = options.workspace;
    if (!(await workspaceFacts(database.db, workspaceId))) throw new UsageError(`No workspace ${workspaceId}`);
    const now = new Date();
    const { key, token } = await mintCredential(database.db, {
      workspaceId,
      name: options.name ?? (kind === 'assistant' ? 'Assistant token' : 'CLI key'),
      kind,
      scopes,
      expiresAt: kind === 'assistant' ? new Date(now.getTime() + ASSISTANT_LIFETIME_MS) : null,
      createdBy: null,
      now,
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
