/**
 * A response dropped without reading its body (cancel) must release everything at once: the
 * connection and the overall deadline timer. Before this was fixed, an import that saw a 404 kept
 * an hour-long timer alive, and with it the process. Checked the way it hurt: a process that cancels
 * such a response must exit promptly.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const SCRIPT = (safeFetchPath: string, policyPath: string) => `
import { createServer } from 'node:http';
import { safeFetch } from ${JSON.stringify(safeFetchPath)};
import { parseCidr } from ${JSON.stringify(policyPath)};
const server = createServer((_request, response) => response.writeHead(404).end('not here'));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const response = await safeFetch('http://127.0.0.1:' + server.address().port + '/missing', {
  allowPrivateNetworks: [parseCidr('127.0.0.0/8')],
  timeoutMs: 3_600_000,
});
response.cancel();
server.closeAllConnections();
server.close();
`;

test('cancelling an unread response lets the process exit at once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cuepoint-release-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'cancel.ts');
  writeFileSync(script, SCRIPT(join(import.meta.dirname, 'safe-fetch.ts'), join(import.meta.dirname, 'address-policy.ts')));
  const child = spawn(process.execPath, [script], { stdio: 'inherit' });
  const started = Date.now();
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(null);
    }, 10_000);
    child.on('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  assert.equal(code, 0, 'the process was still alive 10 s after cancelling: something outlived the response');
  assert.ok(Date.now() - started < 10_000);
});
