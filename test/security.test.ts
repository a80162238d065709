/**
 * Catalog-wide security, generated for every operation over both transports (REST, and MCP tools
 * through the official SDK client), one subtest per operation so that one failure hides no other:
 * - no credential, an expired one or a revoked one: 401 with the Bearer challenge; a credential
 *   without the operation's scope: 403 naming it; a plan without the operation's entitlement: 403
 *   plan_limit;
 * - another workspace's real ids, put wherever the input takes an id of that resource (found by the
 *   `x-resource` annotation: paths, filters, bodies, arrays of ids, fields taking an id or a name),
 *   are not_found naming that kind of thing, and so is an id nobody has; they never appear in an
 *   answer, and that workspace's rows, in every table, stay exactly as they were.
 * An operation added tomorrow is covered the day it lands, without editing this file, unless its ids
 * refer to a new kind of resource: then FIXTURES needs a way to make one.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { type TestContext, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { apiOperations, catalog as everyOperation } from '../src/catalog.ts';
import type { AnyOperation } from '../src/core/operation.ts';
import { PLAN_NAMES, PLANS, type PlanName } from '../src/core/plans.ts';
import { EVERY_ITEM, type IdSlot, idSlots } from '../src/core/resource-ids.ts';
import type { Resource } from '../src/core/schemas.ts';
import { SCOPES, type Scope } from '../src/core/scopes.ts';
import type { CredentialKind } from '../src/core/secrets/tokens.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers/app.ts';
import { callTool, connectMcp, urlOf } from './helpers/mcp-client.ts';
import { inputWithIds, inputWithIdsAsGiven, isPathSlot, restRequest } from './helpers/operation-request.ts';
import { viewer, watch } from './helpers/viewing.ts';
import { changesBetween, snapshotWorkspace, tablesWithWorkspaceId, type WorkspaceSnapshot } from './helpers/workspace-snapshot.ts';

/** What /v1 and MCP offer: the dashboard's own actions are never there (test/dashboard-only.test.ts). */
const catalog = apiOperations(everyOperation);

/** Every tag the catalog's examples name: the other workspace's videos carry them, so an example call that reached across would touch or show them. */
const EXAMPLE_TAGS = [
  ...new Set(
    catalog.flatMap((op) => {
      const example = op.example as Record<string, unknown>;
      return [example.tag, example.tags].flat().filter((tag): tag is string => typeof tag === 'string');
    }),
  ),
];

/** How to make, in a workspace, one thing of each resource an input id can refer to. */
const FIXTURES: Record<Resource, (harness: TestApp, ws: TestWorkspace) => Promise<string>> = {
  video: async (harness, ws) => {
    const id = await ws.addVideo({ title: 'Private video', tags: EXAMPLE_TAGS });
    // An update through the API and a view, so the workspace has events, analytics and changes that
    // mention the video and must show nowhere else.
    const update = await harness.request('PATCH', `/v1/videos/${id}`, {
      token: ws.key,
      body: { description: 'Only its own workspace may see this.' },
    });
    assert.equal(update.status, 200, update.raw);
    await watch(harness, id, viewer(id.slice(0, 8)), [[{ type: 'progress', ranges: [[0, 12]] }]]);
    return id;
  },
  folder: (_harness, ws) => ws.addFolder(`Private folder ${randomUUID().slice(0, 8)}`),
  api_key: async (_harness, ws) => (await ws.mintKey({ scopes: ['videos:read'] })).id,
  webhook_endpoint: async (_harness, ws) => (await ws.addWebhookEndpoint()).id,
  webhook_delivery: async (_harness, ws) => ws.addWebhookDelivery((await ws.addWebhookEndpoint()).id),
  lead: (_harness, ws) => ws.addLead({ first_name: 'Private', tags: EXAMPLE_TAGS }),
  outcome: async (_harness, ws) => ws.addOutcome({ lead_id: await ws.addLead(), external_id: `private-${randomUUID()}` }),
  route: async (_harness, ws) => (await ws.addRoute({ name: 'Private route', status: 'live' })).id,
  route_step: async (_harness, ws) => (await ws.addRoute({ name: 'Private route' })).stepIds[0] as string,
  event_type: (_harness, ws) => ws.addEventType({ name: 'Private call' }),
  booking: (_harness, ws) => ws.addBooking({ invitee_name: 'Private Invitee' }),
  calendar_feed: (_harness, ws) => ws.addCalendarFeed({ name: 'Private calendar' }),
  member: async (_harness, ws) => (await ws.addMember({ role: 'viewer', name: 'Private Person' })).memberId,
};

