/**
 * Errors raised before any route runs: by Node's HTTP parser (a malformed Content-Length, headers
 * over 16 KiB, a request line that is not HTTP) and by Fastify's body handling (bad JSON, another
 * content type, a body over 1 MiB, too deep a body). Each must be the documented error body, as
 * JSON, with its request id. inject() never goes through Node's parser, so these talk raw HTTP over
 * a socket.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { startTestApp } from '../../../test/helpers/app.ts';
import { urlOf } from '../../../test/helpers/mcp-client.ts';
import { ERROR_STATUS } from '../../core/errors.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary fields of JSON bodies
  body: any;
}

/** Sends bytes as they are and reads the answer until the server closes the connection. */
function rawRequest(base: string, bytes: string): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const raw = rest.join('\r\n\r\n');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.write(bytes);
  });
}

function assertErrorBody(res: RawResponse, status: number, code: string, label: string): void {
  assert.equal(res.status, status, `${label}: ${JSON.stringify(res.body)}`);
  assert.match(res.headers['content-type'] ?? '', /^application\/json/, label);
  assert.equal(res.body?.error?.code, code, label);
  assert.equal(ERROR_STATUS[code as keyof typeof ERROR_STATUS], status, label);
  assert.equal(typeof res.body.error.message, 'string', label);
  assert.match(res.body.error.request_id, /^req_[0-9a-f]{32}$|^[A-Za-z0-9._:-]+$/, label);
  assert.equal(res.headers['x-request-id'], res.body.error.request_id, `${label}: X-Request-Id repeats the body's`);
  assert.deepEqual(Object.keys(res.body), ['error'], label);
}

test("requests Node's HTTP parser refuses get the documented error body as JSON", async (t) => {
  const { app } = await startTestApp(t);
  const base = await urlOf(app);
  const post = (headers: string, body = '') => `POST /v1/videos/compare HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n${body}`;

  const cases: [string, string, number, string, string][] = [
    ['Content-Length that is not a number', post('Content-Length: abc\r\n', '{}'), 400, 'invalid_request', 'Content-Length'],
    ['two different Content-Lengths', post('Content-Length: 2\r\nContent-Length: 3\r\n', '{}'), 400, 'invalid_request', 'Content-Length'],
    [
      'Content-Length with Transfer-Encoding',
      post('Content-Length: 2\r\nTransfer-Encoding: chunked\r\n', '{}'),
      400,
      'invalid_request',
      'Transfer-Encoding',
    ],
    ['a bad chunk size', post('Transfer-Encoding: chunked\r\n', 'zz\r\n{}\r\n0\r\n\r\n'), 400, 'invalid_request', 'body'],
    [
      'headers over 16 KiB',
      `GET /v1/videos HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
      '',
    ],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400, 'invalid_request', 'method'],
    ['a malformed header line', 'GET /v1/videos HTTP/1.1\r\nHost: localhost\r\nBad Header Line\r\n\r\n', 400, 'invalid_request', 'headers'],
  ];
  for (const [label, bytes, status, code, field] of cases) {
    const started = performance.now();
    const res = await rawRequest(base, bytes);
    t.diagnostic(`${label}: ${res.status} in ${Math.round(performance.now() - started)} ms`);
    assertErrorBody(res, status, code, label);
    if (code === 'invalid_request') assert.equal(res.body.error.details.errors[0].field, field, label);
    assert.equal(res.headers.connection, 'close', `${label}: the connection is closed, as Node does`);
  }
});

test('bodies Fastify refuses (bad JSON, another content type, too large, too deep) get the documented error body', async (t) => {
  const { app } = await startTestApp(t);
  const base = await urlOf(app);
  const request = (path: string, headers: string, body: string) =>
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const json = 'Content-Type: application/json\r\n';
  const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
  const cases: [string, string, number, string, RegExp][] = [
    ['bad JSON', request('/v1/videos/compare', json, '{"video_ids": '), 400, 'invalid_request', /not valid JSON/],
    ['another content type', request('/v1/videos/compare', 'Content-Type: text/csv\r\n', 'a,b'), 400, 'invalid_request', /Content-Type/],
    ['an empty JSON body', request('/v1/videos/compare', json, ''), 400, 'invalid_request', /the body is empty/],
    ['too deep a body', request('/v1/videos/compare', json, deep), 400, 'invalid_request', /more than 32 levels deep/],
    [
      'an array of 250,000 items',
      request('/v1/videos/compare', json, JSON.stringify({ video_ids: Array(250_000).fill('x') })),
      400,
      'invalid_request',
      /an array of more than 1,000 items/,
    ],
    [
      'an object of 50,000 fields',
      request('/mcp', json, JSON.stringify(Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`f${i}`, i])))),
      400,
      'invalid_request',
      /an object of more than 1,000 fields/,
    ],
    ['too deep an MCP message', request('/mcp', json, deep), 400, 'invalid_request', /more than 32 levels deep/],
    ['too deep a /collect batch', request('/collect', `${json}User-Agent: Mozilla/5.0\r\n`, deep), 400, 'invalid_request', /32 levels/],
    ['a __proto__ key', request('/v1/api-keys', json, '{"__proto__": {"x": 1}}'), 400, 'invalid_request', /__proto__/],
    [
      'a body over 1 MiB',
      `POST /v1/videos/compare HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${json}Content-Length: 2000000\r\n\r\n{}`,
      413,
      'payload_too_large',
      /1 MiB/,
    ],
  ];
  for (const [label, bytes, status, code, message] of cases) {
    const res = await rawRequest(base, bytes);
    assertErrorBody(res, status, code, label);
    assert.match(res.body.error.message, message, label);
    assert.doesNotMatch(res.body.error.message, /\.\.|must NOT|should/, label);
  }
});
