/**
 * `cuepoint mcp --stdio`: the MCP server on stdin/stdout for desktop assistants, with the credential
 * in CUEPOINT_API_KEY. With CUEPOINT_URL it forwards to that running server; otherwise it opens the
 * configured database itself and runs the same pipeline as the HTTP endpoint. Stdout carries the
 * protocol, so everything else goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { catalog } from '../catalog.ts';
import type { Config } from '../config.ts';
import { AppError } from '../core/errors.ts';
import { createPipeline } from '../core/pipeline.ts';
import { authenticate } from '../core/principal.ts';
import { createRateLimiter } from '../core/rate-limit.ts';
import { resolveSigningSecret } from '../db/signing-secret.ts';
import { getAssistantGuidance } from '../domains/workspace/workspace.queries.ts';
import { connectRedisReady, openConfiguredDatabase } from '../runtime.ts';
import { createRemoteProxy } from '../transports/mcp/remote-proxy.ts';
import { createMcpServer } from '../transports/mcp/server.ts';
import { UsageError } from './usage-error.ts';

const silentLog = {
  info: () => {},
  warn: (obj: object, msg?: string) => warn(msg ?? '', obj),
  error: (obj: object, msg?: string) => warn(msg ?? '', obj),
};

function warn(message: string, details: object): void {
  process.stderr.write(`cuepoint mcp: ${message} ${JSON.stringify(details)}\n`);
}

export async function mcpStdio(
  config: Config,
  options: { stdio: boolean; apiKey: string | undefined; remoteUrl: string | undefined },
): Promise<void> {
  if (!options.stdio) throw new UsageError('mcp needs --stdio (the HTTP endpoint is POST /mcp on a running server)');
  if (!options.apiKey) throw new UsageError('mcp --stdio needs the credential in CUEPOINT_API_KEY');
  const authorization = `Bearer ${options.apiKey}`;
  const transport = new StdioServerTransport();

  if (options.remoteUrl) {
    const proxy = await createRemoteProxy(options.remoteUrl, options.apiKey).catch((error: unknown) => {
      throw new UsageError(`Could not connect to ${options.remoteUrl}/mcp: ${error instanceof Error ? error.message : String(error)}`);
    });
    await proxy.server.connect(transport);
    transport.onclose = () => void proxy.close();
    return;
  }

  const database = await openConfiguredDatabase(config, { migrate: true });
  const redis = config.redisUrl ? await connectRedisReady(config.redisUrl) : undefined;
  const principal = await authenticate(database.findCredential, authorization, new Date()).catch(async (error: unknown) => {
    await database.close();
    throw error instanceof AppError ? new UsageError(`CUEPOINT_API_KEY: ${error.message}`) : error;
  });
  const pipeline = createPipeline({
    db: database.db,
    findCredential: database.findCredential,
    rateLimiter: createRateLimiter(redis, silentLog),
    secret: await resolveSigningSecret(database.db, config.secret),
    publicUrl: config.publicUrl,
    maxUploadBytes: config.maxUploadBytes,
    rateLimitOverride: config.rateLimitOverride,
    log: silentLog,
    outbound: { allowPrivateNetworks: config.allowPrivateNetworks, webhookTimeoutMs: config.webhooks.timeoutMs },
  });
  let requests = 0;
  const server = createMcpServer({
    operations: catalog,
    scopes: principal.scopes,
    guidance: await getAssistantGuidance(database.db, principal.workspaceId),
    run: (operation, input, idempotencyKey) =>
      pipeline(operation, { authorization, input, source: 'json', idempotencyKey, requestId: `stdio_${process.pid}_${++requests}` }),
  });
  transport.onclose = () => {
    redis?.disconnect();
    void database.close();
  };
  await server.connect(transport);
}