/** A workspace's real ids, made on first need and kept: `ids(resource, n)` answers n distinct ones. */
function realIds(harness: TestApp, ws: TestWorkspace) {
  const made = new Map<Resource, string[]>();
  let version = 0;
  const ids = async (resource: Resource, count: number): Promise<string[]> => {
    const make = FIXTURES[resource];
    assert.ok(make, `No fixture makes a ${resource}: add one to FIXTURES in test/security.test.ts`);
    const list = made.get(resource) ?? [];
    made.set(resource, list);
    while (list.length < count) {
      list.push(await make(harness, ws));
      version += 1;
    }
    return list.slice(0, count);
  };
  /** Grows each time a fixture is made, so a snapshot taken before is known to be stale. */
  return { ids, version: () => version };
}

const countFor = (slot: IdSlot) => (slot.path.at(-1) === EVERY_ITEM ? Math.max(slot.minItems ?? 1, 1) : 1);

/** What an answer looked like, whichever transport carried it. */
interface Answer {
  /** The HTTP status (200 for an MCP tool result, error or not). */
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary error details
  error?: { code: string; message?: string; details?: any };
  text: string;
  challenge?: string;
}

interface Transport {
  name: 'REST' | 'MCP';
  /** The credential kind a client of this transport holds. */
  kind: CredentialKind;
  call(op: AnyOperation, input: Record<string, unknown>, token: string): Promise<Answer>;
  /** A call the service must refuse at the door (no credential, or one it does not accept). */
  knock(op: AnyOperation, input: Record<string, unknown>, token: string | undefined): Promise<Answer>;
}

function restTransport(harness: TestApp): Transport {
  const send = async (op: AnyOperation, input: Record<string, unknown>, token: string | undefined): Promise<Answer> => {
    const req = restRequest(op, input);
    const res = await harness.request(req.method, req.url, { token, body: req.body });
    const challenge = res.headers['www-authenticate'];
    return {
      status: res.status,
      error: res.status >= 400 ? res.body?.error : undefined,
      text: res.raw,
      challenge: typeof challenge === 'string' ? challenge : undefined,
    };
  };
  return { name: 'REST', kind: 'api_key', call: send, knock: send };
}

