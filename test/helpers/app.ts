/**
 * startTestApp(t): the real app (buildApp) on a migrated database, with helpers to make workspaces,
 * keys and videos and to send requests through inject().
 *
 * One app and one database serve every test of a process: a worker of the test runner runs many files
 * in one process (test/runner/), and booting a database costs a second, a workspace milliseconds. So
 * a test owns the workspaces it makes, not the database: it must not assume a table holds only its
 * rows, whichever file made them. Three ways to call it:
 *
 * - `startTestApp(t)`: the shared app. Scope every query and count by your workspace.
 * - `startTestApp(t, { clock, outbound, rateLimitOverride, … })`: an app of its own with those
 *   options, on the shared database; closed when the test ends.
 * - `startTestApp(t, { isolated: true, … })`: an app and a database of its own, for a test that
 *   cannot be scoped by workspace (a worker that claims every pending job or event, a count over a
 *   whole table). Costs a database boot; closed when the test ends.
 *
 * Every test's requests come from the same address (127.0.0.1, over inject() or a port), and with
 * REDIS_URL every worker's do, so the public writes' per-address ceilings would make one test's
 * submissions another's 429. They are lifted (UNLIMITED_ADDRESSES), as process tests lift the
 * per-credential ceiling with CUEPOINT_RATE_LIMIT; a test of those limits passes `addressCeilings`,
 * and sends from addresses of its own (inject's `remoteAddress`).
 *
 * The lead-making forms' answer floor (public/http/answer-floor.ts, 250 ms a submission) is 0 here, as
 * it only makes tests wait; a test that times those answers passes `answerFloorMs: ANSWER_FLOOR_MS`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, type TestContext } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import { type AppOptions, buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { type Scope, TIER_SCOPES } from '../../src/core/scopes.ts';
import { createSealedBox } from '../../src/core/secrets/sealed-box.ts';
import type { CredentialKind } from '../../src/core/secrets/tokens.ts';
import { createWorkspace } from '../../src/create-workspace.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import type {
  LeadSource,
  MemberRole,
  NewBooking,
  NewEventType,
  NewOutcome,
  NewVideo,
  NewWebhookDelivery,
  RouteStatus,
} from '../../src/db/tables/index.ts';
import { buildDependencies, type Dependencies } from '../../src/dependencies.ts';
import { mintCredential } from '../../src/domains/api-keys/api-keys.queries.ts';
import { type LeadFields, upsertLeadRecord } from '../../src/domains/leads/lead-records.queries.ts';
import { hashPassword } from '../../src/domains/people/index.ts';
import { CALENDAR_FEED_URL_PURPOSE, displayedFeedUrl } from '../../src/domains/scheduling/calendar-feeds/calendar-feed-url.ts';
import { countLedgerEntry } from '../../src/domains/viewing/workspace-day-counts.queries.ts';
import { generateWebhookSecret, WEBHOOK_SECRET_PURPOSE } from '../../src/domains/webhooks/webhook-secrets.ts';
import type { Lookup } from '../../src/net/check-url.ts';
import { connectRedisReady } from '../../src/runtime.ts';
import type { MediaStore } from '../../src/storage/media-store.ts';
import { ADDRESS_CEILINGS, type AddressCeilings } from '../../src/transports/public/http/address-limits.ts';
import { openTestDatabase, testRedisUrl } from './database.ts';

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123';

/** Per-address ceilings no test reaches (see the header); a test's own `addressCeilings` go on top. */
const UNLIMITED_ADDRESSES: AddressCeilings = Object.fromEntries(Object.keys(ADDRESS_CEILINGS).map((kind) => [kind, 1_000_000])) as Record<
  keyof AddressCeilings,
  number
>;

/**
 * Tests resolve names without DNS: `localhost` is loopback, every other name does not exist. The
 * catalog-wide suites send example URLs (hooks.example.com), and must not depend on the network.
 */
