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
import type { CredentialKind } from '../../src/core/tokens.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import type { NewVideo } from '../../src/db/tables.ts';
import { mintCredential } from '../../src/domains/api-keys/api-keys.queries.ts';
import { createWorkspace } from '../../src/domains/workspace/workspace.queries.ts';
import { connectRedisReady } from '../../src/runtime.ts';
import { createLocalMediaStore } from '../../src/storage/local-media-store.ts';
import type { MediaStore } from '../../src/storage/media-store.ts';
import { openTestDatabase, testRedisUrl } from './database.ts';

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  mediaStore: MediaStore;
  request(method: string, url: string, options?: RequestOptions): Promise<TestResponse>;
  workspace(plan?: 'free' | 'pro' | 'business'): Promise<TestWorkspace>;
  /** The types of the events recorded for a workspace, oldest first. */
  eventTypes(workspaceId: string): Promise<string[]>;
}

export interface TestWorkspace {
  id: string;
  /** Admin API key: every scope. */
  key: string;
  mintKey(options?: { scopes?: readonly Scope[]; kind?: CredentialKind; expiresAt?: Date | null }): Promise<{ id: string; key: string }>;
  addVideo(fields?: Partial<NewVideo>): Promise<string>;
  addFolder(name: string): Promise<string>;
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
  });
  t.after(async () => {
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
    };
  };

  const eventTypes = async (workspaceId: string) =>
    (await database.db.selectFrom('events').select('type').where('workspace_id', '=', workspaceId).orderBy('sequence').execute()).map(
      (e) => e.type,
    );

  return { app, database, mediaStore, request, workspace, eventTypes };
}
