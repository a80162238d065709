/**
 * DESIGN §5: one process per embedded data directory. While a server holds the directory, a second
 * server and the CLI refuse to open it (exit 1, a message saying the directory is in use and by
 * whom) instead of corrupting it (PGlite has no lock of its own, reliability.md §4.6). The refusals
 * do not disturb the holder, and once it stops gracefully (SIGTERM) the CLI works again.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { freePort, http, runCli, startServer, tempDir } from '../helpers/server-process.ts';

const IN_USE = /in use by another process \(pid (\d+)\)/;

test('a held data directory is refused to a second server and to the CLI until the holder stops', { timeout: 180_000 }, async (t) => {
  const dataDir = tempDir(t);
  const holder = await startServer(t, { dataDir });
  const token = await holder.firstKey();

  // Both refusals run at once: the lock must hold under concurrent attempts too.
  const [secondServer, cli] = await Promise.all([
    runCli(t, ['start'], { dataDir, env: { HOST: '127.0.0.1', PORT: String(await freePort()) } }),
    runCli(t, ['workspace', 'create', '--name', 'X'], { dataDir }),
  ]);
  for (const [what, run] of [
    ['second server', secondServer],
    ['workspace create', cli],
  ] as const) {
    assert.equal(run.code, 1, `${what} exits 1: ${run.stderr}`);
    const match = IN_USE.exec(run.stderr);
    assert.ok(match, `${what} says the data dir is in use: ${run.stderr}`);
    assert.equal(Number(match[1]), holder.pid, `${what} names the holder`);
    assert.ok(run.stderr.includes(dataDir), `${what} names the directory`);
    assert.doesNotMatch(run.stderr, /^\s+at /m, `${what} prints a message, not a stack trace`);
    assert.doesNotMatch(run.stdout, /api_key|Workspace/, `${what} did nothing`);
  }

  // key create, refused the same way, says how to get the key from the running server instead, and
  // the call it prints works as printed.
  const workspaceId = (await http(`${holder.url}/v1/workspace`, { token })).body.workspace_id as string;
  const keyCreate = await runCli(t, ['key', 'create', '--workspace', workspaceId, '--kind', 'assistant', '--scope', 'write'], { dataDir });
  assert.equal(keyCreate.code, 1, keyCreate.stderr);
  assert.match(keyCreate.stderr, IN_USE);
  const printed = /-d '(\{.*\})'/.exec(keyCreate.stderr);
  assert.ok(printed && keyCreate.stderr.includes('/v1/api-keys'), `points at POST /v1/api-keys: ${keyCreate.stderr}`);
  assert.deepEqual(JSON.parse(printed[1] as string), { name: 'Assistant token', kind: 'assistant', scope: 'write' });
  const minted = await http(`${holder.url}/v1/api-keys`, { method: 'POST', token, body: JSON.parse(printed[1] as string) });
  assert.equal(minted.status, 201, JSON.stringify(minted.body));
  assert.match(minted.body.key, /^cue_asst_/);

  // The refused processes left the holder's lock and its service alone.
  assert.equal(readFileSync(join(dataDir, 'cuepoint.lock'), 'utf8').trim().split(' ')[0], String(holder.pid));
  assert.equal((await http(`${holder.url}/v1/workspace`, { token })).status, 200);

  holder.kill('SIGTERM');
  const exit = await holder.exited;
  assert.deepEqual(exit, { code: 0, signal: null }, 'SIGTERM is a clean stop');
  assert.equal(existsSync(join(dataDir, 'cuepoint.lock')), false, 'a clean stop releases the lock');

  const after = await runCli(t, ['workspace', 'create', '--name', 'X', '--json'], { dataDir });
  assert.equal(after.code, 0, after.stderr);
  assert.match(JSON.parse(after.stdout).api_key, /^cue_live_/);
});
