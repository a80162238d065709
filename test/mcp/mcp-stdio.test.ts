/**
 * `cuepoint mcp --stdio`, driven by the official SDK client over stdio: against its own embedded
 * database, and forwarding to a running server with CUEPOINT_URL. Same tools, same results.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { catalog } from '../../src/catalog.ts';
import { startTestApp } from '../helpers/app.ts';
import { callTool, urlOf } from '../helpers/mcp-client.ts';
import { runCli, tempDir } from '../helpers/server-process.ts';

const ROOT = join(import.meta.dirname, '..', '..');

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

test('stdio on the embedded database: the catalog as tools, reads and writes through the pipeline', { timeout: 300_000 }, async (t) => {
  const dataDir = tempDir(t);
  // The demo plays 90 days of viewing through the collection code: allow for a busy machine.
  const created = await runCli(t, ['seed', '--demo', '--json'], { dataDir, timeoutMs: 180_000 });
  assert.equal(created.code, 0, created.stderr);
  const { api_key: apiKey } = JSON.parse(created.stdout) as { api_key: string };
  const client = await connectStdio(t, { CUEPOINT_DATA_DIR: dataDir, CUEPOINT_API_KEY: apiKey });
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), catalog.map((op) => op.name).sort());
  assert.match(client.getInstructions() ?? '', /Archive instead of deleting/);

  const list = await callTool(client, 'list_videos', { sort: 'title', limit: 3 });
  assert.equal(list.structuredContent.videos.length, 3);
  const video = list.structuredContent.videos[0];
  const updated = await callTool(client, 'update_video', {
    video_id: video.video_id,
    title: `${video.title} (edited)`,
    idempotency_key: 'stdio-1',
  });
  assert.equal(updated.structuredContent.title, `${video.title} (edited)`);
  const summary = await callTool(client, 'get_analytics_summary', { range: '90d' });
  assert.ok(summary.structuredContent.metrics.views.value > 0, JSON.stringify(summary.structuredContent.metrics));
  const invalid = await callTool(client, 'get_video', { video_id: 'nope' });
  assert.equal(invalid.isError, true);
  assert.equal(invalid.structuredContent.error.code, 'invalid_request');
});

test('stdio refuses a bad credential with a clear message', async (t) => {
  const dataDir = tempDir(t);
  const run = await runCli(t, ['mcp', '--stdio'], { dataDir, env: { CUEPOINT_API_KEY: 'cue_live_not-a-key' } });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /CUEPOINT_API_KEY: The credential is malformed/);
  const missing = await runCli(t, ['mcp', '--stdio'], { dataDir });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /CUEPOINT_API_KEY/);
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