export const testLookup: Lookup = async (hostname) => {
  if (hostname === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

/**
 * A test account's password hash, made once per password and process with the production parameters
 * (argon2id at 19 MiB, some 20 ms of CPU each): the accounts of one password share it, as they would
 * share nothing but a salt. Sign-in still checks each password against it at full cost.
 */
const passwordHashes = new Map<string, Promise<string>>();
function testPasswordHash(password: string): Promise<string> {
  let hash = passwordHashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    passwordHashes.set(password, hash);
  }
  return hash;
}

let lastDistinctNow = 0;
/**
 * The time now, a millisecond after every earlier answer at least (waiting for the clock to move on
 * when it has not): rows a test makes one after another in one millisecond would otherwise tie in
 * lists ordered by creation time, and fall back on their random ids. Never ahead of the clock, so a
 * row the service makes afterwards still sorts after them.
 */
async function distinctNow(): Promise<Date> {
  while (Date.now() <= lastDistinctNow) await new Promise((resolve) => setImmediate(resolve));
  lastDistinctNow = Date.now();
  return new Date(lastDistinctNow);
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  mediaStore: MediaStore;
  /** What the app was built with (the backing's dependencies and this app's options), for a pipeline of a test's own. */
  dependencies: Dependencies;
  request(method: string, url: string, options?: RequestOptions): Promise<TestResponse>;
  workspace(plan?: 'free' | 'pro' | 'business'): Promise<TestWorkspace>;
  /** The types of the events recorded for a workspace, oldest first. */
  eventTypes(workspaceId: string): Promise<string[]>;
  /** Runs `stop` when the test ends, before the app and its database close (for workers using them). */
  beforeClose(stop: () => Promise<void> | void): void;
  /** True when the app has a database of its own (`isolated: true`). */
  isolated: boolean;
}

/**
 * For helpers that start a worker: a worker claims every workspace's jobs or events, so it may only
 * run on a database of its own, never on the shared one.
 */
export function requireIsolated(harness: TestApp, what: string): void {
  if (!harness.isolated) throw new Error(`${what} works on every workspace's rows: start the app with startTestApp(t, { isolated: true })`);
}

export interface TestWorkspace {
  id: string;
  /** Admin API key: every scope. */
  key: string;
  /** A key with these scopes (every scope by default), minted by `createdByUser` when given (it then acts with at most their role). */
  mintKey(options?: {
    scopes?: readonly Scope[];
    kind?: CredentialKind;
    expiresAt?: Date | null;
    createdByUser?: string;
  }): Promise<{ id: string; key: string }>;
  addVideo(fields?: Partial<NewVideo>): Promise<string>;
  addFolder(name: string): Promise<string>;
  /** A lead made the way every path makes one (upsertLeadRecord); its id. */
  addLead(fields?: Partial<LeadFields> & { source?: LeadSource }): Promise<string>;
  /** A ledger entry row (no attribution), a succeeded purchase unless told otherwise, counted in the revenue days; its id. */
  addOutcome(fields?: Partial<NewOutcome>): Promise<string>;
  /**
   * A route row with one step per video (a new 60-second video when none is given), the first the
   * entry step, not wired; draft unless told otherwise. Its id and its steps' ids, in order.
   */
  addRoute(fields?: { name?: string; status?: RouteStatus; videoIds?: string[] }): Promise<{ id: string; stepIds: string[] }>;
  /**
   * An event type row: 30-minute calls every 30 minutes, Monday to Friday 09:00–17:00 in UTC, no
   * buffers, notice, horizon or cap unless told otherwise; its id.
   */
  addEventType(fields?: Partial<NewEventType>): Promise<string>;
  /** A confirmed booking row of an event type (a new one when none is given), tomorrow at 10:00 UTC unless told otherwise; its id. */
  addBooking(fields?: Partial<NewBooking>): Promise<string>;
  /** A calendar feed row (never fetched), its URL sealed as the service seals it; its id. */
  addCalendarFeed(fields?: { name?: string; url?: string }): Promise<string>;
  /** A webhook endpoint row (no URL check), with its signing secret. */
  addWebhookEndpoint(fields?: { url?: string; events?: string[]; active?: boolean }): Promise<{ id: string; secret: string }>;
  /** A delivery row of one of this workspace's endpoints, exhausted unless told otherwise. */
  addWebhookDelivery(endpointId: string, fields?: Partial<NewWebhookDelivery>): Promise<string>;
  /**
   * A person with an account (password `password` when given, else none) and a membership of this
   * workspace with `role` (member unless told otherwise); their ids and email.
   */
  addMember(fields?: { role?: MemberRole; email?: string; name?: string; password?: string }): Promise<TestMember>;
}

export interface TestMember {
  userId: string;
  memberId: string;
  email: string;
  name: string;
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

export interface TestAppOptions extends Partial<AppOptions> {
  /** An app and a database of its own instead of the shared database (see the header). */
  isolated?: boolean;
}

/** The configuration tests run the app with: the test secret, a data directory of their own, no ffmpeg. */
export function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    CUEPOINT_SECRET: TEST_SECRET,
    PUBLIC_URL: 'http://localhost:3000',
    CUEPOINT_DATA_DIR: dataDir,
    CUEPOINT_FFMPEG: 'off',
    ...env,
  });
}

