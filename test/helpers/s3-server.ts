/**
 * A real S3-protocol server for tests: s3rver, in this process, on a port of its own (port 0 the
 * first time), keeping one bucket in a temporary directory that goes when the test ends. Our HTTP
 * server sits in front of s3rver's handler to add what s3rver lacks and a test needs: SigV4
 * signature checks (s3-signature-check.ts), aborting and listing multipart uploads
 * (s3-multipart-gaps.ts), and stopping and starting again on the same port, as a store that goes
 * down and comes back. The upload benchmark (bench/upload.ts --store s3) runs one too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import S3rver from 's3rver';
import type { S3Settings } from '../../src/storage/s3-clients.ts';
import { answerMultipartGap } from './s3-multipart-gaps.ts';
import { signatureProblem } from './s3-signature-check.ts';

/** s3rver's one built-in account. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';
const BUCKET = 'cuepoint-test';

export interface TestS3Server {
  /** What createS3MediaStore needs to use this server (path-style, its bucket and account, no prefix). */
  settings: S3Settings;
  /** Refuses connections from now on (closing those open), like a store that went down. */
  stop(): Promise<void>;
  /** Answers again, on the same port. */
  start(): Promise<void>;
  /** Every request received, in order: what a test counts (parts sent, requests per play). */
  requests: ReceivedRequest[];
}

export interface ReceivedRequest {
  method: string;
  /** `/bucket/key`, still percent-encoded. */
  path: string;
  query: URLSearchParams;
  range: string | undefined;
}

/** A server for the test's duration: stopped, and its directory removed, when the test ends. */
export async function startS3Server(t: TestContext): Promise<TestS3Server> {
  const server = await runS3Server();
  t.after(() => server.close());
  return server;
}

/** A server until `close()`, for callers that are not tests. */
export async function runS3Server(): Promise<TestS3Server & { close(): Promise<void> }> {
  const directory = mkdtempSync(join(tmpdir(), 'cuepoint-s3rver-'));
  const s3rver = new S3rver({ directory, silent: true, configureBuckets: [{ name: BUCKET }] });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const requests: ReceivedRequest[] = [];
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://s3.test');
    requests.push({ method: request.method ?? '', path: url.pathname, query: url.searchParams, range: request.headers.range });
    const problem = signatureProblem(request, (id) => (id === ACCESS_KEY_ID ? SECRET_ACCESS_KEY : undefined));
    if (problem) {
      request.resume();
      response
        .writeHead(403, { 'content-type': 'application/xml' })
        .end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code><Message>${problem}</Message></Error>`);
      return;
    }
    if (!(await answerMultipartGap(request, response, directory))) handle(request, response);
  };

  let server: Server | undefined;
  let port = 0;
  const start = async () => {
    const listening = createServer((request, response) => {
      answer(request, response).catch((error: unknown) => response.destroy(error as Error));
    });
    await new Promise<void>((resolve) => listening.listen(port, '127.0.0.1', resolve));
    port = (listening.address() as AddressInfo).port;
    server = listening;
  };
  const stop = async () => {
    const stopping = server;
    server = undefined;
    if (!stopping) return;
    stopping.closeAllConnections();
    await new Promise<void>((resolve) => stopping.close(() => resolve()));
  };
  await start();
  return {
    settings: {
      bucket: BUCKET,
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY },
      forcePathStyle: true,
      prefix: '',
    },
    stop,
    start,
    requests,
    async close() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