/** Tool calls through one official SDK client per credential; refusals at the door as plain HTTP, to see the status. */
function mcpTransport(t: TestContext, harness: TestApp): Transport {
  const clients = new Map<string, Promise<Client>>();
  return {
    name: 'MCP',
    kind: 'assistant',
    async call(op, input, token) {
      let client = clients.get(token);
      if (!client) {
        client = connectMcp(t, harness.app, token);
        clients.set(token, client);
      }
      const result = await callTool(await client, op.name, input);
      const error = result.isError ? (result.structuredContent?.error ?? { code: '(an error without structured content)' }) : undefined;
      return { status: 200, error, text: JSON.stringify(result) };
    },
    async knock(op, input, token) {
      const res = await fetch(`${await urlOf(harness.app)}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: op.name, arguments: input } }),
      });
      const text = await res.text();
      let body: { error?: Answer['error'] } | undefined;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: res.status, error: body?.error, text, challenge: res.headers.get('www-authenticate') ?? undefined };
    },
  };
}

const transports = (t: TestContext, harness: TestApp) => [restTransport(harness), mcpTransport(t, harness)];

/** An answer that says the service failed, rather than refusing or answering the call. */
const failed = (answer: Answer) => answer.status >= 500 || ['internal', 'service_unavailable'].includes(answer.error?.code ?? '');

test('every operation refuses a missing, expired or revoked credential, a missing scope, and a plan without its entitlement', async (t) => {
  const harness = await startTestApp(t);
  const owner = await harness.workspace();
  const onPlan = new Map<PlanName, Promise<TestWorkspace>>();
  const workspaceOn = (plan: PlanName) => {
    let ws = onPlan.get(plan);
    if (!ws) {
      ws = harness.workspace(plan);
      onPlan.set(plan, ws);
    }
    return ws;
  };

  for (const via of transports(t, harness)) {
    await t.test(via.name, async (t) => {
      const expired = await owner.mintKey({ kind: via.kind, expiresAt: new Date('2001-01-01T00:00:00Z') });
      const revoked = await owner.mintKey({ kind: via.kind });
      const revocation = await harness.request('DELETE', `/v1/api-keys/${revoked.id}`, { token: owner.key });
      assert.equal(revocation.status, 200, revocation.raw);
      const lacking = new Map<Scope, string>();
      const tokenLacking = async (scope: Scope) => {
        let token = lacking.get(scope);
        if (!token) {
          token = (await owner.mintKey({ kind: via.kind, scopes: SCOPES.filter((s) => s !== scope) })).key;
          lacking.set(scope, token);
        }
        return token;
      };

      for (const op of catalog) {
        await t.test(op.name, async () => {
          const input = inputWithIds(op, (slot) => Array.from({ length: countFor(slot) }, () => randomUUID()));
          for (const [credential, token] of [
            ['no credential', undefined],
            ['an expired credential', expired.key],
            ['a revoked credential', revoked.key],
          ] as const) {
            const answer = await via.knock(op, input, token);
            assert.equal(answer.status, 401, `${op.name} with ${credential}: ${answer.text}`);
            assert.equal(answer.error?.code, 'unauthorized', `${op.name} with ${credential}: ${answer.text}`);
            assert.match(answer.challenge ?? '', token ? /^Bearer realm="cuepoint", error="invalid_token"/ : /^Bearer realm="cuepoint"/);
          }

          const forbidden = await via.call(op, input, await tokenLacking(op.scope));
          assert.equal(forbidden.error?.code, 'forbidden', `${op.name} without ${op.scope}: ${forbidden.text}`);
          assert.equal(forbidden.error?.details?.required_scope, op.scope);
          if (via.name === 'REST') assert.equal(forbidden.status, 403);

          if (!op.entitlement) return;
          const entitlement = op.entitlement;
          const plan = PLAN_NAMES.find((name) => !PLANS[name].entitlements.has(entitlement));
          assert.ok(plan, `every plan includes ${entitlement}, so ${op.name} cannot be refused for it`);
          const limited = await via.call(op, input, (await workspaceOn(plan)).key);
          assert.equal(limited.error?.code, 'plan_limit', `${op.name} on the ${plan} plan: ${limited.text}`);
          assert.equal(limited.error?.details?.entitlement, entitlement);
          assert.equal(limited.error?.details?.plan, plan);
          if (via.name === 'REST') assert.equal(limited.status, 403);
        });
      }
    });
  }
});

/** One call an attacker makes: the input, and which of the other workspace's ids it carries. */
interface Attack {
  label: string;
  input: Record<string, unknown>;
  /** The other workspace's ids in the input: a not_found answer may name them, nothing else may. */
  sent: string[];
  /**
   * The answer must be not_found naming this resource: a path parameter, or the one id of the call
   * that is not the caller's, sent as a client would send it (SPEC §1).
   */
  notFound?: Resource;
}

type Ids = ReturnType<typeof realIds>['ids'];

/**
 * For an id the operation's example cannot carry alone (another field of the example excludes it, or
 * names a video by a title the caller's workspace does not have), the input to carry it in instead.
 * By operation, then by slot (its path joined with dots); ids in it are replaced as in the example.
 */
const EXAMPLES_FOR_SLOT: Record<string, Record<string, Record<string, unknown>>> = {
  // A lead is named one way: by lead_id or by email; refunds_outcome_id belongs to a refund.
  record_outcome: {
    lead_id: { kind: 'purchase', amount: 4900, currency: 'USD', lead_id: '', external_id: 'order-1001' },
    refunds_outcome_id: { kind: 'refund', amount: 100, currency: 'USD', refunds_outcome_id: '' },
  },
  // The channel features one item.
  set_channel_featured: { route_id: { route_id: '' } },
  // A branch has exactly one target, and the example's to_video is a title of the example's library.
  add_route_branches: {
    from_step_id: { route_id: '', from_step_id: '', branches: [{ label: 'Done', end: true }] },
    'branches.[].to_step_id': { route_id: '', branches: [{ label: 'Again', to_step_id: '' }] },
    'branches.[].event_type_id': { route_id: '', branches: [{ label: 'Book a demo', event_type_id: '' }] },
  },
};

/**
 * The calls to try: every id slot filled with the other workspace's ids, the optional ones too; and
 * each slot in turn given one of the other workspace's ids, then an id nobody has, in an input that is
 * otherwise the caller's own and as a client sends it (the example's fields, the caller's real ids):
 * those must be not_found, whether the id is in the path, a filter or the body. An input without ids
 * is sent as in the example: its answer must still show nothing of the other workspace.
 */
async function attacksOn(op: AnyOperation, theirs: Ids, own: Ids): Promise<Attack[]> {
  const slots = idSlots(op.input);
  // By path: the input builders read the schema again, so slots are told apart by where they are.
  const where = (slot: IdSlot) => slot.path.join('.');
  const theirIds = new Map<string, string[]>();
  const ownIds = new Map<string, string[]>();
  for (const slot of slots) {
    theirIds.set(where(slot), await theirs(slot.resource, countFor(slot)));
    ownIds.set(where(slot), await own(slot.resource, countFor(slot)));
  }
  const everyId = inputWithIds(op, (slot) => theirIds.get(where(slot)) as string[]);
  const attacks: Attack[] = [
    {
      label: slots.length > 0 ? 'every id from another workspace' : 'the example input',
      input: everyId,
      sent: slots.flatMap((slot) => theirIds.get(where(slot)) as string[]),
      notFound: slots.find((slot) => isPathSlot(op, slot))?.resource,
    },
  ];
  const isArray = (slot: IdSlot) => slot.path.at(-1) === EVERY_ITEM;
  for (const target of slots) {
    const theirId = (theirIds.get(where(target)) as string[])[0] as string;
    for (const [whose, stranger] of [
      ['another workspace’s', theirId],
      ['an unknown', randomUUID()],
    ] as const) {
      const input = inputWithIdsAsGiven(
        op,
        (slot) => {
          const mine = ownIds.get(where(slot)) as string[];
          if (where(slot) !== where(target)) return mine;
          return isArray(slot) ? [stranger, ...mine.slice(0, mine.length - 1)] : [stranger];
        },
        { example: EXAMPLES_FOR_SLOT[op.name]?.[where(target)], also: (slot) => where(slot) === where(target) },
      );
      attacks.push({ label: `${whose} ${where(target)}, the rest the caller’s own`, input, sent: [stranger], notFound: target.resource });
    }
  }
  return attacks;
}

/** What is wrong with an attacker's answer, if anything. */
function problemWith(op: AnyOperation, attack: Attack, answer: Answer, secrets: ReadonlySet<string>): string | undefined {
  const what = `${op.name} with ${attack.label}`;
  if (failed(answer)) return `${what} failed: ${answer.text}`;
  // REST answers not_found with 404; an MCP tool result carries it in a 200.
  if (attack.notFound) {
    if (answer.error?.code !== 'not_found' || ![404, 200].includes(answer.status)) return `${what} must be not_found: ${answer.text}`;
    const noun = attack.notFound.replace('_', ' ');
    if (!answer.error.message?.toLowerCase().includes(noun)) return `${what}: the not_found must name a ${noun}: ${answer.text}`;
  }
  // Ids in filters and bodies may be not_found, refused for another reason, or succeed on the caller's
  // own data: whatever the answer, it shows nothing of the other workspace (a not_found may name the
  // ids the caller sent).
  const mayName = answer.error?.code === 'not_found' ? attack.sent : [];
  const text = answer.text.toLowerCase();
  const leaked = [...secrets].filter((id) => !mayName.includes(id) && text.includes(id));
  if (leaked.length > 0) return `${what} showed the other workspace's ids ${leaked.join(', ')}: ${answer.text.slice(0, 1000)}`;
  return undefined;
}

test('every operation keeps to its workspace: another workspace’s ids are not_found, never shown, and its rows never change', async (t) => {
  const harness = await startTestApp(t);
  const { db } = harness.database;
  const tables = await tablesWithWorkspaceId(db);
  assert.ok(tables.includes('videos'), `the database catalog lists the workspace tables: ${tables.join(', ')}`);

  for (const via of transports(t, harness)) {
    await t.test(via.name, async (t) => {
      // Two workspaces per transport, so what one transport's calls did cannot hide a fault from the other's.
      const victim = await harness.workspace();
      const attacker = await harness.workspace();
      const theirs = realIds(harness, victim);
      const own = realIds(harness, attacker);
      const { key } = await attacker.mintKey({ kind: via.kind });
      let last: { snapshot: WorkspaceSnapshot; version: number } | undefined;

      for (const op of catalog) {
        await t.test(op.name, async () => {
          const attacks = await attacksOn(op, theirs.ids, own.ids);
          // Fixtures made for this operation change the victim: snapshot again only then.
          const before = last?.version === theirs.version() ? last.snapshot : await snapshotWorkspace(db, victim.id, tables);
          const problems: string[] = [];
          for (const attack of attacks) {
            const problem = problemWith(op, attack, await via.call(op, attack.input, key), before.uuids);
            if (problem) problems.push(problem);
          }
          const after = await snapshotWorkspace(db, victim.id, tables);
          last = { snapshot: after, version: theirs.version() };
          const changes = changesBetween(before, after);
          if (changes.length > 0) problems.push(`${op.name} changed the other workspace's rows:\n  ${changes.join('\n  ')}`);
          if (problems.length > 0) assert.fail(problems.join('\n'));
        });
      }
    });
  }
});
