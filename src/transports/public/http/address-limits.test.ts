/**
 * The limit per client address on every public write, over HTTP (inject, each request from an
 * address of the test's own, new on every run, since Redis keeps buckets between runs). For each
 * write: the ceiling's worth of requests from one address, each with a new page token, viewer id or
 * email, passes; the next is refused with 429 and Retry-After in that surface's error shape and
 * writes nothing; another address still passes. X-Forwarded-For is ignored unless the peer is a
 * trusted proxy; IPv6 clients are counted per /64; bucket names hold no address. A scan of the
 * public surfaces makes sure a new write cannot be added without choosing its limit.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { Secret, TOTP } from 'otpauth';
import { startTestApp, TEST_SECRET, type TestApp, type TestAppOptions, type TestWorkspace } from '../../../../test/helpers/app.ts';
import { testRedisUrl } from '../../../../test/helpers/database.ts';
import { registerPasskey, SoftwareAuthenticator } from '../../../../test/helpers/passkey-authenticator.ts';
import { csrfOf, OWN_ORIGIN, signIn } from '../../../../test/helpers/people.ts';
import { wireStep } from '../../../../test/helpers/routes.ts';
import { BROWSER, pageView } from '../../../../test/helpers/viewing.ts';
import { createRouteTokens } from '../../../domains/routes/index.ts';
import { parseCidr } from '../../../net/address-policy.ts';
import { ADDRESS_CEILINGS, type AddressLimitKind } from './address-limits.ts';

/** The ceiling every kind gets in these tests: small, so a test sends a handful of requests. */
const CEILING = 3;

/** A fresh client address: 10.0.0.0/8 leaves runs within Redis's minute very unlikely to meet. */
const someIpv4 = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
/** A fresh /64 of 2001:db8::/32, as its first four groups. */
const someIpv6Network = () =>
  `2001:db8:${randomBytes(4)
    .toString('hex')
    .replace(/(.{4})/, '$1:')}`;
const newViewer = () => `viewer_${randomUUID().replaceAll('-', '')}`;
const newEmail = () => `someone-${randomUUID().slice(0, 8)}@example.com`;

interface Answer {
  status: number;
  headers: LightMyRequestResponse['headers'];
  raw: string;
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary fields of JSON bodies
  body: any;
}

async function send(
  harness: TestApp,
  request: { method?: 'POST'; url: string; from: string; body: unknown; form?: boolean; headers?: Record<string, string> },
): Promise<Answer> {
  const res = await harness.app.inject({
    method: request.method ?? 'POST',
    url: request.url,
    remoteAddress: request.from,
    headers: {
      'content-type': request.form ? 'application/x-www-form-urlencoded' : 'application/json',
      'user-agent': BROWSER,
      ...request.headers,
    },
    payload: request.form ? new URLSearchParams(request.body as Record<string, string>).toString() : JSON.stringify(request.body),
  });
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, raw: res.body, body };
}

/** What a surface needs for these tests: a fresh write from an address, and what it has written so far. */
interface Surface {
  /** The route, as the scan below finds it. */
  route: string;
  kind: AddressLimitKind;
  /** The status of an accepted write. */
  accepted: number;
  /**
   * The refusal is an HTML page rather than the API's error body (a form a browser navigates with),
   * saying there were too many of these ("cancellations").
   */
  page?: string;
  /** The refusal is OAuth's error body (`error`, `error_description`; RFC 6749 §5.2) rather than the API's. */
  oauth?: boolean;
  appOptions?: TestAppOptions;
  setup(
    harness: TestApp,
    ws: TestWorkspace,
  ): Promise<{ write(from: string, headers?: Record<string, string>): Promise<Answer>; written(): Promise<unknown> }>;
}

const countRows = async (harness: TestApp, table: 'viewing_batches' | 'leads' | 'route_visits' | 'channel_views', workspaceId: string) =>
  Number(
    (
      await harness.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow()
    ).n,
  );

async function videoWithForm(harness: TestApp, ws: TestWorkspace): Promise<string> {
  const videoId = await ws.addVideo({ title: 'Pricing', duration_seconds: 60 });
  const res = await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { lead_form: { placement: 'end' } } });
  assert.equal(res.status, 200, res.raw);
  return videoId;
}