/** What one app runs on: a database, a data directory for media and (with REDIS_URL) a Redis connection. */
interface Backing {
  database: DatabaseHandle;
  /** The dependencies the server builds, from a test configuration; tests override single ones. */
  dependencies: Dependencies;
  close(): Promise<void>;
}

async function openBacking(): Promise<Backing> {
  const database = await openTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'cuepoint-data-'));
  const redis: Redis | undefined = testRedisUrl ? await connectRedisReady(testRedisUrl) : undefined;
  const dependencies = await buildDependencies(testConfig(dataDir), { database, redis });
  return {
    database,
    dependencies,
    close: async () => {
      redis?.disconnect();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function buildTestApp(backing: Backing, options: Partial<AppOptions>): Promise<FastifyInstance> {
  return buildApp({
    ...backing.dependencies,
    ...options,
    outbound: { ...backing.dependencies.outbound, lookup: testLookup, ...options.outbound },
    addressCeilings: { ...UNLIMITED_ADDRESSES, ...options.addressCeilings },
    answerFloorMs: options.answerFloorMs ?? 0,
  });
}

// The process's shared backing and app, made on first use and closed after its last test. This module
// is imported at the top of test files, so `after` here is a hook of the root test: with the test
// runner's isolation off, the root of every file the worker runs.
let shared: Promise<{ backing: Backing; app: FastifyInstance }> | undefined;
after(async () => {
  if (!shared) return;
  const { backing, app } = await shared;
  await app.close();
  await backing.close();
});

function sharedApp(): Promise<{ backing: Backing; app: FastifyInstance }> {
  shared ??= (async () => {
    const backing = await openBacking();
    return { backing, app: await buildTestApp(backing, {}) };
  })();
  return shared;
}

export async function startTestApp(t: TestContext, options: TestAppOptions = {}): Promise<TestApp> {
  const { isolated = false, ...appOptions } = options;
  const ownApp = isolated || Object.keys(appOptions).length > 0;
  const { backing } = isolated ? { backing: await openBacking() } : await sharedApp();
  const app = ownApp ? await buildTestApp(backing, appOptions) : (await sharedApp()).app;
  const { database } = backing;
  const mediaStore = appOptions.mediaStore ?? backing.dependencies.mediaStore;
  const dependencies: Dependencies = { ...backing.dependencies, ...appOptions };
  const stoppers: (() => Promise<void> | void)[] = [];
  t.after(async () => {
    for (const stop of stoppers.reverse()) await stop();
    if (ownApp) await app.close();
    if (isolated) await backing.close();
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
    const made: TestWorkspace = {
      id: row.id,
      key: apiKey,
      async mintKey({ scopes = TIER_SCOPES.admin, kind = 'api_key', expiresAt = null, createdByUser } = {}) {
        const { key, token } = await mintCredential(database.db, {
          workspaceId: row.id,
          name: 'test key',
          kind,
          scopes: [...scopes],
          expiresAt,
          createdBy: null,
          createdByUser: createdByUser ?? null,
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
      async addMember({ role = 'member', email = `person-${randomUUID().slice(0, 8)}@example.com`, name = 'Test Person', password } = {}) {
        const at = await distinctNow();
        const userId = randomUUID();
        const memberId = randomUUID();
        const passwordHash = password ? await testPasswordHash(password) : null;
        await database.db
          .insertInto('users')
          .values({
            id: userId,
            email: email.toLowerCase(),
            name,
            password_hash: passwordHash,
            password_changed_at: passwordHash ? at : null,
            created_at: at,
            updated_at: at,
          })
          .execute();
        await database.db
          .insertInto('members')
          .values({ id: memberId, workspace_id: row.id, user_id: userId, role, created_at: at, updated_at: at })
          .execute();
        return { userId, memberId, email: email.toLowerCase(), name };
      },
      async addFolder(name) {
        const id = randomUUID();
        await database.db.insertInto('folders').values({ id, workspace_id: row.id, name }).execute();
        return id;
      },
      async addLead({ source = 'api', ...fields } = {}) {
        const { lead } = await upsertLeadRecord(database.db, {
          workspaceId: row.id,
          fields: { email: `lead-${randomUUID().slice(0, 8)}@example.com`, ...fields },
          author: 'test',
          source,
          at: new Date(),
        });
        return lead.id;
      },
      async addOutcome(fields = {}) {
        const id = randomUUID();
        const at = new Date();
        await database.db
          .insertInto('outcomes')
          .values({
            id,
            workspace_id: row.id,
            kind: 'purchase',
            status: 'succeeded',
            amount: 4900,
            currency: 'USD',
            lead_id: null,
            video_id: null,
            first_touch_video_id: null,
            last_touch_video_id: null,
            refunded_outcome_id: null,
            external_id: null,
            source: 'api',
            description: null,
            occurred_at: at,
            created_at: at,
            ...fields,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
          .then((entry) =>
            // Counted in the workspace's revenue days, as insertOutcome counts what it writes.
            countLedgerEntry(database.db, {
              workspaceId: entry.workspace_id,
              kind: entry.kind,
              status: entry.status,
              currency: entry.currency,
              amount: Number(entry.amount),
              occurredAt: entry.occurred_at,
            }),
          );
        return id;
      },
      async addRoute({ name = 'Test route', status = 'draft', videoIds } = {}) {
        const id = randomUUID();
        const at = new Date();
        const videos = videoIds ?? [await made.addVideo({ title: 'Route entry' })];
        await database.db.insertInto('routes').values({ id, workspace_id: row.id, name, status, created_at: at, updated_at: at }).execute();
        const stepIds = videos.map(() => randomUUID());
        await database.db
          .insertInto('route_steps')
          .values(
            videos.map((videoId, position) => ({
              id: stepIds[position] as string,
              workspace_id: row.id,
              route_id: id,
              video_id: videoId,
              position,
              question: null,
              ask_at_seconds: null,
              created_at: at,
            })),
          )
          .execute();
        return { id, stepIds };
      },
      async addEventType(fields = {}) {
        const id = randomUUID();
        const at = new Date();
        const workingDay = [{ start: '09:00', end: '17:00' }];
        await database.db
          .insertInto('event_types')
          .values({
            id,
            workspace_id: row.id,
            name: 'Intro call',
            duration_minutes: 30,
            slot_interval_minutes: 30,
            horizon_days: null,
            daily_cap: null,
            value_amount: null,
            value_currency: null,
            location: null,
            time_zone: 'UTC',
            weekly_hours: JSON.stringify({ 1: workingDay, 2: workingDay, 3: workingDay, 4: workingDay, 5: workingDay }),
            created_at: at,
            updated_at: at,
            ...fields,
          })
          .execute();
        return id;
      },
      async addBooking(fields = {}) {
        const id = randomUUID();
        const at = new Date();
        const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1, 10));
        await database.db
          .insertInto('bookings')
          .values({
            id,
            workspace_id: row.id,
            event_type_id: fields.event_type_id ?? (await made.addEventType()),
            starts_at: start,
            ends_at: new Date(start.getTime() + 30 * 60_000),
            invitee_email: `invitee-${randomUUID().slice(0, 8)}@example.com`,
            invitee_name: 'Private Invitee',
            invitee_phone: null,
            invitee_timezone: 'Europe/Berlin',
            lead_id: null,
            outcome_id: null,
            video_id: null,
            route_id: null,
            cancel_token_hash: createHash('sha256').update(randomUUID()).digest('hex'),
            canceled_at: null,
            canceled_by: null,
            cancel_reason: null,
            rescheduled_at: null,
            created_at: at,
            updated_at: at,
            ...fields,
          })
          .execute();
        return id;
      },
      async addCalendarFeed({ name = 'Private calendar', url = 'https://calendar.example.com/private/basic.ics' } = {}) {
        const id = randomUUID();
        const at = new Date();
        await database.db
          .insertInto('calendar_feeds')
          .values({
            id,
            workspace_id: row.id,
            name,
            url_sealed: createSealedBox(TEST_SECRET, CALENDAR_FEED_URL_PURPOSE).seal(url),
            url_display: displayedFeedUrl(new URL(url)),
            last_fetched_at: null,
            last_success_at: null,
            last_error: null,
            created_at: at,
            updated_at: at,
          })
          .execute();
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
    return made;
  };

  const eventTypes = async (workspaceId: string) =>
    (await database.db.selectFrom('events').select('type').where('workspace_id', '=', workspaceId).orderBy('sequence').execute()).map(
      (e) => e.type,
    );

  return { app, database, mediaStore, dependencies, request, workspace, eventTypes, beforeClose: (stop) => stoppers.push(stop), isolated };
}
