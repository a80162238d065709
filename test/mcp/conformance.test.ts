/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against the real app over
 * loopback HTTP, for each protocol era: the generic server scenarios a product server must pass. For
 * 2025-11-25: handshake, ping, tools/list, DNS-rebinding protection. For 2026-07-28 (only the suite's
 * 0.2 pre-releases have it): statelessness (server/discover, the _meta envelope, version and header
 * errors), tools/list, DNS rebinding, header validation, resource-not-found and caching hints. Checks the
 * suite marks untestable (they need its own diagnostic tools, which a product server does not have),
 * and those of features Cuepoint does not offer (prompts), are reported, not failed. The suite cannot send a credential, so a proxy that exists only in this
 * test forwards every request unchanged (method, path, every header including Host and Origin, body)
 * and adds only `Authorization: Bearer <fixture key>`; the Host/Origin checks therefore see exactly
 * what the suite sent. The suite needs Node 22+, so it runs on this process's Node, with its results
 * written to a temporary directory, never into the repository.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import { startTestApp } from '../helpers/app.ts';
import { urlOf } from '../helpers/mcp-client.ts';

const ERAS = [
  { version: '2025-11-25', scenarios: ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'] },
  {
    version: '2026-07-28',
    scenarios: [
      'server-stateless',
      'tools-list',
      'dns-rebinding-protection',
      'http-header-validation',
      'sep-2164-resource-not-found',
      'caching',
    ],
  },
] as const;
/** Checks of what Cuepoint does not offer: no prompts, and no prompts capability declared. */
const NOT_OFFERED = new Set(['sep-2549-prompts-list-caching-hints']);
const RUN_TIMEOUT_MS = 60_000;

/** The suite's CLI entry, from its package.json `bin` (the package has no `main` or `exports`). */
async function conformanceCli(): Promise<string> {
  const manifestPath = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.conformance;
  assert.ok(bin, 'the conformance package names its CLI in bin');
  return join(dirname(manifestPath), bin);
}

/** A loopback proxy to `target` that adds the bearer credential and changes nothing else. */
async function startAuthProxy(t: TestContext, target: URL, token: string): Promise<string> {
  const agent = new Agent({ keepAlive: false });
  const proxy = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    // Raw header pairs keep names, order, duplicates and the Host header exactly as received.
    const headers = [...incoming.rawHeaders];
    for (let i = headers.length - 2; i >= 0; i -= 2) {
      if (headers[i]?.toLowerCase() === 'authorization') headers.splice(i, 2);
    }
    headers.push('Authorization', `Bearer ${token}`);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers, agent, setHost: false },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.statusMessage, response.rawHeaders);
        response.pipe(outgoing);
      },
    );
    upstream.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`proxy: ${error.message}`);
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(0, '127.0.0.1', () => resolve());
  });
  t.after(async () => {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    agent.destroy();
  });
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the CLI on this Node, killed after RUN_TIMEOUT_MS, and killed at the end of the test if still alive. */
function runCli(t: TestContext, args: string[], cwd: string): Promise<CliRun> {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT; // the child is a plain CLI, not a test file reporting to this runner
  delete env.NODE_OPTIONS;
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: RUN_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout: stripVTControlCharacters(stdout),
        stderr: stripVTControlCharacters(stderr),
        ms: Math.round(performance.now() - started),
      }),
    );
  });
}

async function findFiles(dir: string, name: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name === name).map((entry) => join(entry.parentPath, entry.name));
}

interface Check {
  id: string;
  name: string;
  status: string;
  errorMessage?: string;
  details?: { untestable?: boolean };
}

for (const era of ERAS) {
  test(`MCP conformance suite, ${era.version}: ${era.scenarios.join(', ')}`, async (t) => {
    const cli = await conformanceCli();
    const { app, workspace } = await startTestApp(t);
    const ws = await workspace();
    const proxyBase = await startAuthProxy(t, new URL(await urlOf(app)), ws.key);
    const workDir = await mkdtemp(join(tmpdir(), 'cuepoint-mcp-conformance-'));
    t.after(() => rm(workDir, { recursive: true, force: true }));
    const tally = { passed: 0, untestable: 0, notOffered: 0 };

    for (const scenario of era.scenarios) {
      await t.test(scenario, async (st) => {
        const outputDir = join(workDir, scenario);
        const args = [cli, 'server', '--url', `${proxyBase}/mcp`, '--scenario', scenario, '--spec-version', era.version, '-o', outputDir];
        const run = await runCli(st, args, workDir);
        const transcript = `conformance ${scenario} (${era.version}): exit ${run.code}${run.signal ? ` (${run.signal})` : ''} after ${run.ms} ms\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`;
        assert.equal(run.signal, null, `killed (timeout ${RUN_TIMEOUT_MS} ms?)\n${transcript}`);

        const files = await findFiles(outputDir, 'checks.json');
        assert.equal(files.length, 1, `expected one checks.json under ${outputDir}, found ${files.length}\n${transcript}`);
        const checks = JSON.parse(await readFile(files[0] as string, 'utf8')) as Check[];
        const excused = (check: Check) => check.details?.untestable === true || NOT_OFFERED.has(check.id);
        const failures = checks.filter((check) => check.status === 'FAILURE' && !excused(check));
        assert.deepEqual(failures, [], `failed checks:\n${JSON.stringify(failures, null, 2)}\n${transcript}`);
        if (checks.every((check) => check.status !== 'FAILURE')) assert.equal(run.code, 0, transcript);
        assert.ok(
          checks.some((check) => check.status === 'SUCCESS'),
          `no successful check:\n${JSON.stringify(checks, null, 2)}\n${transcript}`,
        );
        for (const check of checks) {
          if (check.status === 'SUCCESS') tally.passed++;
          else if (check.status === 'FAILURE' && check.details?.untestable) tally.untestable++;
          else if (check.status === 'FAILURE') tally.notOffered++;
          st.diagnostic(`${check.status} ${check.id}${check.errorMessage ? `: ${check.errorMessage}` : ''}`);
        }
      });
    }
    t.diagnostic(
      `${era.version}: ${tally.passed} checks passed; ${tally.untestable} untestable without the suite's own tools; ${tally.notOffered} of features not offered`,
    );
  });
}
