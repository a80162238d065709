/**
 * `cuepoint mcp --stdio`: the MCP server on stdin/stdout for desktop assistants, with the credential
 * in CUEPOINT_API_KEY. With CUEPOINT_URL it forwards to that running server; otherwise it opens the
 * configured database itself and runs the same pipeline as the HTTP endpoint. Stdout carries the
 * protocol, so everything else goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { apiOperations, catalog } from '../catalog.ts';
import type { Config } from '../config.ts';
import { AppError } from '../core/errors.ts';
import { createPipeline } from '../core/pipeline/pipeline.ts';
import { authenticate } from '../core/pipeline/principal.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { buildDependencies, pipelineDeps } from '../dependencies.ts';
import { getAssistantGuidance } from '../domains/workspace/index.ts';
import { connectRedisReady, openConfiguredDatabase } from '../runtime.ts';
import { createRemoteProxy, RemoteServerError } from '../transports/mcp/remote-proxy.ts';
import { createMcpServer } from '../transports/mcp/server.ts';
import { CommandRefusedError } from './command-refused.ts';
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
      throw error instanceof RemoteServerError ? new CommandRefusedError(error.message) : error;
    });
    await proxy.server.connect(transport);
    transport.onclose = () => void proxy.close();
    return;
  }

  const database = await openConfiguredDatabase(config, { migrate: true }).catch((error: unknown) => {
    if (!(error instanceof DataDirInUseError)) throw error;
    // Most likely the user's own server: forwarding to it is the way to use it from an assistant.
    throw new CommandRefusedError(
      `${error.heldBy} Let mcp --stdio forward to that server instead: set CUEPOINT_URL to its address ` +
        `(for example CUEPOINT_URL=${config.publicUrl}). Or stop it, or choose another CUEPOINT_DATA_DIR.`,
    );
  });
  const redis = config.redisUrl ? await connectRedisReady(config.redisUrl) : undefined;
  // The same MCP server as POST /mcp: a token bound to that endpoint works here too.
  const principal = await authenticate(database.findCredential, authorization, new Date(), undefined, `${config.publicUrl}/mcp`).catch(
    async (error: unknown) => {
      await database.close();
      throw error instanceof AppError ? new CommandRefusedError(`CUEPOINT_API_KEY was refused: ${error.message}`) : error;
    },
  );
  const dependencies = await buildDependencies(config, { database, redis, log: silentLog });
  const pipeline = createPipeline(pipelineDeps(dependencies, silentLog));
  let requests = 0;
  const server = createMcpServer({
    // The dashboard's own operations are never tools, here as over HTTP (DESIGN §10).
    operations: apiOperations(catalog),
    scopes: principal.scopes,
    guidance: await getAssistantGuidance(database.db, principal.workspaceId),
    run: (operation, input, idempotencyKey) =>
      pipeline(operation, {
        authorization,
        origin: { transport: 'mcp' },
        input,
        source: 'json',
        idempotencyKey,
        requestId: `stdio_${process.pid}_${++requests}`,
      }),
  });
  transport.onclose = () => {
    redis?.disconnect();
    void database.close();
  };
  await server.connect(transport);
}