/** A live one-step route whose question offers the lead form. */
async function routeWithForm(harness: TestApp, ws: TestWorkspace) {
  const video = await ws.addVideo({ title: 'Intro', duration_seconds: 30 });
  const route = await ws.addRoute({ name: 'Talk to us', status: 'live', videoIds: [video] });
  const step = route.stepIds[0] as string;
  const [toForm] = (await wireStep(harness, ws.id, route, step, 'Want a call?', [
    { label: 'Talk to us', target: 'lead_form' },
    { label: 'No thanks', target: 'end' },
  ])) as [string];
  return { id: route.id, step, toForm };
}

/** A Monday, 08:00 UTC: the default event type (Monday–Friday 09:00–17:00 UTC, 30 minutes) opens in an hour. */
const MONDAY = new Date('2030-01-07T08:00:00.000Z');

const SURFACES: Surface[] = [
  {
    route: 'POST /collect',
    kind: 'viewing',
    accepted: 200,
    async setup(harness, ws) {
      const videoId = await ws.addVideo({ duration_seconds: 60 });
      return {
        write: (from, headers) =>
          send(harness, {
            url: '/collect',
            from,
            headers,
            body: { token: pageView(videoId).token, viewer_id: newViewer(), sequence: 1, events: [{ type: 'play', position: 0 }] },
          }),
        written: () => countRows(harness, 'viewing_batches', ws.id),
      };
    },
  },
  {
    route: 'POST /leads/capture',
    kind: 'lead_forms',
    accepted: 202,
    async setup(harness, ws) {
      const videoId = await videoWithForm(harness, ws);
      return {
        write: (from, headers) =>
          send(harness, {
            url: '/leads/capture',
            from,
            headers,
            body: { token: pageView(videoId).token, viewer_id: newViewer(), email: newEmail() },
          }),
        written: () => countRows(harness, 'leads', ws.id),
      };
    },
  },
  {
    route: 'POST /r/:route_id/lead',
    kind: 'lead_forms',
    accepted: 202,
    async setup(harness, ws) {
      const route = await routeWithForm(harness, ws);
      return {
        async write(from, headers) {
          // A new page view of the route, its choice of the form reported from elsewhere.
          const { token } = createRouteTokens(TEST_SECRET).issue(route.id, new Date());
          const viewerId = newViewer();
          const events = [
            { type: 'step', index: 0, step_id: route.step },
            { type: 'choice', index: 0, step_id: route.step, choice_id: route.toForm },
          ];
          const chose = await send(harness, {
            url: `/r/${route.id}/events`,
            from: someIpv4(),
            body: { token, viewer_id: viewerId, events },
          });
          assert.equal(chose.status, 200, chose.raw);
          return send(harness, {
            url: `/r/${route.id}/lead`,
            from,
            headers,
            body: { token, viewer_id: viewerId, index: 0, step_id: route.step, email: newEmail() },
          });
        },
        written: () => countRows(harness, 'leads', ws.id),
      };
    },
  },
  {
    route: 'POST /r/:route_id/events',
    kind: 'route_events',
    accepted: 200,
    async setup(harness, ws) {
      const route = await routeWithForm(harness, ws);
      return {
        write: (from, headers) =>
          send(harness, {
            url: `/r/${route.id}/events`,
            from,
            headers,
            body: {
              token: createRouteTokens(TEST_SECRET).issue(route.id, new Date()).token,
              viewer_id: newViewer(),
              events: [{ type: 'step', index: 0, step_id: route.step }],
            },
          }),
        written: () => countRows(harness, 'route_visits', ws.id),
      };
    },
  },
  {
    route: 'POST /c/:slug/events',
    kind: 'channel_events',
    accepted: 200,
    async setup(harness, ws) {
      const channel = await harness.request('GET', '/v1/channel', { token: ws.key });
      assert.equal(channel.status, 200, channel.raw);
      return {
        write: (from, headers) =>
          send(harness, {
            url: `/c/${channel.body.slug}/events`,
            from,
            headers,
            body: { view_id: randomUUID(), viewer_id: newViewer(), events: [{ type: 'view' }] },
          }),
        written: () => countRows(harness, 'channel_views', ws.id),
      };
    },
  },
  {
    route: 'POST /book/:event_type_id',
    kind: 'bookings',
    accepted: 201,
    appOptions: { clock: () => MONDAY },
    async setup(harness, ws) {
      const eventTypeId = await ws.addEventType();
      let slot = 0;
      return {
        // Each booking a free half hour of its own, from 09:00.
        write: (from, headers) =>
          send(harness, {
            url: `/book/${eventTypeId}`,
            from,
            headers,
            body: {
              start: new Date(MONDAY.getTime() + 3_600_000 + 1_800_000 * slot++).toISOString(),
              name: 'Ada Lovelace',
              email: newEmail(),
              timezone: 'Europe/Berlin',
              viewer_id: newViewer(),
            },
          }),
        written: async () =>
          (await harness.database.db.selectFrom('bookings').select('id').where('event_type_id', '=', eventTypeId).execute()).length,
      };
    },
  },
  {
    route: 'POST /bookings/:booking_id/cancel',
    kind: 'booking_cancels',
    accepted: 200,
    page: 'cancellations',
    async setup(harness, ws) {
      const eventTypeId = await ws.addEventType();
      const tomorrow = Date.now() + 86_400_000;
      let booked = 0;
      return {
        async write(from, headers) {
          const secret = randomBytes(32).toString('base64url');
          // Each a call of its own, an hour after the last: one workspace's calls never overlap.
          const start = new Date(tomorrow + 3_600_000 * booked++);
          const id = await ws.addBooking({
            event_type_id: eventTypeId,
            starts_at: start,
            ends_at: new Date(start.getTime() + 1_800_000),
            cancel_token_hash: createHash('sha256').update(secret).digest('hex'),
          });
          return send(harness, { url: `/bookings/${id}/cancel`, from, headers, form: true, body: { token: secret } });
        },
        written: async () =>
          (
            await harness.database.db
              .selectFrom('bookings')
              .select('id')
              .where('event_type_id', '=', eventTypeId)
              .where('status', '=', 'canceled')
              .execute()
          ).length,
      };
    },
  },
  {
    route: 'POST /sign-in',
    kind: 'sign_ins',
    accepted: 303,
    page: 'sign-in attempts',
    async setup(harness, ws) {
      const person = await ws.addMember({ password: 'correct horse battery staple' });
      const sessions = async () =>
        (await harness.database.db.selectFrom('sessions').select('id').where('user_id', '=', person.userId).execute()).length;
      return {
        write: (from, headers) =>
          send(harness, {
            url: '/sign-in',
            from,
            headers,
            form: true,
            body: { email: person.email, password: 'correct horse battery staple' },
          }),
        written: sessions,
      };
    },
  },
  {
    route: 'POST /invitations/:secret',
    kind: 'account_forms',
    accepted: 303,
    page: 'account requests',
    async setup(harness, ws) {
      return {
        async write(from, headers) {
          const email = newEmail();
          const invited = await harness.request('POST', '/v1/members', { token: ws.key, body: { email } });
          assert.equal(invited.status, 201, invited.raw);
          const secret = await invitationSecret(harness, ws.id, email);
          return send(harness, {
            url: `/invitations/${secret}`,
            from,
            headers,
            form: true,
            body: { name: 'New Person', password: 'correct horse battery staple' },
          });
        },
        written: async () =>
          (await harness.database.db.selectFrom('members').select('id').where('workspace_id', '=', ws.id).execute()).length,
      };
    },
  },
  {
    route: 'POST /sign-in/passkey/options',
    kind: 'sign_ins',
    accepted: 200,
    // A moment of this test's own: the challenges it made are the ones made then.
    appOptions: { clock: () => PASSKEY_OPTIONS_AT },
    async setup(harness) {
      return {
        write: (from, headers) => send(harness, { url: '/sign-in/passkey/options', from, headers, body: {} }),
        written: async () =>
          (
            await harness.database.db
              .selectFrom('one_time_tokens')
              .select('token_hash')
              .where('purpose', '=', 'passkey_sign_in')
              .where('created_at', '=', PASSKEY_OPTIONS_AT)
              .execute()
          ).length,
      };
    },
  },
  {
    route: 'POST /sign-in/passkey',
    kind: 'sign_ins',
    accepted: 200,
    async setup(harness, ws) {
      const person = await ws.addMember({ password: 'correct horse battery staple' });
      const authenticator = new SoftwareAuthenticator(OWN_ORIGIN);
      const added = await registerPasskey(await signIn(harness.app, person.email, 'correct horse battery staple'), authenticator);
      assert.equal(added.status, 201);
      return {
        async write(from, headers) {
          // The challenge comes from another address: only the sign-in itself draws from `from`'s limit.
          const options = await send(harness, { url: '/sign-in/passkey/options', from: someIpv4(), body: {} });
          return send(harness, { url: '/sign-in/passkey', from, headers, body: { response: authenticator.get(options.body.options) } });
        },
        written: async () =>
          (await harness.database.db.selectFrom('sessions').select('id').where('user_id', '=', person.userId).execute()).length,
      };
    },
  },
  {
    route: 'POST /sign-in/second-factor',
    kind: 'sign_ins',
    accepted: 303,
    page: 'sign-in attempts',
    appOptions: { clock: () => new Date(secondFactorNow) },
    async setup(harness, ws) {
      const password = 'correct horse battery staple';
      const person = await ws.addMember({ password });
      const secret = await turnOnTwoFactor(harness, person.email, password);
      return {
        async write(from, headers) {
          // A code of a new time step each time (a code is accepted once); the password from another address.
          secondFactorNow += 30_000;
          const step = await send(harness, { url: '/sign-in', from: someIpv4(), form: true, body: { email: person.email, password } });
          const pending = /name="pending" value="([A-Za-z0-9_-]{43})"/.exec(step.raw)?.[1] as string;
          const code = TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: secondFactorNow });
          return send(harness, { url: '/sign-in/second-factor', from, headers, form: true, body: { pending, code } });
        },
        written: async () =>
          (await harness.database.db.selectFrom('sessions').select('id').where('user_id', '=', person.userId).execute()).length,
      };
    },
  },
  {
    route: 'POST /sign-in/link',
    kind: 'account_forms',
    accepted: 200,
    page: 'account requests',
    async setup(harness, ws) {
      const people: string[] = [];
      return {
        async write(from, headers) {
          const person = await ws.addMember();
          people.push(person.userId);
          return send(harness, { url: '/sign-in/link', from, headers, form: true, body: { email: person.email } });
        },
        // The link is queued just after the answer (its timing must not tell whether an account exists): let it land.
        async written() {
          await sleep(500);
          const rows = await harness.database.db.selectFrom('one_time_tokens').select('user_id').where('user_id', 'in', people).execute();
          return rows.length;
        },
      };
    },
  },
  {
    route: 'POST /oauth/register',
    kind: 'client_registrations',
    accepted: 201,
    oauth: true,
    async setup(harness) {
      const name = `Assistant ${randomUUID()}`;
      return {
        write: (from, headers) =>
          send(harness, {
            url: '/oauth/register',
            from,
            headers,
            body: { client_name: name, redirect_uris: ['http://127.0.0.1/callback'] },
          }),
        async written() {
          return (await harness.database.db.selectFrom('oauth_clients').select('client_id').where('client_name', '=', name).execute())
            .length;
        },
      };
    },
  },
  {
    route: 'POST /account/email/:secret',
    kind: 'account_forms',
    accepted: 200,
    page: 'account requests',
    async setup(harness, ws) {
      const confirmed = async () =>
        (await harness.database.db.selectFrom('users').select('id').where('email', 'like', 'moved-%@example.com').execute()).length;
      return {
        async write(from, headers) {
          const person = await ws.addMember({ password: 'correct horse battery staple' });
          const secret = await emailChangeSecret(harness, person.userId, `moved-${randomUUID().slice(0, 8)}@example.com`);
          return send(harness, { url: `/account/email/${secret}`, from, headers, form: true, body: { confirm: '1' } });
        },
        written: confirmed,
      };
    },
  },
];

