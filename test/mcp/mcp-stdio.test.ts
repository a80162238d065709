/**
 * `cuepoint mcp --stdio`, driven by the official SDK client over stdio: against its own embedded
 * database, and forwarding to a running server with CUEPOINT_URL. Same tools, same results.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { apiOperations, catalog as everyOperation } from '../../src/catalog.ts';
import { lockDataDir } from '../../src/db/data-dir-lock.ts';
import { startTestApp } from '../helpers/app.ts';
import { callTool, urlOf } from '../helpers/mcp-client.ts';
import { freePort, runCli, tempDir } from '../helpers/server-process.ts';

/** What /v1 and MCP offer: the dashboard's own actions are never there (test/dashboard-only.test.ts). */
const catalog = apiOperations(everyOperation);

const ROOT = join(import.meta.dirname, '..', '..');
/** A cuepoint process starts Node and loads the service: seconds on an idle machine, a minute on a busy one. */
const CLI_TIMEOUT_MS = 180_000;

async function connectStdio(t: import('node:test').TestContext, env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'src', 'main.ts'), 'mcp', '--stdio'],
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-tests', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

// A workspace made by the CLI, filled and read through stdio itself (the demo's seed would cost half
// a minute of CPU; test/process/cli.test.ts seeds it and serves it).
test('stdio on the embedded database: the catalog as tools, reads and writes through the pipeline', { timeout: 600_000 }, async (t) => {
  const dataDir = tempDir(t);
  const created = await runCli(t, ['workspace', 'create', '--name', 'Stdio', '--json'], { dataDir, timeoutMs: CLI_TIMEOUT_MS });
  assert.equal(created.code, 0, created.stderr);
  const { api_key: apiKey } = JSON.parse(created.stdout) as { api_key: string };
  const env = { CUEPOINT_DATA_DIR: dataDir, CUEPOINT_API_KEY: apiKey };
  const client = await connectStdio(t, env);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), catalog.map((op) => op.name).sort());
  assert.match(client.getInstructions() ?? '', /Guidance from this workspace:\n.*Archive instead of deleting/);

  for (const title of ['Charlie', 'Alpha', 'Bravo', 'Delta']) {
    const upload = await callTool(client, 'create_video_upload', {
      title,
      file_name: `${title}.mp4`,
      file_size: 1_000_000,
      idempotency_key: `stdio-${title}`,
    });
    assert.equal(upload.isError, undefined, JSON.stringify(upload.structuredContent));
  }
  const list = await callTool(client, 'list_videos', { sort: 'title', limit: 3 });
  assert.deepEqual(
    list.structuredContent.videos.map((video: { title: string }) => video.title),
    ['Alpha', 'Bravo', 'Charlie'],
  );
  const video = list.structuredContent.videos[0];
  const updated = await callTool(client, 'update_video', {
    video_id: video.video_id,
    title: `${video.title} (edited)`,
    idempotency_key: 'stdio-1',
  });
  assert.equal(updated.structuredContent.title, `${video.title} (edited)`);
  const summary = await callTool(client, 'get_analytics_summary', { range: '90d' });
  assert.equal(summary.structuredContent.metrics.views.value, 0, JSON.stringify(summary.structuredContent.metrics));
  const invalid = await callTool(client, 'get_video', { video_id: 'nope' });
  assert.equal(invalid.isError, true);
  assert.equal(invalid.structuredContent.error.code, 'invalid_request');

  // The workspace's guidance, written through stdio, is in the instructions of the next process (which
  // can open the data dir once this one has let it go).
  const guided = await callTool(client, 'update_workspace', {
    assistant_guidance: 'Call videos “clips” when you talk to this team.',
    idempotency_key: 'stdio-guidance',
  });
  assert.equal(guided.isError, undefined, JSON.stringify(guided.structuredContent));
  await client.close();
  const next = await connectStdio(t, env);
  assert.match(next.getInstructions() ?? '', /Guidance from this workspace:\nCall videos “clips” when you talk to this team\.$/);
  assert.equal((await callTool(next, 'get_video', { video_id: video.video_id })).structuredContent.title, `${video.title} (edited)`);
});

test('stdio refuses a bad credential with a plain message and exit 1; a missing one is a usage error', { timeout: 600_000 }, async (t) => {
  const dataDir = tempDir(t);
  // The embedded database is created and migrated first: allow for a busy machine.
  const run = await runCli(t, ['mcp', '--stdio'], { dataDir, env: { CUEPOINT_API_KEY: 'cue_live_not-a-key' }, timeoutMs: CLI_TIMEOUT_MS });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /^CUEPOINT_API_KEY was refused: The credential is malformed/);
  assert.doesNotMatch(run.stderr, /Usage:/);
  const missing = await runCli(t, ['mcp', '--stdio'], { dataDir, timeoutMs: CLI_TIMEOUT_MS });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /CUEPOINT_API_KEY/);
  assert.match(missing.stderr, /Usage:/);
});

