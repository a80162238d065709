/**
 * Webhook test kit: a real loopback receiver that records every request exactly as it arrived (raw
 * body, headers) and answers as the test tells it (status, headers, a hang, a redirect); signature
 * checks with the `standardwebhooks` package receivers use; the webhook worker started against a test
 * app with a compressed schedule; and `eventually`, which polls for a condition instead of sleeping.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import type { OutboundSettings } from '../../src/core/context.ts';
import { parseCidr } from '../../src/net/address-policy.ts';
import { startWebhookWorker, type WebhookWorker } from '../../src/workers/webhook-delivery.ts';
import { requireIsolated, TEST_SECRET, type TestApp, testLookup } from './app.ts';

export const LOOPBACK = Object.freeze([parseCidr('127.0.0.0/8')]);

/** What a test app needs to register and test loopback receivers. */
export function loopbackOutbound(webhookTimeoutMs = 10_000): OutboundSettings {
  return { allowPrivateNetworks: LOOPBACK, webhookTimeoutMs, lookup: testLookup };
}

export interface Received {
  /** 1-based, in arrival order. */
  n: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The webhook-id header. */
  id: string;
  at: number;
  /** The status the receiver answered with (undefined while it has not answered, or never will). */
  status?: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the connection stays open until the receiver closes). */
  hang?: boolean;
  /** Answer after this many milliseconds. */
  delay?: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** How to answer the next requests; default 204. */
  answer(reply: (request: Received) => Reply): void;
  close(): Promise<void>;
}

export async function startReceiver(t: TestContext, path = '/hooks'): Promise<Receiver> {
  const received: Received[] = [];
  let reply: (request: Received) => Reply = () => ({ status: 204 });
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = {
        n: received.length + 1,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        id: String(req.headers['webhook-id'] ?? ''),
        at: Date.now(),
      };
      received.push(request);
      const answer = reply(request);
      if (answer.hang) {
        hanging.push(res);
        return;
      }
      const send = () => {
        request.status = answer.status ?? 204;
        res.writeHead(request.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      };
      if (answer.delay) setTimeout(send, answer.delay);
      else send();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address() as { port: number };
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  };
  t.after(close);
  return {
    url: `http://127.0.0.1:${address.port}${path}`,
    received,
    answer(next) {
      reply = next;
    },
    close,
  };
}

/** What a delivery carries (DESIGN §4). */
export interface EventPayload {
  id: string;
  type: string;
  created_at: string;
  workspace_id: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary fields of event data
  data: any;
}

/** The payload, if the request's signature verifies with `secret` (standardwebhooks); throws otherwise. */
export function verify(request: Received, secret: string): EventPayload {
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as EventPayload;
}

/** Whether the request verifies with `secret`. */
export function verifies(request: Received, secret: string): boolean {
  try {
    verify(request, secret);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it returns a truthy value; fails naming `what` after `timeoutMs` (generous: the machine is shared). */
export async function eventually<T>(check: () => Promise<T> | T, what: string, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(25);
  }
}

/** The webhook worker on the test app's database, with a schedule short enough for tests; stopped when the test ends. */
export function startTestWebhookWorker(
  app: TestApp,
  options: { retrySchedule?: readonly number[]; timeoutMs?: number; concurrency?: number; clock?: () => Date; random?: () => number } = {},
): WebhookWorker {
  requireIsolated(app, 'The webhook worker');
  const worker = startWebhookWorker({
    db: app.database.db,
    secret: TEST_SECRET,
    log: { info() {}, warn() {}, error() {} },
    outbound: loopbackOutbound(options.timeoutMs ?? 10_000),
    retrySchedule: options.retrySchedule ?? [50, 100, 150],
    pollMs: 20,
    concurrency: options.concurrency ?? 4,
    clock: options.clock,
    random: options.random,
  });
  app.beforeClose(() => worker.stop());
  return worker;
}