const PASSKEY_OPTIONS_AT = new Date(Date.UTC(2031, 0, 1) + randomInt(1_000_000) * 1000);
let secondFactorNow = Date.UTC(2031, 5, 1) + randomInt(1_000_000) * 1000;

/** Turns two-factor on for a person with a password, as they would on the account page; the secret. */
async function turnOnTwoFactor(harness: TestApp, email: string, password: string): Promise<string> {
  const person = await signIn(harness.app, email, password);
  const csrf = csrfOf((await person.get('/app/account/two-factor')).body);
  await person.post('/app/account/two-factor/setup', { csrf });
  const grouped = /id="setup-key">([A-Z2-7 ]+)</.exec((await person.get('/app/account/two-factor')).body)?.[1] as string;
  const secret = grouped.replaceAll(' ', '');
  const code = TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: secondFactorNow });
  const confirmed = await person.post('/app/account/two-factor/confirm', { csrf, code });
  assert.equal(confirmed.statusCode, 303, confirmed.body.slice(0, 300));
  return secret;
}

/** The secret of the invitation link mailed to `email` (read from the outbox, as the invitee would from their inbox). */
/** A live email-change link for a person, made as the account page makes one. */
async function emailChangeSecret(harness: TestApp, userId: string, newEmail: string): Promise<string> {
  const { requestEmailChange } = await import('../../../domains/people/index.ts');
  let secret = '';
  await harness.database.db.transaction().execute((trx) =>
    requestEmailChange(trx, {
      userId,
      newEmail,
      now: new Date(),
      confirmUrl: (s) => {
        secret = s;
        return `http://localhost:3000/account/email/${s}`;
      },
    }),
  );
  return secret;
}

