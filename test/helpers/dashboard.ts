/**
 * Calls as a person signed in to the dashboard makes them: through the one pipeline, with a principal
 * of kind `user` (the dashboard's session check has identified them) and the dashboard as origin. The
 * person is a real users row with a membership of the workspace, so anything that refers to them holds.
 */
import { randomUUID } from 'node:crypto';
import { catalog } from '../../src/catalog.ts';
import type { AnyOperation } from '../../src/core/operation.ts';
import { createPipeline, type OperationOutcome } from '../../src/core/pipeline/pipeline.ts';
import type { Principal } from '../../src/core/pipeline/principal.ts';
import { type Role, roleScopes } from '../../src/core/roles.ts';
import { pipelineDeps } from '../../src/dependencies.ts';
import type { TestApp } from './app.ts';

const quiet = { info() {}, warn() {}, error() {} };

export interface SignedInPerson {
  principal: Principal;
  /** Runs the named catalog operation (dashboard-only ones included) as this person. */
  call(name: string, input: Record<string, unknown>): Promise<OperationOutcome>;
}

/** A person with `role` in the workspace (a users row and a membership), signed in. */
export async function signIn(harness: TestApp, workspaceId: string, role: Role = 'owner'): Promise<SignedInPerson> {
  const db = harness.database.db;
  const userId = randomUUID();
  const now = new Date();
  const name = `Person ${userId.slice(0, 6)}`;
  await db
    .insertInto('users')
    .values({ id: userId, email: `${userId}@people.example.com`, name, created_at: now, updated_at: now })
    .execute();
  await db
    .insertInto('members')
    .values({ id: randomUUID(), workspace_id: workspaceId, user_id: userId, role, created_at: now, updated_at: now })
    .execute();
  const workspace = await db.selectFrom('workspaces').select(['plan', 'mask_pii']).where('id', '=', workspaceId).executeTakeFirstOrThrow();
  const principal: Principal = {
    kind: 'user',
    role,
    userId,
    name,
    credentialId: userId,
    workspaceId,
    scopes: new Set(roleScopes(role)),
    expiresAt: null,
    plan: workspace.plan,
    maskPii: workspace.mask_pii,
  };
  const pipeline = createPipeline(pipelineDeps(harness.dependencies, quiet));
  return {
    principal,
    call: (name, input) =>
      pipeline(operationNamed(name), {
        authorization: undefined,
        principal,
        origin: { transport: 'dashboard' },
        input,
        source: 'json',
        requestId: `dashboard_${randomUUID()}`,
      }),
  };
}

export function operationNamed(name: string): AnyOperation {
  const operation = catalog.find((op) => op.name === name);
  if (!operation) throw new Error(`no operation ${name}`);
  return operation;
}
