/**
 * reveal_lead: a person signed in to the dashboard (a `user` principal, as the dashboard hands the
 * pipeline) with workspace:manage sees a lead's contact fields unmasked while the workspace masks
 * them everywhere else, and the reveal is in the audit log; a key or assistant token may not call it,
 * on /v1 or MCP or anywhere; a role without workspace:manage is refused; another workspace's lead is
 * not_found.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace, testConfig } from '../../../../test/helpers/app.ts';
import { callTool, connectMcp } from '../../../../test/helpers/mcp-client.ts';
import { createPipeline, type Pipeline } from '../../../core/pipeline/pipeline.ts';
import type { Principal } from '../../../core/pipeline/principal.ts';
import { type Role, roleScopes } from '../../../core/roles.ts';
import { buildDependencies, pipelineDeps } from '../../../dependencies.ts';
import { getLead } from './get-lead.ts';
import { revealLead } from './reveal-lead.ts';

const quiet = { info() {}, warn() {}, error() {} };

/** The pipeline as the dashboard runs it, on the test app's database. */
async function dashboardPipeline(t: Parameters<typeof startTestApp>[0], harness: TestApp): Promise<Pipeline> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cuepoint-reveal-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const dependencies = await buildDependencies(testConfig(dataDir), { database: harness.database });
  return createPipeline(pipelineDeps(dependencies, quiet));
}

/** A person signed in to the workspace with a role, as the dashboard identifies them. */
function person(ws: TestWorkspace, role: Role, maskPii: boolean): Principal {
  const userId = crypto.randomUUID();
  return {
    credentialId: userId,
    workspaceId: ws.id,
    kind: 'user',
    role,
    userId,
    name: 'Olive Owner',
    scopes: new Set(roleScopes(role)),
    expiresAt: null,
    plan: 'pro',
    maskPii,
  };
}

const call = (principal: Principal | undefined, input: unknown, authorization?: string) => ({
  authorization,
  principal,
  origin: { transport: 'dashboard' as const, address: '192.0.2.10', userAgent: 'Dashboard browser' },
  input,
  source: 'json' as const,
  requestId: `req_reveal_${crypto.randomUUID().slice(0, 8)}`,
});

test('an owner reveals a masked lead; the reveal is an audit event naming the lead, not its data', async (t) => {
  const harness = await startTestApp(t);
  const pipeline = await dashboardPipeline(t, harness);
  const ws = await harness.workspace();
  const masked = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { mask_pii: true } });
  assert.equal(masked.status, 200, masked.raw);
  const email = `hidden-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const leadId = await ws.addLead({ email, first_name: 'Imogen', last_name: 'Hart', phone: '+44 20 7946 0999' });
  const owner = person(ws, 'owner', true);

  // Everywhere else the workspace's masking holds, for this person too.
  const seen = await pipeline(getLead, call(owner, { lead_id: leadId }));
  assert.equal(seen.status, 200, JSON.stringify(seen.body));
  assert.notEqual((seen.body as { email: string }).email, email);

  const revealed = await pipeline(revealLead, call(owner, { lead_id: leadId }));
  assert.equal(revealed.status, 200, JSON.stringify(revealed.body));
  assert.deepEqual(revealed.body, {
    lead_id: leadId,
    email,
    first_name: 'Imogen',
    last_name: 'Hart',
    name: 'Imogen Hart',
    phone: '+44 20 7946 0999',
  });

  const audit = await harness.request('GET', `/v1/audit-events?action=reveal_lead`, { token: ws.key });
  assert.equal(audit.status, 200, audit.raw);
  assert.equal(audit.body.pagination.total, 1);
  const [event] = audit.body.audit_events;
  assert.deepEqual(
    [event.actor, event.object, event.origin],
    [
      { kind: 'user', id: owner.userId, name: 'Olive Owner' },
      { kind: 'lead', id: leadId },
      { transport: 'dashboard', address: '192.0.2.10', user_agent: 'Dashboard browser' },
    ],
  );
  assert.ok(!JSON.stringify(event).includes(email));
});

test('reveal_lead is refused to keys and assistants everywhere, to roles without workspace:manage, and for another workspace’s lead', async (t) => {
  const harness = await startTestApp(t);
  const pipeline = await dashboardPipeline(t, harness);
  const ws = await harness.workspace();
  const other = await harness.workspace();
  const leadId = await ws.addLead();
  const before = (await harness.request('GET', '/v1/audit-events?action=reveal_lead', { token: ws.key })).body.pagination.total;

  // Not a route of /v1 (the path answers no method at all), not a tool.
  const rest = await harness.request('POST', `/v1/leads/${leadId}/reveal`, { token: ws.key, body: {} });
  assert.equal(rest.status, 404, rest.raw);
  const assistant = await ws.mintKey({ kind: 'assistant' });
  const client = await connectMcp(t, harness.app, assistant.key);
  assert.ok(!(await client.listTools()).tools.some((listed) => listed.name === 'reveal_lead'));
  await assert.rejects(callTool(client, 'reveal_lead', { lead_id: leadId }), /Unknown tool: reveal_lead/);
  // Even handed to the pipeline with a key, it is refused.
  const byKey = await pipeline(revealLead, call(undefined, { lead_id: leadId }, `Bearer ${ws.key}`));
  assert.equal(byKey.status, 403, JSON.stringify(byKey.body));

  // A member holds the write tier, not workspace:manage.
  const member = await pipeline(revealLead, call(person(ws, 'member', false), { lead_id: leadId }));
  assert.equal(member.status, 403, JSON.stringify(member.body));
  assert.equal((member.body as { error: { details: { required_scope: string } } }).error.details.required_scope, 'workspace:manage');

  // Another workspace's owner: not found, naming a lead and nothing of it.
  const stranger = await pipeline(revealLead, call(person(other, 'admin', false), { lead_id: leadId }));
  assert.equal(stranger.status, 404, JSON.stringify(stranger.body));
  assert.match((stranger.body as { error: { message: string } }).error.message, /lead/);

  const after = (await harness.request('GET', '/v1/audit-events?action=reveal_lead', { token: ws.key })).body.pagination.total;
  assert.equal(after, before, 'a refused reveal is no reveal');
});