async function invitationSecret(harness: TestApp, workspaceId: string, email: string): Promise<string> {
  const message = await harness.database.db
    .selectFrom('email_outbox')
    .select('text_body')
    .where('workspace_id', '=', workspaceId)
    .where('to_address', '=', email)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return (/\/invitations\/([A-Za-z0-9_-]{43})/.exec(message.text_body) as RegExpExecArray)[1] as string;
}

async function surfaceApp(t: Parameters<typeof startTestApp>[0], surface: Surface, options: TestAppOptions = {}) {
  const harness = await startTestApp(t, { addressCeilings: { [surface.kind]: CEILING }, ...surface.appOptions, ...options });
  const ws = await harness.workspace();
  return { harness, ws, ...(await surface.setup(harness, ws)) };
}

/** A 429 in the surface's shape: the API's error body, or for the cancel form a page; Retry-After in whole seconds either way. */
function assertRefused(surface: Surface, answer: Answer) {
  assert.equal(answer.status, 429, answer.raw);
  const retryAfter = Number(answer.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${answer.headers['retry-after']}`);
  if (surface.page) {
    assert.match(String(answer.headers['content-type']), /^text\/html/);
    assert.match(
      answer.raw,
      new RegExp(`Too many ${surface.page} were sent from your network\\. Please try again in ${retryAfter} seconds\\.`),
    );
    return;
  }
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  if (surface.oauth) {
    assert.deepEqual(Object.keys(answer.body).sort(), ['error', 'error_description']);
    assert.equal(answer.body.error, 'rate_limited');
    assert.match(answer.body.error_description, new RegExp(`^Too many [a-z -]+ from your network; try again in ${retryAfter} seconds\\.$`));
    return;
  }
  assert.equal(answer.body.error.code, 'rate_limited');
  assert.match(answer.body.error.message, new RegExp(`^Too many [a-z -]+ from your network; try again in ${retryAfter} seconds\\.$`));
  assert.deepEqual(answer.body.error.details, { retry_after_seconds: retryAfter });
  assert.ok(answer.body.error.request_id);
}

for (const surface of SURFACES) {
  test(`${surface.route}: ${CEILING} writes from one address pass, the next is a 429 with Retry-After that writes nothing, another address passes`, async (t) => {
    const { write, written } = await surfaceApp(t, surface);
    const address = someIpv4();
    for (let i = 0; i < CEILING; i++) {
      const answer = await write(address);
      assert.equal(answer.status, surface.accepted, `write ${i + 1}: ${answer.raw}`);
    }
    const before = await written();
    assertRefused(surface, await write(address));
    assert.deepEqual(await written(), before, 'the refused write wrote nothing');
    const other = await write(someIpv4());
    assert.equal(other.status, surface.accepted, other.raw);
  });
}

const collect = SURFACES.find((surface) => surface.kind === 'viewing') as Surface;

test('X-Forwarded-For is ignored without CUEPOINT_TRUSTED_PROXIES: a forged address per request does not escape the limit, and the log says so once', async (t) => {
  const lines: string[] = [];
  const logger = { level: 'warn', stream: { write: (line: string) => lines.push(line) } };
  const { write } = await surfaceApp(t, collect, { logger });
  const address = someIpv4();
  for (let i = 0; i < CEILING; i++) assert.equal((await write(address, { 'x-forwarded-for': someIpv4() })).status, 200);
  assertRefused(collect, await write(address, { 'x-forwarded-for': someIpv4() }));
  const warnings = lines.filter((line) => line.includes('X-Forwarded-For is ignored because CUEPOINT_TRUSTED_PROXIES is not set'));
  assert.equal(warnings.length, 1, lines.join(''));
});

test('with CUEPOINT_TRUSTED_PROXIES, a proxy’s requests count for the client X-Forwarded-For names; others’ headers stay ignored', async (t) => {
  const proxy = someIpv4();
  const { write } = await surfaceApp(t, collect, { trustedProxies: [parseCidr(proxy)] });
  const client = someIpv4();
  // The client wrote an address of its own choosing first; the proxy appended the real one.
  for (let i = 0; i < CEILING; i++) {
    assert.equal((await write(proxy, { 'x-forwarded-for': `${someIpv4()}, ${client}` })).status, 200, `request ${i + 1}`);
  }
  assertRefused(collect, await write(proxy, { 'x-forwarded-for': `${someIpv4()}, ${client}` }));
  assert.equal((await write(proxy, { 'x-forwarded-for': someIpv4() })).status, 200, 'another client behind the same proxy');
  assert.equal((await write(proxy)).status, 200, 'the proxy itself, with no header, is a client of its own');

  // A peer that is not a proxy is counted as itself, whatever it claims.
  const stranger = someIpv4();
  for (let i = 0; i < CEILING; i++) assert.equal((await write(stranger, { 'x-forwarded-for': client })).status, 200);
  assertRefused(collect, await write(stranger, { 'x-forwarded-for': someIpv4() }));
});

test('IPv6 clients are counted per /64; an IPv4-mapped IPv6 peer is its IPv4 address', async (t) => {
  const { write } = await surfaceApp(t, collect);
  const network = someIpv6Network();
  // Every request from another address of the same /64: one client.
  for (let i = 0; i < CEILING; i++) assert.equal((await write(`${network}:${randomBytes(2).toString('hex')}::${i + 1}`)).status, 200);
  assertRefused(collect, await write(`${network}::ffff`));
  assert.equal((await write(`${someIpv6Network()}::1`)).status, 200, 'another /64');

  const v4 = someIpv4();
  for (let i = 0; i < CEILING; i++) assert.equal((await write(i % 2 === 0 ? v4 : `::ffff:${v4}`)).status, 200);
  assertRefused(collect, await write(`::ffff:${v4}`));
  assertRefused(collect, await write(v4));
});

test('the watch page’s form and the route player’s share one address limit', async (t) => {
  const watchForm = SURFACES.find((surface) => surface.route === 'POST /leads/capture') as Surface;
  const routeForm = SURFACES.find((surface) => surface.route === 'POST /r/:route_id/lead') as Surface;
  const harness = await startTestApp(t, { addressCeilings: { lead_forms: CEILING } });
  const ws = await harness.workspace();
  const onWatchPage = await watchForm.setup(harness, ws);
  const inRoute = await routeForm.setup(harness, ws);
  const address = someIpv4();
  for (let i = 0; i < CEILING; i++) assert.equal((await onWatchPage.write(address)).status, 202);
  const leads = await inRoute.written();
  assertRefused(routeForm, await inRoute.write(address));
  assert.equal(await inRoute.written(), leads);
});

test('the production ceilings: generous for viewing, tight for forms', () => {
  assert.deepEqual(ADDRESS_CEILINGS, {
    viewing: 12_000,
    route_events: 3_200,
    channel_events: 3_200,
    lead_forms: 30,
    bookings: 10,
    booking_cancels: 10,
    sign_ins: 60,
    account_forms: 20,
    client_registrations: 20,
  });
});

test('bucket names hold no client address (with Redis, where they are stored)', { skip: !testRedisUrl && 'needs REDIS_URL' }, async (t) => {
  const { write } = await surfaceApp(t, collect);
  const address = someIpv4();
  assert.equal((await write(address)).status, 200);
  const redis = new Redis(testRedisUrl as string);
  t.after(() => redis.disconnect());
  const keys = await redis.keys(`cuepoint:rl:${CEILING}:address:viewing:*`);
  assert.ok(keys.length > 0, 'the bucket is in Redis');
  for (const key of keys) assert.ok(!key.includes(address) && !/\d+\.\d+\.\d+\.\d+/.test(key), key);
});

/**
 * Every route a public surface registers for a method that writes, from its source: each is limited
 * per address (and in SURFACES above), or says why its writer needs no such limit.
 */
const PUBLIC_WRITES: Record<string, AddressLimitKind | 'holds a credential'> = {
  'POST /collect': 'viewing',
  'POST /leads/capture': 'lead_forms',
  'POST /r/:route_id/events': 'route_events',
  'POST /r/:route_id/lead': 'lead_forms',
  'POST /c/:slug/events': 'channel_events',
  'POST /book/:event_type_id': 'bookings',
  'POST /bookings/:booking_id/cancel': 'booking_cancels',
  'POST /sign-in': 'sign_ins',
  'POST /invitations/:secret': 'account_forms',
  'POST /sign-in/passkey/options': 'sign_ins',
  'POST /sign-in/passkey': 'sign_ins',
  'POST /sign-in/second-factor': 'sign_ins',
  // A signed-in person's session, and the CSRF token of their page.
  'POST /sign-out': 'holds a credential',
  'POST /app/workspace': 'holds a credential',
  'POST /app/account/name': 'holds a credential',
  'POST /app/account/email': 'holds a credential',
  'POST /app/account/password': 'holds a credential',
  'POST /app/account/sessions/:session_id/end': 'holds a credential',
  'POST /app/account/sessions/end-all': 'holds a credential',
  // A sign-in link's and an email change's secret (each a one-time token mailed to the person).
  'POST /sign-in/link/:secret': 'holds a credential',
  'POST /sign-in/link': 'account_forms',
  'POST /oauth/register': 'client_registrations',
  // The consent form: a signed-in person's session and its CSRF token (a code issued also draws from
  // account_forms). The token endpoint and revocation: a code, refresh or access token of 256 random
  // bits; an assistant's servers refresh for all its users from a few addresses (docs/decisions.md).
  'POST /oauth/authorize': 'holds a credential',
  'POST /oauth/token': 'holds a credential',
  'POST /oauth/revoke': 'holds a credential',
  'POST /account/email/:secret': 'account_forms',
  'POST /app/account/passkeys/options': 'holds a credential',
  'POST /app/account/passkeys': 'holds a credential',
  'POST /app/account/passkeys/:passkey_id/name': 'holds a credential',
  'POST /app/account/passkeys/:passkey_id/remove': 'holds a credential',
  'POST /app/account/two-factor/setup': 'holds a credential',
  'POST /app/account/two-factor/confirm': 'holds a credential',
  'POST /app/account/two-factor/cancel': 'holds a credential',
  'POST /app/account/two-factor/disable': 'holds a credential',
  // The signed, one-time URL create_video_upload handed out (a limited API call); Stripe's signature.
  'PUT /uploads/:token': 'holds a credential',
  'POST /stripe/webhooks/:workspace_id': 'holds a credential',
};

test('every public write is limited per address, or holds a credential', () => {
  const root = join(import.meta.dirname, '..');
  const found = new Map<string, string>();
  const kitForms = new Set<string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const source = readFileSync(join(entry.parentPath, entry.name), 'utf8');
    for (const match of source.matchAll(/\.(post|put|patch|delete)(?:<[^>]*>)?\(\s*'([^']+)'/g)) {
      found.set(`${(match[1] as string).toUpperCase()} ${match[2]}`, source);
    }
    // Dashboard forms declared through the kit (dashboardPost): the kit refuses them without a live session
    // and its CSRF token, so they hold a credential by construction; they must stay under /app.
    for (const match of source.matchAll(/dashboardPost\(\s*\w+,\s*\w+,\s*[`'"]([^`'"]+)[`'"]/g)) kitForms.add(match[1] as string);
  }
  assert.ok(kitForms.size > 0, 'the scan finds the dashboard kit’s forms');
  for (const path of kitForms) assert.ok(path.startsWith('/app/') || path.startsWith('${'), `${path}: a dashboard form lives under /app`);
  assert.deepEqual([...found.keys()].sort(), Object.keys(PUBLIC_WRITES).sort(), 'a new public write chooses its limit here');
  for (const [route, kind] of Object.entries(PUBLIC_WRITES)) {
    if (kind === 'holds a credential') continue;
    assert.ok(found.get(route)?.includes(`addressLimits.of(request, '${kind}')`), `${route} draws from its address's ${kind} limit`);
    assert.ok(
      SURFACES.some((surface) => surface.route === route && surface.kind === kind),
      `${route} is tested above`,
    );
  }
});