test('stdio on a data directory in use says to forward to the running server with CUEPOINT_URL', { timeout: 600_000 }, async (t) => {
  const dataDir = tempDir(t);
  // This test process holds the directory, as a running server would.
  const lock = lockDataDir(dataDir, join(dataDir, 'pgdata'));
  t.after(() => lock.release());
  const run = await runCli(t, ['mcp', '--stdio'], { dataDir, env: { CUEPOINT_API_KEY: 'cue_live_not-a-key' }, timeoutMs: CLI_TIMEOUT_MS });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, new RegExp(`in use by another process \\(pid ${process.pid}\\)`));
  assert.match(run.stderr, /set CUEPOINT_URL to its address \(for example CUEPOINT_URL=http:\/\/localhost:3000\)/);
  assert.doesNotMatch(run.stderr, /Usage:|^\s+at /m);
});

test('stdio with CUEPOINT_URL: a server that cannot be reached or refuses the key is a plain sentence and exit 1', {
  timeout: 600_000,
}, async (t) => {
  const { app, request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const base = await urlOf(app);

  const closedPort = await freePort();
  const unreachable = await runCli(t, ['mcp', '--stdio'], {
    dataDir: tempDir(t),
    env: { CUEPOINT_URL: `http://127.0.0.1:${closedPort}`, CUEPOINT_API_KEY: ws.key },
    timeoutMs: CLI_TIMEOUT_MS,
  });
  assert.equal(unreachable.code, 1, unreachable.stderr);
  assert.equal(
    unreachable.stderr.trim(),
    `Could not reach a Cuepoint server at http://127.0.0.1:${closedPort} (CUEPOINT_URL): connect ECONNREFUSED 127.0.0.1:${closedPort}. ` +
      'Start the server (npx cuepoint start), or set CUEPOINT_URL to the address it listens on.',
  );

  const revoked = await ws.mintKey({ kind: 'assistant', scopes: ['videos:read'] });
  assert.equal((await request('DELETE', `/v1/api-keys/${revoked.id}`, { token: ws.key })).status, 200);
  const refusals: [string, string][] = [
    [revoked.key, 'The credential is not recognised or has been revoked.'],
    ['cue_live_not-a-key', 'The credential is malformed: expected a cue_live_ API key or a cue_asst_ assistant token.'],
  ];
  for (const [key, reason] of refusals) {
    const refused = await runCli(t, ['mcp', '--stdio'], {
      dataDir: tempDir(t),
      env: { CUEPOINT_URL: base, CUEPOINT_API_KEY: key },
      timeoutMs: CLI_TIMEOUT_MS,
    });
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(
      refused.stderr.trim(),
      `The server at ${base} refused the key in CUEPOINT_API_KEY: ${reason} ` +
        'Set CUEPOINT_API_KEY to a valid API key or assistant token of that server (npx cuepoint key create mints one).',
    );
  }

  // Some other web server at that address.
  const other = createServer((_request, response) => response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  t.after(() => other.close());
  const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  const notCuepoint = await runCli(t, ['mcp', '--stdio'], {
    dataDir: tempDir(t),
    env: { CUEPOINT_URL: otherUrl, CUEPOINT_API_KEY: ws.key },
    timeoutMs: CLI_TIMEOUT_MS,
  });
  assert.equal(notCuepoint.code, 1, notCuepoint.stderr);
  assert.equal(
    notCuepoint.stderr.trim(),
    `${otherUrl} has no MCP endpoint at /mcp (HTTP 404): set CUEPOINT_URL to the address of a Cuepoint server.`,
  );
});

test('stdio with CUEPOINT_URL forwards to a running server', async (t) => {
  const { app, request, workspace } = await startTestApp(t);
  const ws = await workspace();
  await ws.addVideo({ title: 'Remote video', tags: ['remote'] });
  const reader = await ws.mintKey({ kind: 'assistant', scopes: ['videos:read'] });
  const client = await connectStdio(t, { CUEPOINT_URL: await urlOf(app), CUEPOINT_API_KEY: reader.key, CUEPOINT_DATA_DIR: tempDir(t) });
  const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
  assert.deepEqual(
    names,
    catalog
      .filter((op) => op.scope === 'videos:read')
      .map((op) => op.name)
      .sort(),
  );
  const result = await callTool(client, 'list_videos', { tags: ['remote'] });
  assert.deepEqual(result.structuredContent, (await request('GET', '/v1/videos?tags=remote', { token: ws.key })).body);
  const denied = await callTool(client, 'rename_tag', { tag: 'remote', new_tag: 'far' });
  assert.equal(denied.structuredContent.error.code, 'forbidden');
});
