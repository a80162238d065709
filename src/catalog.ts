/**
 * Every operation the service offers, and the invariants that make the two transports trustworthy.
 * Adding an operation = one file in a domain's operations/ and one line in that domain's index.ts.
 */
import type { TObject } from 'typebox';
import { type AnyOperation, pathParams } from './core/operation.ts';
import { idAnnotationProblems } from './core/resource-ids.ts';
import { isScope, isWriteScope } from './core/scopes.ts';
import { analyticsOperations } from './domains/analytics/operations.ts';
import { apiKeyOperations } from './domains/api-keys/operations.ts';
import { auditOperations } from './domains/audit/operations.ts';
import { channelOperations } from './domains/channel/operations.ts';
import { emailOperations } from './domains/email/operations.ts';
import { leadOperations } from './domains/leads/operations.ts';
import { outcomeOperations } from './domains/outcomes/operations.ts';
import { peopleOperations } from './domains/people/operations.ts';
import { routeOperations } from './domains/routes/operations.ts';
import { schedulingOperations } from './domains/scheduling/operations.ts';
import { searchOperations } from './domains/search/operations.ts';
import { tagOperations } from './domains/tags/operations.ts';
import { transcriptOperations } from './domains/transcripts/operations.ts';
import { videoOperations } from './domains/videos/operations.ts';
import { webhookOperations } from './domains/webhooks/operations.ts';
import { workspaceOperations } from './domains/workspace/operations.ts';

export const catalog: readonly AnyOperation[] = [
  ...videoOperations,
  ...analyticsOperations,
  ...outcomeOperations,
  ...webhookOperations,
  ...apiKeyOperations,
  ...peopleOperations,
  ...leadOperations,
  ...workspaceOperations,
  ...auditOperations,
  ...emailOperations,
  ...tagOperations,
  ...transcriptOperations,
  ...routeOperations,
  ...schedulingOperations,
  ...channelOperations,
  ...searchOperations,
];

/** The operations the API and MCP offer: all but the dashboard's own (Operation.dashboardOnly). */
export function apiOperations(operations: readonly AnyOperation[]): AnyOperation[] {
  return operations.filter((operation) => !operation.dashboardOnly);
}

/** Names DESIGN §3 gives as a bare verb: `search` searches everything, so it has no one noun. */
const BARE_VERBS: ReadonlySet<string> = new Set(['search']);

/** Throws, listing every violation, if the operations do not form a consistent catalog. */
export function checkCatalog(operations: readonly AnyOperation[]): void {
  const problems: string[] = [];
  const names = new Set<string>();
  const routes = new Set<string>();
  for (const op of operations) {
    const where = `${op.name} (${op.method} ${op.path})`;
    if (!/^[a-z]+(_[a-z]+)+$/.test(op.name) && !BARE_VERBS.has(op.name)) problems.push(`${where}: name must be snake_case verb_noun`);
    if (names.has(op.name)) problems.push(`${where}: duplicate name`);
    names.add(op.name);
    const route = `${op.method} ${op.path.replace(/\{[^}]+\}/g, '{}')}`;
    if (routes.has(route)) problems.push(`${where}: duplicate method and path`);
    routes.add(route);
    if (!op.path.startsWith('/')) problems.push(`${where}: path must start with /`);
    if (!isScope(op.scope)) problems.push(`${where}: unknown scope ${op.scope}`);
    if (op.write && !isWriteScope(op.scope)) problems.push(`${where}: a write must need a write scope`);
    if (!op.write && op.method !== 'GET' && op.method !== 'POST') problems.push(`${where}: ${op.method} must be a write`);
    if (op.method === 'GET' && op.write) problems.push(`${where}: GET must not write`);
    if (op.destructive && !op.write) problems.push(`${where}: destructive implies write`);
    const input = op.input as TObject;
    if (input.type !== 'object' || (input as { additionalProperties?: unknown }).additionalProperties !== false) {
      problems.push(`${where}: input must be an object schema that rejects unknown fields`);
    }
    for (const param of pathParams(op.path)) {
      if (!input.required?.includes(param)) problems.push(`${where}: path parameter ${param} must be a required input`);
    }
    for (const problem of idAnnotationProblems(input)) problems.push(`${where}: ${problem}`);
    if ((op.output as TObject).type !== 'object') problems.push(`${where}: output must be an object schema`);
    if (!op.summary || op.description.length < 40) problems.push(`${where}: needs a summary and a real description`);
  }
  if (problems.length > 0) throw new Error(`The operation catalog is inconsistent:\n- ${problems.join('\n- ')}`);
}
