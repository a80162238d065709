/**
 * The `cuepoint` command line (run by src/main.ts): start the service, migrate, create workspaces
 * and keys, seed a demo.
 * Mistakes in the call exit with 2 and the usage; refusals (bad configuration, a data directory in
 * use) exit with 1 and a message saying what to do.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { DatabaseUnreachableError } from '../runtime.ts';
import type { Role } from '../server.ts';
import { CommandRefusedError } from './command-refused.ts';
import { UsageError } from './usage-error.ts';

const USAGE = `Usage: cuepoint <command> [options]

Commands:
  start [--role api|worker|all] [--processes N]   Serve the API (default port 3000) and run background work
  migrate                                         Apply database migrations
  workspace create --name NAME [--plan free|pro|business] [--owner-email EMAIL]
                                                  Create a workspace and print its admin API key (and the
                                                  owner's sign-up link when an email is given)
  workspace invite-owner --workspace ID [--owner-email EMAIL]
                                                  Print a link that makes its holder an owner of a workspace
  key create --workspace ID [--kind api_key|assistant] [--scope "SCOPES|TIER"] [--name NAME]
                                                  Mint a key for a workspace
  seed --demo [--workspace ID]                    Fill a workspace with a demo library (new workspace by default)
  mcp --stdio                                     MCP server on stdin/stdout for desktop assistants; credential in
                                                  CUEPOINT_API_KEY; with CUEPOINT_URL, forwards to that running server

Options:
  --json    Machine-readable output
  --help    This text

Environment: PORT, HOST, PUBLIC_URL, DATABASE_URL, REDIS_URL, CUEPOINT_DATA_DIR, CUEPOINT_SECRET,
CUEPOINT_RATE_LIMIT, CUEPOINT_ALLOW_PRIVATE_NETWORKS, LOG_LEVEL, and for mcp --stdio CUEPOINT_API_KEY and
CUEPOINT_URL (see README.md).
`;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean', default: false },
      role: { type: 'string' },
      processes: { type: 'string' },
      name: { type: 'string' },
      plan: { type: 'string' },
      workspace: { type: 'string' },
      kind: { type: 'string' },
      scope: { type: 'string' },
      'owner-email': { type: 'string' },
      demo: { type: 'boolean', default: false },
      stdio: { type: 'boolean', default: false },
    },
  });
  const [command, subcommand] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return;
  }
  const config = loadConfig();
  const json = values.json ?? false;
  switch (`${command}${subcommand ? ` ${subcommand}` : ''}`) {
    case 'start': {
      const role = (values.role ?? 'all') as Role;
      if (!['api', 'worker', 'all'].includes(role)) throw new UsageError('--role must be api, worker or all');
      const processes = Number(values.processes ?? '1');
      if (!Number.isInteger(processes) || processes < 1 || processes > 64)
        throw new UsageError('--processes must be an integer from 1 to 64');
      // Each command loads only what it runs: start, the command behind npm start, then does not load
      // the MCP SDK for stdio, nor ffmpeg's demo tooling.
      const { start } = await import('../server.ts');
      return start(config, role, processes);
    }
    case 'migrate':
      return (await import('./migrate.ts')).migrate(config, { json });
    case 'workspace create':
      return (await import('./workspace-create.ts')).workspaceCreate(config, {
        name: values.name,
        plan: values.plan,
        ownerEmail: values['owner-email'],
        json,
      });
    case 'workspace invite-owner':
      return (await import('./invite-owner.ts')).workspaceInviteOwner(config, {
        workspace: values.workspace,
        ownerEmail: values['owner-email'],
        json,
      });
    case 'key create':
      return (await import('./key-create.ts')).keyCreate(config, {
        workspace: values.workspace,
        kind: values.kind,
        scope: values.scope,
        name: values.name,
        json,
      });
    case 'mcp':
      return (await import('./mcp-stdio.ts')).mcpStdio(config, {
        stdio: values.stdio ?? false,
        apiKey: config.apiKey,
        remoteUrl: config.remoteUrl,
      });
    case 'seed':
      return (await import('./seed-demo.ts')).seedDemo(config, { demo: values.demo ?? false, workspace: values.workspace, json });
    default:
      throw new UsageError(`Unknown command: ${positionals.join(' ')}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
    process.stderr.write(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (
    error instanceof ConfigError ||
    error instanceof DataDirInUseError ||
    error instanceof DatabaseUnreachableError ||
    error instanceof CommandRefusedError
  ) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`cuepoint: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
