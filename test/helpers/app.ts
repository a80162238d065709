/**
 * startTestApp(t): the real app on a fresh database, closed when the test ends, with helpers to make
 * workspaces, keys and videos and to send requests through inject().
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type AppOptions, buildApp } from '../../src/app.ts';
import { createRateLimiter } from '../../src/core/rate-limit.ts';
import { type Scope, TIER_SCOPES } from '../../src/core/scopes.ts';
import { createSealedBox } from '../../src/core/sealed-box.ts';
import type { CredentialKind } from '../../src/core/tokens.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import type { NewVideo, NewWebhookDelivery } from '../../src/db/tables.ts';
import { mintCredential } from '../../src/domains/api-keys/api-keys.queries.ts';
import { generateWebhookSecret, WEBHOOK_SECRET_PURPOSE } from '../../src/domains/webhooks/webhook-secrets.ts';
import { createWorkspace } from '../../src/domains/workspace/workspace.queries.ts';
import type { Lookup } from '../../src/net/check-url.ts';
import { connectRedisReady } from '../../src/runtime.ts';
import { createLocalMediaStore } from '../../src/storage/local-media-store.ts';
import type { MediaStore } from '../../src/storage/media-store.ts';
import { openTestDatabase, testRedisUrl } from './database.ts';

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123';

/**
 * Tests resolve names without DNS: `localhost` is loopback, every other name does not exist. The
 * catalog-wide suites send example URLs (hooks.example.com), and must not depend on the network.
 */
export const testLookup: Lookup = async (hostname) => {
  if (hostname === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  mediaStore: MediaStore;
  request(method: string, url: string, options?: RequestOptions): Promise<TestResponse>;
  workspace(plan?: 'free' | 'pro' | 'business'): Promise<TestWorkspace>;
  /** The types of the events recorded for a workspace, oldest first. */
  eventTypes(workspaceId: string): Promise<string[]>;
  /** Runs `stop` when the test ends, before the app and its database close (for workers using them). */
  beforeClose(stop: () => Promise<void> | void): void;
}

export interface TestWorkspace {
  id: string;
  /** Admin API key: every scope. */
  key: string;
  mintKey(options?: { scopes?: readonly Scope[]; kind?: CredentialKind; expiresAt?: Date | null }): Promise<{ id: string; key: string }>;
  addVideo(fields?: Partial<NewVideo>): Promise<string>;
  addFolder(name: string): Promise<string>;
  /** A webhook endpoint row (no URL check), with its signing secret. */
  addWebhookEndpoint(fields?: { url?: string; events?: string[]; active?: boolean }): Promise<{ id: string; secret: string }>;
  /** A delivery row of one of this workspace's endpoints, exhausted unless told otherwise. */
  addWebhookDelivery(endpointId: string, fields?: Partial<NewWebhookDelivery>): Promise<string>;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: LightMyRequestResponse['headers'];
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary fields of JSON bodies
  body: any;
  raw: string;
}

export async function startTestApp(t: TestContext, options: Partial<AppOptions> = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const mediaDir = mkdtempSync(join(tmpdir(), 'cuepoint-media-'));
  const mediaStore = createLocalMediaStore(mediaDir);
  const redis = testRedisUrl ? await connectRedisReady(testRedisUrl) : undefined;
  const app = await buildApp({
    database,
    mediaStore,
    rateLimiter: createRateLimiter(redis),
    secret: TEST_SECRET,
    publicUrl: 'http://localhost:3000',
    ...options,
    outbound: { allowPrivateNetworks: [], webhookTimeoutMs: 15_000, lookup: testLookup, ...options.outbound },
  });
  const stoppers: (() => Promise<void> | void)[] = [];
  t.after(async () => {
    for (const stop of stoppers.reverse()) await stop();
    await app.close();
    redis?.disconnect();
    await database.close();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  const request = async (method: string, url: string, { token, body, headers = {} }: RequestOptions = {}): Promise<TestResponse> => {
    const response = await app.inject({
      method: method as 'GET',
      url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    let parsed: unknown;
    try {
      parsed = response.body ? JSON.parse(response.body) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.statusCode, headers: response.headers, body: parsed, raw: response.body };
  };

  const workspace = async (plan: 'free' | 'pro' | 'business' = 'pro'): Promise<TestWorkspace> => {
    const now = new Date();
    const { workspace: row, apiKey } = await createWorkspace(database.db, { name: `Test ${randomUUID().slice(0, 8)}`, plan, now });
    return {
      id: row.id,
      key: apiKey,
      async mintKey({ scopes = TIER_SCOPES.admin, kind = 'api_key', expiresAt = null } = {}) {
        const { key, token } = await mintCredential(database.db, {
          workspaceId: row.id,
          name: 'test key',
          kind,
          scopes: [...scopes],
          expiresAt,
          createdBy: null,
          now: new Date(),
        });
        return { id: key.key_id, key: token };
      },
      async addVideo(fields = {}) {
        const id = randomUUID();
        const at = new Date();
        await database.db
          .insertInto('videos')
          .values({
            id,
            workspace_id: row.id,
            folder_id: null,
            title: 'Untitled video',
            status: 'ready',
            source_url: null,
            file_name: null,
            file_size: null,
            duration_seconds: 60,
            width: null,
            height: null,
            failure_reason: null,
            created_at: at,
            updated_at: at,
            ...fields,
          })
          .execute();
        return id;
      },
      async addFolder(name) {
        const id = randomUUID();
        await database.db.insertInto('folders').values({ id, workspace_id: row.id, name }).execute();
        return id;
      },
      async addWebhookEndpoint({ url = 'https://hooks.example.com/in', events = ['*'], active = true } = {}) {
        const id = randomUUID();
        const secret = generateWebhookSecret();
        const at = new Date();
        await database.db
          .insertInto('webhook_endpoints')
          .values({
            id,
            workspace_id: row.id,
            name: 'Test endpoint',
            url,
            events,
            active,
            disabled_reason: null,
            secret_sealed: createSealedBox(TEST_SECRET, WEBHOOK_SECRET_PURPOSE).seal(secret),
            previous_secret_sealed: null,
            previous_secret_expires_at: null,
            created_at: at,
            updated_at: at,
          })
          .execute();
        return { id, secret };
      },
      async addWebhookDelivery(endpointId, fields = {}) {
        const id = randomUUID();
        const at = new Date();
        const eventId = randomUUID();
        await database.db
          .insertInto('webhook_deliveries')
          .values({
            id,
            workspace_id: row.id,
            endpoint_id: endpointId,
            event_id: eventId,
            event_type: 'video.updated',
            payload: JSON.stringify({ id: eventId, type: 'video.updated', created_at: at.toISOString(), workspace_id: row.id, data: {} }),
            status: 'exhausted',
            attempts: 3,
            max_attempts: 3,
            next_attempt_at: null,
            created_at: at,
            updated_at: at,
            ...fields,
          })
          .execute();
        return id;
      },
    };
  };

  const eventTypes = async (workspaceId: string) =>
    (await database.db.selectFrom('events').select('type').where('workspace_id', '=', workspaceId).orderBy('sequence').execute()).map(
      (e) => e.type,
    );

  return { app, database, mediaStore, request, workspace, eventTypes, beforeClose: (stop) => stoppers.push(stop) };
}
