/**
 * Graceful stop with a deadline, on a real embedded server: SIGTERM stops accepting, lets an
 * in-flight request finish and exits 0; a stop that hangs (an upload that never completes) is
 * forced out at CUEPOINT_SHUTDOWN_TIMEOUT_MS; a second signal exits at once. Every way out leaves no
 * lock behind, and the next start opens the same data directory.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { join } from 'node:path';
import test, { type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { http, onCleanup, type ServerProcess, startServer, tempDir } from '../helpers/server-process.ts';

const FILE_SIZE = 1024 * 1024;
/** A first start creates and migrates the embedded database; on a loaded machine that takes a while. */
const READY_MS = 150_000;

/** An upload whose first half has reached the server's handler; the rest is sent by `finish`. */
async function startUpload(t: TestContext, server: ServerProcess, token: string) {
  const created = await http(`${server.url}/v1/videos/uploads`, {
    method: 'POST',
    token,
    body: { file_name: 'held.mp4', file_size: FILE_SIZE },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const path = new URL(created.body.upload_url).pathname;
  const put = request(`${server.url}${path}`, { method: 'PUT', headers: { 'content-length': String(FILE_SIZE) } });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    put.once('response', resolve);
    put.once('error', reject);
  });
  response.catch(() => {}); // a forced exit resets the connection; tests that expect an answer await it
  onCleanup(t, () => void put.destroy());
  put.write(Buffer.alloc(FILE_SIZE / 2, 1));
  await waitForOutput(server, (out) => out.includes('"url":"/uploads/') && out.includes('incoming request'));
  return {
    async finish(): Promise<{ status: number; body: string }> {
      put.end(Buffer.alloc(FILE_SIZE / 2, 2));
      const answer = await response;
      let body = '';
      for await (const chunk of answer) body += chunk;
      return { status: answer.statusCode ?? 0, body };
    },
  };
}

/** Waits for a line the server logs, the sign that it reached a given point. */
async function waitForOutput(server: ServerProcess, seen: (stdout: string) => boolean): Promise<void> {
  let exited = false;
  void server.exited.then(() => {
    exited = true;
  });
  while (!seen(server.stdout())) {
    if (exited) throw new Error(`the server exited first:\n${server.stderr()}${server.stdout()}`);
    await sleep(50);
  }
}

const STOPPING = (out: string) => out.includes('stopping: no new requests');

test('SIGTERM lets an in-flight upload finish, then exits 0 and releases the lock', { timeout: 400_000 }, async (t) => {
  const dataDir = tempDir(t);
  const server = await startServer(t, { dataDir, env: { LOG_LEVEL: 'info' }, readyTimeoutMs: READY_MS });
  const token = await server.firstKey();
  const upload = await startUpload(t, server, token);

  server.kill('SIGTERM');
  await waitForOutput(server, STOPPING);
  const answer = await upload.finish();
  assert.equal(answer.status, 200, answer.body);
  assert.equal(JSON.parse(answer.body).bytes_received, FILE_SIZE);
  assert.deepEqual(await server.exited, { code: 0, signal: null }, server.stderr());
  assert.equal(existsSync(join(dataDir, 'cuepoint.lock')), false, 'the lock is released');
});

test('a stop that hangs past the deadline is forced out, releasing the lock; the next start works', { timeout: 400_000 }, async (t) => {
  const dataDir = tempDir(t);
  const env = { LOG_LEVEL: 'info', CUEPOINT_SHUTDOWN_TIMEOUT_MS: '1000' };
  const server = await startServer(t, { dataDir, env, readyTimeoutMs: READY_MS });
  const token = await server.firstKey();
  await startUpload(t, server, token); // never finished: closing the server waits on it

  server.kill('SIGTERM');
  const exit = await server.exited;
  assert.deepEqual(exit, { code: 1, signal: null }, server.stderr());
  assert.match(server.stdout(), /not stopped within 1000 ms; exiting without waiting/);
  assert.equal(existsSync(join(dataDir, 'cuepoint.lock')), false, 'a forced stop releases the lock too');
  assert.equal(existsSync(join(dataDir, 'pgdata', 'postmaster.pid')), false);

  const again = await startServer(t, { dataDir, readyTimeoutMs: READY_MS });
  assert.equal((await http(`${again.url}/v1/workspace`, { token })).status, 200, 'the data survived');
});

test('a second signal while stopping exits at once, releasing the lock', { timeout: 400_000 }, async (t) => {
  const dataDir = tempDir(t);
  // The deadline is far beyond this test's timeout: only the second signal can end the process in time.
  const server = await startServer(t, {
    dataDir,
    env: { LOG_LEVEL: 'info', CUEPOINT_SHUTDOWN_TIMEOUT_MS: '600000' },
    readyTimeoutMs: READY_MS,
  });
  const token = await server.firstKey();
  await startUpload(t, server, token);

  server.kill('SIGTERM');
  await waitForOutput(server, STOPPING);
  server.kill('SIGINT');
  assert.deepEqual(await server.exited, { code: 1, signal: null }, server.stderr());
  assert.match(server.stdout(), /second signal while stopping; exiting without waiting/);
  assert.equal(existsSync(join(dataDir, 'cuepoint.lock')), false);
});
